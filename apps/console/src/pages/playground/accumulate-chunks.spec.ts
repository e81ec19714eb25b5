import type { ChatCompletionChunk } from '@chat-relay/contract';
import { accumulateChunk, emptyAnswer, prettyArguments } from './accumulate-chunks';

type Choice = ChatCompletionChunk['choices'][number];
const chunk = (choices: Array<Partial<Choice> & Pick<Choice, 'delta'>>, extra: Partial<ChatCompletionChunk> = {}): ChatCompletionChunk => ({
  id: 'chatcmpl-1',
  object: 'chat.completion.chunk',
  created: 1,
  model: 'gpt-4o-2024-08-06',
  choices: choices.map((choice) => ({ index: 0, finish_reason: null, ...choice })),
  ...extra,
});
const fold = (chunks: ChatCompletionChunk[]) => chunks.reduce(accumulateChunk, emptyAnswer());

describe('accumulateChunk', () => {
  it('joins the text deltas in order and keeps the answering model', () => {
    const answer = fold([chunk([{ delta: { role: 'assistant', content: '' } }]), chunk([{ delta: { content: 'Hel' } }]), chunk([{ delta: { content: 'lo' } }])]);
    expect(answer).toMatchObject({ content: 'Hello', model: 'gpt-4o-2024-08-06', finishReason: null, usage: null });
  });

  it('assembles tool calls by index across chunks, interleaved: id and name once, arguments concatenated', () => {
    const answer = fold([
      chunk([{ delta: { tool_calls: [{ index: 0, id: 'call_a', type: 'function', function: { name: 'get_weather', arguments: '' } }] } }]),
      chunk([{ delta: { tool_calls: [{ index: 1, id: 'call_b', type: 'function', function: { name: 'get_time', arguments: '{"tz":' } }] } }]),
      chunk([{ delta: { tool_calls: [{ index: 0, function: { arguments: '{"city":' } }] } }]),
      chunk([{ delta: { tool_calls: [{ index: 0, function: { arguments: '"Paris"}' } }, { index: 1, function: { arguments: '"CET"}' } }] } }]),
      chunk([{ delta: {}, finish_reason: 'tool_calls' }]),
    ]);
    expect(answer.toolCalls).toEqual([
      { index: 0, id: 'call_a', name: 'get_weather', arguments: '{"city":"Paris"}' },
      { index: 1, id: 'call_b', name: 'get_time', arguments: '{"tz":"CET"}' },
    ]);
    expect(answer.finishReason).toBe('tool_calls');
  });

  it('orders tool calls by index even when a later index arrives first', () => {
    const answer = fold([
      chunk([{ delta: { tool_calls: [{ index: 1, id: 'b', function: { name: 'second' } }] } }]),
      chunk([{ delta: { tool_calls: [{ index: 0, id: 'a', function: { name: 'first' } }] } }]),
    ]);
    expect(answer.toolCalls.map((call) => call.name)).toEqual(['first', 'second']);
  });

  it('keeps the finish reason and takes the usage from the final choiceless chunk', () => {
    const usage = { prompt_tokens: 12, completion_tokens: 3, total_tokens: 15 };
    const answer = fold([chunk([{ delta: { content: 'Hi' } }]), chunk([{ delta: {}, finish_reason: 'stop' }]), chunk([], { usage })]);
    expect(answer).toMatchObject({ content: 'Hi', finishReason: 'stop', usage });
  });

  it('reads only the first choice and collects a refusal apart from the text', () => {
    const answer = fold([chunk([{ delta: { refusal: 'I can’t ' } }, { index: 1, delta: { content: 'other choice' } }]), chunk([{ delta: { refusal: 'help.' } }])]);
    expect(answer).toMatchObject({ content: '', refusal: 'I can’t help.' });
  });

  it('does not change the answer it was given', () => {
    const before = emptyAnswer();
    accumulateChunk(before, chunk([{ delta: { content: 'x', tool_calls: [{ index: 0, id: 'c' }] } }]));
    expect(before).toEqual(emptyAnswer());
  });
});

describe('prettyArguments', () => {
  it('indents arguments that parse and leaves a partial stream as it is', () => {
    expect(prettyArguments('{"city":"Paris"}')).toBe('{\n  "city": "Paris"\n}');
    expect(prettyArguments('{"city":"Pa')).toBe('{"city":"Pa');
  });
});
