import type { ChatCompletionRequest, Tool } from '@chat-relay/contract';
import { selectTools, toolFitsText } from './select-tools';

const tool = (name: string): Tool => ({ type: 'function', function: { name, parameters: { type: 'object' } } });
const tools = [tool('get_weather'), tool('search-web'), tool('send_email')];

function request(extra: Partial<ChatCompletionRequest> = {}): ChatCompletionRequest {
  return { model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }], tools, ...extra };
}
const names = (selection: ReturnType<typeof selectTools>): string[] =>
  selection.kind === 'tools' ? selection.tools.map((fn) => fn.name) : [`invalid:${selection.param}`];

describe('toolFitsText', () => {
  it('reads _ and - as spaces, case-insensitively, and needs every word of the name', () => {
    expect(toolFitsText('get_weather', 'Please GET me the Weather in Paris')).toBe(true);
    expect(toolFitsText('search-web', 'search the web for cats')).toBe(true);
    expect(toolFitsText('get_weather', 'what is the weather')).toBe(false);
  });

  it('matches whole words only', () => {
    expect(toolFitsText('add', 'my address is here')).toBe(false);
  });
});

describe('selectTools', () => {
  it('calls the one tool that fits', () => {
    expect(names(selectTools(request(), 'get the weather in Rome'))).toEqual(['get_weather']);
  });

  it('calls every fitting tool, in definition order, when several fit', () => {
    expect(names(selectTools(request(), 'send email about the weather, get it first'))).toEqual([
      'get_weather',
      'send_email',
    ]);
  });

  it('calls the first tool when none fits', () => {
    expect(names(selectTools(request(), 'tell me a joke'))).toEqual(['get_weather']);
  });

  it('treats tool_choice "required" like auto', () => {
    expect(names(selectTools(request({ tool_choice: 'required' }), 'search web'))).toEqual(['search-web']);
  });

  it('calls no tool with tool_choice "none"', () => {
    expect(names(selectTools(request({ tool_choice: 'none' }), 'get weather'))).toEqual([]);
  });

  it('calls exactly the named tool, even when others fit', () => {
    const choice = { type: 'function' as const, function: { name: 'send_email' } };
    expect(names(selectTools(request({ tool_choice: choice }), 'get weather and search web'))).toEqual([
      'send_email',
    ]);
  });

  it('rejects a named tool that is not defined', () => {
    const choice = { type: 'function' as const, function: { name: 'nope' } };
    expect(names(selectTools(request({ tool_choice: choice }), 'hi'))).toEqual(['invalid:tool_choice']);
  });

  it('calls only the first fitting tool with parallel_tool_calls false', () => {
    const selection = selectTools(request({ parallel_tool_calls: false }), 'send email, get weather, search web');
    expect(names(selection)).toEqual(['get_weather']);
  });

  it('keeps to allowed_tools', () => {
    const choice = {
      type: 'allowed_tools' as const,
      allowed_tools: { mode: 'auto' as const, tools: [{ type: 'function', function: { name: 'send_email' } }] },
    };
    expect(names(selectTools(request({ tool_choice: choice }), 'get weather'))).toEqual(['send_email']);
  });

  it('calls custom tools too (Codex’s apply_patch, issue 29), and nothing without tools', () => {
    const custom: Tool = { type: 'custom', custom: { name: 'apply_patch' } };
    expect(names(selectTools(request({ tools: [...tools, custom] }), 'apply the patch'))).toEqual(['apply_patch']);
    expect(names(selectTools(request({ tools: [custom], tool_choice: { type: 'custom', custom: { name: 'apply_patch' } } }), 'hi'))).toEqual(['apply_patch']);
    expect(names(selectTools(request({ tools: undefined }), 'get weather'))).toEqual([]);
  });
});
