import { lost } from '../../testing/lost';
import { bridgeRequest } from '../testing/bridge-request';

const weather = {
  name: 'get_weather',
  description: 'Weather of a city',
  input_schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
};
const weatherFunction = {
  type: 'function',
  function: { name: 'get_weather', description: 'Weather of a city', parameters: weather.input_schema },
};

describe('convertMessagesToChat: tools and tool_choice', () => {
  it('a custom tool is a function tool: name, description, input_schema as parameters, strict kept', () => {
    const { request, warnings, nativeOnly } = bridgeRequest({
      tools: [weather, { type: 'custom', name: 'ping', input_schema: { type: 'object' }, strict: true }],
    });
    expect(request.tools).toEqual([
      weatherFunction,
      { type: 'function', function: { name: 'ping', parameters: { type: 'object' }, strict: true } },
    ]);
    expect(request).not.toHaveProperty('tool_choice');
    expect(request).not.toHaveProperty('parallel_tool_calls');
    expect([warnings, nativeOnly]).toEqual([[], undefined]);
  });

  it.each([
    [{ type: 'auto' }, 'auto'],
    [{ type: 'any' }, 'required'],
    [{ type: 'none' }, 'none'],
    [{ type: 'tool', name: 'get_weather' }, { type: 'function', function: { name: 'get_weather' } }],
  ])('tool_choice %j → %j', (toolChoice, expected) => {
    const { request } = bridgeRequest({ tools: [weather], tool_choice: toolChoice });
    expect(request.tool_choice).toEqual(expected);
    expect(request).not.toHaveProperty('parallel_tool_calls');
  });

  it('disable_parallel_tool_use: true → parallel_tool_calls: false; false asks for nothing', () => {
    expect(bridgeRequest({ tools: [weather], tool_choice: { type: 'any', disable_parallel_tool_use: true } }).request).toMatchObject({
      tool_choice: 'required',
      parallel_tool_calls: false,
    });
    expect(bridgeRequest({ tools: [weather], tool_choice: { type: 'auto', disable_parallel_tool_use: false } }).request).not.toHaveProperty(
      'parallel_tool_calls',
    );
  });

  it('cache_control and fields Chat Completions tools lack are dropped, each named in a warning', () => {
    const { request, warnings } = bridgeRequest({
      tools: [{ ...weather, cache_control: { type: 'ephemeral' }, input_examples: [{ city: 'Paris' }] }],
    });
    expect(request.tools).toEqual([weatherFunction]);
    expect(warnings).toEqual([lost('cache_control'), lost('tools[0].input_examples')]);
  });

  it.each([
    ['web_search_20250305', { type: 'web_search_20250305', name: 'web_search', max_uses: 3 }],
    ['bash_20250124', { type: 'bash_20250124', name: 'bash' }],
    ['text_editor_20250728', { type: 'text_editor_20250728', name: 'str_replace_based_edit_tool' }],
    ['code_execution_20250825', { type: 'code_execution_20250825', name: 'code_execution' }],
  ])('the server tool %s is Anthropic only; the custom tools are still converted', (_type, serverTool) => {
    const { request, nativeOnly } = bridgeRequest({ tools: [weather, serverTool] });
    expect(nativeOnly?.param).toBe('tools[1].type');
    expect(nativeOnly?.message).toContain(serverTool.type);
    expect(request.tools).toEqual([weatherFunction]);
  });

  it('with no tool to apply to, tools, tool_choice and parallel_tool_calls are not sent (OpenAI refuses them)', () => {
    const { request, warnings } = bridgeRequest({ tools: [], tool_choice: { type: 'auto', disable_parallel_tool_use: true } });
    expect(request).not.toHaveProperty('tools');
    expect(request).not.toHaveProperty('tool_choice');
    expect(request).not.toHaveProperty('parallel_tool_calls');
    expect(warnings).toEqual([lost('tool_choice')]);
  });
});
