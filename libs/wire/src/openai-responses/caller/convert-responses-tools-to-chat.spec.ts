import { lost } from '../../testing/lost';
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

  it.each(['file_search', 'code_interpreter', 'mcp', 'image_generation', 'computer_use_preview', 'local_shell'])(
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

  it.each([{ type: 'allowed_tools', mode: 'auto', tools: [{ type: 'function', name: 'weather' }] }, { type: 'web_search' }, { type: 'mcp', server_label: 'x' }])(
    'tool_choice %j is native only',
    (choice) => {
      expect(nativeOnlyOf({ tools: [weather], tool_choice: choice })?.[0]).toBe('tool_choice');
    },
  );

  it("without tools, tool_choice 'auto' / 'none' and parallel_tool_calls ask nothing and are not sent (Chat Completions refuses them alone)", () => {
    const { request } = bridgeResponses({ tool_choice: 'auto', parallel_tool_calls: true });
    expect(Object.keys(request)).toEqual(['model', 'messages']);
  });

  // Issue 29, defect 1: Codex's tools were refused on every bridged channel.
  const applyPatch = { type: 'custom', name: 'apply_patch', description: 'Edit files.', format: { type: 'grammar', syntax: 'lark', definition: 'start: "*** Begin Patch"' } };

  it('codex_custom_tool_refused: a custom tool → a Chat Completions custom tool, its grammar under format.grammar; tool_choice naming it too', () => {
    const converted = bridgeResponses({ tools: [weather, applyPatch, { type: 'custom', name: 'note', format: { type: 'text' } }, { type: 'custom', name: 'raw' }], tool_choice: { type: 'custom', name: 'apply_patch' } });
    expect(converted.nativeOnly).toBeUndefined();
    expect(converted.request.tools?.slice(1)).toEqual([
      { type: 'custom', custom: { name: 'apply_patch', description: 'Edit files.', format: { type: 'grammar', grammar: { syntax: 'lark', definition: 'start: "*** Begin Patch"' } } } },
      { type: 'custom', custom: { name: 'note', format: { type: 'text' } } },
      { type: 'custom', custom: { name: 'raw' } },
    ]);
    expect(converted.request.tool_choice).toEqual({ type: 'custom', custom: { name: 'apply_patch' } });
    expect(bridgeErrorFor({ tools: [{ type: 'custom', name: 'x', format: { type: 'grammar', syntax: 'ebnf', definition: 'a' } }] }).param).toBe('tools[0]');
  });

  it('codex_namespace_tool_refused: a namespace → its function and custom tools as <namespace>__<name>; too long a name is cut and tagged, the same each time', () => {
    const namespace = { type: 'namespace', name: 'multi_agent_v1', description: 'Sub-agents.', tools: [{ ...weather, name: 'close_agent' }, { ...applyPatch, name: 'exec' }] };
    const { request, nativeOnly } = bridgeResponses({ tools: [weather, namespace] });
    expect(nativeOnly).toBeUndefined();
    expect(request.tools?.map((tool) => (tool.type === 'function' ? tool.function.name : tool.custom.name))).toEqual(['weather', 'multi_agent_v1__close_agent', 'multi_agent_v1__exec']);
    const long = { type: 'namespace', name: 'n'.repeat(40), description: '', tools: [{ ...weather, name: 'w'.repeat(40) }] };
    const names = [0, 1].map(() => bridgeResponses({ tools: [long] }).request.tools?.[0]);
    expect(names[0]).toEqual(names[1]);
    const name = names[0]?.type === 'function' ? names[0].function.name : '';
    expect(name).toMatch(/^n{40}__w{13}_[0-9a-f]{8}$/);
  });

  it('two tools offered under one name are a 400 (their calls could not be told apart)', () => {
    const clash = { type: 'namespace', name: 'a', description: '', tools: [{ ...weather, name: 'b' }] };
    expect(bridgeErrorFor({ tools: [{ ...weather, name: 'a__b' }, clash] }).param).toBe('tools[1]');
  });

  it('codex_tool_search_refused: tool_search is not sent (warned), and deferred tools are offered directly, without defer_loading', () => {
    const converted = bridgeResponses({ tools: [{ type: 'tool_search', execution: 'client', description: 'Search tools.', parameters: { type: 'object' } }, { ...weather, defer_loading: true }] });
    expect(converted.nativeOnly).toBeUndefined();
    expect(converted.request.tools).toEqual([{ type: 'function', function: { name: 'weather', description: 'Weather of a city.', parameters: weather.parameters, strict: true } }]);
    expect(converted.warnings).toContainEqual(lost(/^(tools|input)\[\d+\]/));
    expect(converted.warnings).toContainEqual(expect.objectContaining({ reason: expect.stringContaining('cannot search deferred tools') }));
  });

  it('codex_additional_tools_refused: the tools of additional_tools input items are tools (namespaces opened), and the item is no message', () => {
    const added = { type: 'additional_tools', id: 'at_1', role: 'developer', tools: [{ type: 'namespace', name: 'functions', description: '', tools: [applyPatch] }, weather] };
    const converted = bridgeResponses({ input: [added, { role: 'user', content: 'Hi' }] });
    expect(converted.nativeOnly).toBeUndefined();
    expect(converted.request.tools?.map((tool) => (tool.type === 'function' ? tool.function.name : tool.custom.name))).toEqual(['functions__apply_patch', 'weather']);
    expect(converted.request.messages).toEqual([{ role: 'user', content: 'Hi' }]);
    expect(bridgeErrorFor({ input: [{ type: 'additional_tools', id: 'at_1', role: 'developer' }, { role: 'user', content: 'Hi' }] }).param).toBe('input[0].tools');
    const searching = bridgeResponses({ input: [{ ...added, tools: [{ type: 'web_search' }] }, { role: 'user', content: 'Hi' }] });
    expect({ webSearch: searching.webSearch, warnings: searching.warnings }).toEqual({ webSearch: undefined, warnings: [lost('input[0].tools[0]')] });
    expect(nativeOnlyOf({ input: [{ ...added, tools: [{ type: 'file_search' }] }, { role: 'user', content: 'Hi' }] })?.[0]).toBe('input[0].tools[0].type');
  });

  it('a function name Chat Completions refuses is a 400 naming it', () => {
    expect(bridgeErrorFor({ tools: [{ type: 'function', name: 'get weather' }] }).param).toBe('tools[0].name');
  });
});
