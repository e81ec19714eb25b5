import type { ChatCompletion, ChatCompletionRequest, ResponseWebSearchCall } from '@chat-relay/contract';
import type { ChunkTransformer, ConvertedCompletion, RelayFunctionCall, SseEvent, StreamStep, StreamTransformer } from '@chat-relay/wire';
import { addReportedUsage, RelayFunctionStream, wholeThroughLoop, type NextModelCall, type RelayFunction } from './relay-function-loop';

const request: ChatCompletionRequest = { model: 'm', messages: [{ role: 'user', content: 'q' }] };
const never = { aborted: false, addEventListener: () => undefined, removeEventListener: () => undefined };

/** A relay function that answers each call with `result <n>`, at most `max` calls. */
function fakeFunction(max = 5): RelayFunction & { ran: RelayFunctionCall[]; shown: ResponseWebSearchCall[] } {
  const ran: RelayFunctionCall[] = [];
  const shown: ResponseWebSearchCall[] = [];
  return {
    name: 'web_search',
    ran,
    shown,
    get exhausted() {
      return ran.length >= max;
    },
    run: async (calls, _signal, show) => {
      for (const call of calls) {
        ran.push(call);
        show?.({ type: 'web_search_call', id: `ws_${ran.length}`, status: 'in_progress' });
      }
      return calls.map((_call, index) => `result ${index}`);
    },
  };
}

const completion = (calls: Array<{ name: string; id: string }>, usage: { prompt_tokens: number; completion_tokens: number }): Extract<ConvertedCompletion, { ok: true }> => {
  const body: ChatCompletion = {
    id: 'c',
    object: 'chat.completion',
    created: 1,
    model: 'm',
    choices: [
      {
        index: 0,
        message: { role: 'assistant', content: calls.length ? null : 'the answer', ...(calls.length ? { tool_calls: calls.map((call) => ({ id: call.id, type: 'function' as const, function: { name: call.name, arguments: '{"query":"x"}' } })) } : {}) },
        finish_reason: calls.length ? 'tool_calls' : 'stop',
        logprobs: null,
      },
    ],
    usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens },
  };
  return { ok: true, body: body as unknown as Record<string, unknown>, usage: { promptTokens: usage.prompt_tokens, completionTokens: usage.completion_tokens }, deliveredChars: 1 };
};

describe('wholeThroughLoop', () => {
  it('runs the model’s calls of the function, asks again with their results, and answers the last call with every call’s usage added up', async () => {
    const fn = fakeFunction();
    const sent: ChatCompletionRequest[] = [];
    const answers = [completion([{ name: 'web_search', id: 'call_2' }], { prompt_tokens: 20, completion_tokens: 3 }), completion([], { prompt_tokens: 40, completion_tokens: 7 })];
    const next: NextModelCall = { whole: async (asked) => (sent.push(asked), String(sent.length)), stream: () => Promise.reject(new Error('not streamed')) };
    const convert = (text: string) => answers[Number(text) - 1] ?? { ok: false as const, error: new Error('no answer') as never };
    const first = completion([{ name: 'web_search', id: 'call_1' }], { prompt_tokens: 10, completion_tokens: 2 });
    const answered = await wholeThroughLoop(first, { request, fn, next, convert, signal: never });
    if (!answered.ok) throw new Error('failed');
    expect(fn.ran.map((call) => call.id)).toEqual(['call_1', 'call_2']);
    expect(sent).toHaveLength(2);
    expect(sent[1]?.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'tool', 'assistant', 'tool']);
    expect(answered.usage).toEqual({ promptTokens: 70, completionTokens: 12 });
    expect(answered.body['usage']).toEqual({ prompt_tokens: 70, completion_tokens: 12, total_tokens: 82 });
    expect((answered.body as unknown as ChatCompletion).choices[0]?.message.content).toBe('the answer');
  });

  it('a call of the caller’s own beside it ends the loop: nothing runs, the caller gets its call and not the relay’s', async () => {
    const fn = fakeFunction();
    const next: NextModelCall = { whole: () => Promise.reject(new Error('no next call')), stream: () => Promise.reject(new Error('no next call')) };
    const first = completion([{ name: 'web_search', id: 'call_1' }, { name: 'shell', id: 'call_2' }], { prompt_tokens: 10, completion_tokens: 2 });
    const answered = await wholeThroughLoop(first, { request, fn, next, convert: () => first, signal: never });
    expect(fn.ran).toEqual([]);
    const calls = answered.ok ? (answered.body as unknown as ChatCompletion).choices[0]?.message.tool_calls : undefined;
    expect(calls?.map((call) => (call.type === 'function' ? call.function.name : ''))).toEqual(['shell']);
  });

  it('the bound: once the function is exhausted the next request asks for no more calls, and a call past it is not run', async () => {
    const fn = fakeFunction(1);
    const sent: ChatCompletionRequest[] = [];
    const again = completion([{ name: 'web_search', id: 'call_2' }], { prompt_tokens: 20, completion_tokens: 3 });
    const next: NextModelCall = { whole: async (asked) => (sent.push(asked), ''), stream: () => Promise.reject(new Error('not streamed')) };
    const answered = await wholeThroughLoop(completion([{ name: 'web_search', id: 'call_1' }], { prompt_tokens: 10, completion_tokens: 2 }), { request, fn, next, convert: () => again, signal: never });
    expect(fn.ran).toHaveLength(1);
    expect(sent.map((asked) => asked.tool_choice)).toEqual(['none']);
    expect(answered.ok && (answered.body as unknown as ChatCompletion).choices[0]?.message.tool_calls).toBeUndefined();
  });
});

/** An upstream transformer whose events are hub chunks already (`data` passed on). */
function passOn(usage: { promptTokens: number; completionTokens: number }): StreamTransformer {
  let complete = false;
  return {
    transform: (event: SseEvent): StreamStep[] => (event.data === '[DONE]' ? ((complete = true), []) : [{ kind: 'chunk', json: event.data }]),
    finish: () => [],
    get complete() {
      return complete;
    },
    usage,
    deliveredChars: 0,
    deliveredText: '',
  };
}

describe('RelayFunctionStream', () => {
  const chunk = (fields: Record<string, unknown>) => ({ data: JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 1, model: 'm', ...fields }) });
  const toolCall = chunk({ choices: [{ index: 0, delta: { tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'web_search', arguments: '{}' } }] }, finish_reason: 'tool_calls' }] });
  const text = chunk({ choices: [{ index: 0, delta: { content: 'done' }, finish_reason: 'stop' }] });
  const usage = (prompt: number) => chunk({ choices: [], usage: { prompt_tokens: prompt, completion_tokens: 1, total_tokens: prompt + 1 } });

  it('one answer over two model calls: the relay’s call hidden and run between them, the usage summed once at the end', async () => {
    const fn = fakeFunction();
    const seen: string[] = [];
    const bridge: ChunkTransformer = {
      transform: (json) => (seen.push(json), []),
      finish: () => [{ kind: 'chunk', json: 'finished' }],
      hostedSearch: (item) => [{ kind: 'chunk', json: `search ${item.id}` }],
    };
    const legs = [passOn({ promptTokens: 20, completionTokens: 1 })];
    const next: NextModelCall = { whole: () => Promise.reject(new Error('streamed')), stream: async () => ({ upstream: [][Symbol.iterator]() as unknown as AsyncIterator<Buffer>, first: Buffer.from('') }) };
    const stream = new RelayFunctionStream({ fn, request, first: passOn({ promptTokens: 10, completionTokens: 1 }), newCall: () => legs.shift() ?? passOn({ promptTokens: 0, completionTokens: 0 }), bridge, next, publicModel: 'm', signal: never });

    for (const event of [toolCall, usage(10), { data: '[DONE]' }]) stream.transform(event);
    expect(stream.finish()).toEqual([]);
    expect(stream.complete).toBe(false);
    const emitted: StreamStep[] = [];
    expect(await stream.next((steps) => emitted.push(...steps))).toBeDefined();
    expect(emitted).toEqual([{ kind: 'chunk', json: 'search ws_1' }]);
    expect(fn.ran.map((call) => call.id)).toEqual(['call_1']);

    for (const event of [text, usage(20), { data: '[DONE]' }]) stream.transform(event);
    expect(stream.finish().at(-1)).toEqual({ kind: 'chunk', json: 'finished' });
    expect(stream.complete).toBe(true);
    expect(await stream.next(() => undefined)).toBeUndefined();
    // The bridge saw no call of the relay's function, and one usage chunk: the sum.
    expect(seen.some((json) => json.includes('web_search'))).toBe(false);
    const usages = seen.map((json) => JSON.parse(json) as { usage?: unknown }).filter((parsed) => parsed.usage !== undefined);
    expect(usages.map((parsed) => parsed.usage)).toEqual([{ prompt_tokens: 30, completion_tokens: 2, total_tokens: 32 }]);
    expect(stream.usage).toEqual({ promptTokens: 30, completionTokens: 2 });
  });

  it('addReportedUsage keeps what either side says, and an unknown completion stays unknown', () => {
    expect(addReportedUsage({ promptTokens: 1, completionTokens: 2, cacheReadTokens: 1 }, { promptTokens: 3, completionTokens: 4, completionUnknown: true })).toEqual({
      promptTokens: 4,
      completionTokens: 6,
      cacheReadTokens: 1,
      completionUnknown: true,
    });
    expect(addReportedUsage(undefined, { promptTokens: 1, completionTokens: 1 })).toEqual({ promptTokens: 1, completionTokens: 1 });
  });
});
