import type { ChatCompletionRequest } from '@chat-relay/contract';
import { RelayFunctionCalls, sumChatUsage, withRelayFunctionResults } from './relay-function-calls';

const chunk = (fields: Record<string, unknown>) => JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 1, model: 'm', ...fields });
const delta = (value: Record<string, unknown>) => chunk({ choices: [{ index: 0, delta: value, finish_reason: null }] });

describe('RelayFunctionCalls', () => {
  it('takes the calls of the relay’s function out of the hub stream (every fragment), keeps the caller’s and the text', () => {
    const calls = new RelayFunctionCalls('web_search');
    const seen = [
      delta({ role: 'assistant', content: 'Let me look. ' }),
      delta({ tool_calls: [{ index: 0, id: 'call_a', type: 'function', function: { name: 'web_search', arguments: '{"qu' } }] }),
      delta({ tool_calls: [{ index: 0, function: { arguments: 'ery":"rust"}' } }, { index: 1, id: 'call_b', type: 'function', function: { name: 'shell', arguments: '{}' } }] }),
    ].map((json) => calls.take(json));
    expect(seen[0]).toBe(delta({ role: 'assistant', content: 'Let me look. ' }));
    expect(JSON.parse(seen[1] ?? '{}').choices[0].delta).toEqual({});
    expect(JSON.parse(seen[2] ?? '{}').choices[0].delta.tool_calls).toEqual([{ index: 1, id: 'call_b', type: 'function', function: { name: 'shell', arguments: '{}' } }]);
    expect(calls.own).toEqual([{ id: 'call_a', arguments: '{"query":"rust"}' }]);
    expect(calls.others).toBe(true);
    expect(calls.text).toBe('Let me look. ');
  });

  it('holds back each model call’s usage and gives the sum once, as one chunk; the next call starts afresh but adds up', () => {
    const calls = new RelayFunctionCalls('web_search');
    expect(calls.take(chunk({ choices: [], usage: { prompt_tokens: 10, completion_tokens: 2, total_tokens: 12, prompt_tokens_details: { cached_tokens: 4 } } }))).toBeUndefined();
    calls.take(delta({ tool_calls: [{ index: 0, id: 'call_a', function: { name: 'web_search', arguments: '{}' } }] }));
    calls.nextCall();
    expect(calls.own).toEqual([]);
    expect(calls.take(chunk({ choices: [], usage: { prompt_tokens: 30, completion_tokens: 5, total_tokens: 35, prompt_tokens_details: { cached_tokens: 1 } } }))).toBeUndefined();
    expect(JSON.parse(calls.usageChunk('m') ?? '{}')).toMatchObject({ choices: [], usage: { prompt_tokens: 40, completion_tokens: 7, total_tokens: 47, prompt_tokens_details: { cached_tokens: 5 } } });
  });

  it('sumChatUsage adds numbers field by field, nested too', () => {
    expect(sumChatUsage({ a: 1, b: { c: 2 } }, { a: 2, b: { c: 3 }, d: 4 })).toEqual({ a: 3, b: { c: 5 }, d: 4 });
  });
});

describe('withRelayFunctionResults', () => {
  const request: ChatCompletionRequest = { model: 'm', messages: [{ role: 'user', content: 'q' }], tool_choice: { type: 'function', function: { name: 'web_search' } } };
  const turn = { text: '', functionName: 'web_search', calls: [{ id: 'call_a', arguments: '{"query":"q"}' }], results: ['sources'] };

  it('adds the model’s turn and one tool result per call; a forced choice of the function becomes auto', () => {
    const next = withRelayFunctionResults(request, turn, false);
    expect(next.messages.slice(1)).toEqual([
      { role: 'assistant', content: null, tool_calls: [{ id: 'call_a', type: 'function', function: { name: 'web_search', arguments: '{"query":"q"}' } }] },
      { role: 'tool', tool_call_id: 'call_a', content: 'sources' },
    ]);
    expect(next.tool_choice).toBe('auto');
  });

  it('the last allowed: tool_choice none, the model must answer; a call without id gets one', () => {
    const next = withRelayFunctionResults({ ...request, tool_choice: undefined }, { ...turn, calls: [{ id: '', arguments: '{}' }] }, true);
    expect(next.tool_choice).toBe('none');
    const id = next.messages[1]?.role === 'assistant' ? next.messages[1].tool_calls?.[0]?.id : undefined;
    expect(id).toMatch(/^call_relay_/);
    expect(next.messages[2]).toMatchObject({ role: 'tool', tool_call_id: id });
  });
});
