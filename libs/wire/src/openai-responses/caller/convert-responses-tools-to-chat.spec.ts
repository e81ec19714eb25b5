import { bridgeErrorFor, bridgeResponses, nativeOnlyOf } from '../testing/bridge-responses-request';

const weather = { type: 'function', name: 'weather', description: 'Weather of a city.', parameters: { type: 'object', properties: { city: { type: 'string' } } }, strict: true };

describe('convertResponsesToChat: tools', () => {
  it('a function tool → a Chat Completions function with its name, description, parameters and strict', () => {
    const { request } = bridgeResponses({ tools: [weather], tool_choice: 'required', parallel_tool_calls: false });
    expect(request).toMatchObject({
      tools: [{ type: 'function', function: { name: 'weather', description: 'Weather of a city.', parameters: weather.parameters, strict: true } }],
      tool_choice: 'required',
      parallel_tool_calls: false,
    });
  });

  it('no parameters → an empty object schema; description and strict only when given', () => {
    const { request } = bridgeResponses({ tools: [{ type: 'function', name: 'ping', parameters: null, strict: null }] });
    expect(request.tools).toEqual([{ type: 'function', function: { name: 'ping', parameters: { type: 'object', properties: {} } } }]);
  });

  it.each(['web_search', 'web_search_preview', 'web_search_2025_08_26', 'web_search_preview_2025_03_11'])(
    'a %s tool is offered as the relay’s function web_search after the caller’s; no longer native only',
    (type) => {
      const converted = bridgeResponses({ tools: [{ type, search_context_size: 'high' }, weather] });
      expect(converted.nativeOnly).toBeUndefined();
      expect(converted.request.tools?.map((tool) => (tool.type === 'function' ? tool.function.name : tool.type))).toEqual(['weather', 'web_search']);
      expect(converted.webSearch).toEqual({ functionName: 'web_search', maxResults: 8 });
    },
  );

  it("tool_choice with a web search: 'required' as is (the search is a tool), a web search choice forces its function", () => {
    expect(bridgeResponses({ tools: [weather, { type: 'web_search' }], tool_choice: 'required' }).request.tool_choice).toBe('required');
    expect(bridgeResponses({ tools: [{ type: 'web_search' }], tool_choice: 'required' }).request.tool_choice).toBe('required');
    const forced = bridgeResponses({ tools: [weather, { type: 'web_search_preview' }], tool_choice: { type: 'web_search_preview' } });
    expect({ nativeOnly: forced.nativeOnly, choice: forced.request.tool_choice }).toEqual({ nativeOnly: undefined, choice: { type: 'function', function: { name: 'web_search' } } });
    const cacheOnly = bridgeResponses({ tools: [weather, { type: 'web_search', external_web_access: false }], tool_choice: { type: 'web_search' } });
    expect(cacheOnly.request).not.toHaveProperty('tool_choice');
  });

  it("tool_choice 'none' with a web search: no search, no tools sent", () => {
    const converted = bridgeResponses({ tools: [{ type: 'web_search' }], tool_choice: 'none' });
    expect(converted.webSearch).toBeUndefined();
    expect(Object.keys(converted.request)).toEqual(['model', 'messages']);
  });

  it.each(['file_search', 'code_interpreter', 'mcp', 'image_generation', 'computer_use_preview', 'custom', 'local_shell'])(
    'a %s tool runs at OpenAI: native only, naming tools[i].type',
    (type) => {
      expect(nativeOnlyOf({ tools: [weather, { type }] })).toEqual([
        'tools[1].type',
        `'tools[1].type': the '${type}' tool is only available on channels that speak the Responses API natively.`,
      ]);
    },
  );

  it.each(['none', 'auto', 'required'])('tool_choice %s as is', (choice) => {
    expect(bridgeResponses({ tools: [weather], tool_choice: choice }).request.tool_choice).toBe(choice);
  });

  it('tool_choice naming a function → the Chat Completions form', () => {
    expect(bridgeResponses({ tools: [weather], tool_choice: { type: 'function', name: 'weather' } }).request.tool_choice).toEqual({
      type: 'function',
      function: { name: 'weather' },
    });
  });

  it.each([{ type: 'allowed_tools', mode: 'auto', tools: [{ type: 'function', name: 'weather' }] }, { type: 'web_search' }, { type: 'mcp', server_label: 'x' }, { type: 'custom', name: 'c' }])(
    'tool_choice %j is native only',
    (choice) => {
      expect(nativeOnlyOf({ tools: [weather], tool_choice: choice })?.[0]).toBe('tool_choice');
    },
  );

  it("without tools, tool_choice 'auto' / 'none' and parallel_tool_calls ask nothing and are not sent (Chat Completions refuses them alone)", () => {
    const { request } = bridgeResponses({ tool_choice: 'auto', parallel_tool_calls: true });
    expect(Object.keys(request)).toEqual(['model', 'messages']);
  });

  it('a function name Chat Completions refuses is a 400 naming it', () => {
    expect(bridgeErrorFor({ tools: [{ type: 'function', name: 'get weather' }] }).param).toBe('tools[0].name');
  });
});
