import type { ChatCompletionRequest } from '@chat-relay/contract';
import { decideAnswer, withToolPreamble } from './decide-answer';
import { readDirectives } from './faults';

const request = (content: string, extra: Record<string, unknown> = {}): ChatCompletionRequest => ({
  model: 'gpt-4o',
  messages: [{ role: 'user', content }],
  tools: [{ type: 'function', function: { name: 'get_time' } }],
  ...extra,
});

describe('the preamble directive', () => {
  it('reads [sim:preamble=on|off] and x_sim.preamble, the body winning', () => {
    const preambleOf = (value: ChatCompletionRequest) => {
      const result = readDirectives(value);
      return result.kind === 'directives' ? result.directives.toolPreamble : result.kind;
    };
    expect(preambleOf(request('x [sim:preamble=on]'))).toBe(true);
    expect(preambleOf(request('x [sim:preamble=off]'))).toBe(false);
    expect(preambleOf(request('x [sim:preamble=on]', { x_sim: { preamble: false } }))).toBe(false);
    expect(preambleOf(request('x'))).toBeUndefined();
    expect(readDirectives(request('x [sim:preamble=maybe]'))).toMatchObject({ kind: 'invalid', param: 'messages' });
    expect(readDirectives(request('x', { x_sim: { preamble: 3 } }))).toMatchObject({ kind: 'invalid', param: 'x_sim.preamble' });
  });

  it('adds a text naming the calls and its tokens to the usage; a text answer stays as it is', () => {
    const plan = decideAnswer(request('get time'));
    const withText = withToolPreamble(plan);
    expect(withText).toMatchObject({ kind: 'tool_calls', preamble: 'Let me call get_time.' });
    if (plan.kind !== 'tool_calls' || withText.kind !== 'tool_calls') throw new Error('expected tool calls');
    expect(withText.usage.completion_tokens).toBe(plan.usage.completion_tokens + 4);
    expect(withText.usage.total_tokens).toBe(withText.usage.prompt_tokens + withText.usage.completion_tokens);
    const text = decideAnswer(request('hello', { tool_choice: 'none' }));
    expect(withToolPreamble(text)).toBe(text);
  });
});
