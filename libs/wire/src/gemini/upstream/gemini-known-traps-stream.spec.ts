/*
 * The Known traps of issue 5 that live in a Gemini stream: each `describe` is named after its
 * trap. Every chunk is also checked against the official OpenAI spec.
 */
import { expectOpenAiValid } from '../testing/expect-openai-valid';
import { accumulateContent, accumulateToolCalls } from '../testing/gemini-channel';
import { readGeminiCassette, readGeminiStreamLines, runGeminiStream, type StreamChunk } from '../testing/gemini-fixtures';

function runValid(events: readonly string[], callerWantsUsage = true) {
  const run = runGeminiStream(events, callerWantsUsage);
  for (const chunk of run.chunks) expectOpenAiValid('CreateChatCompletionStreamResponse', chunk);
  return run;
}

/** The recorded three-call answer of cassette-parallel-function-calls.yaml, as one SSE event. */
const parallelEvent = () => JSON.stringify(readGeminiCassette('cassette-parallel-function-calls.yaml')[0]?.responseJson);
const event = (parts: unknown[], finishReason?: string) => {
  const candidate = { content: { role: 'model', parts }, ...(finishReason ? { finishReason } : {}) };
  return JSON.stringify({ candidates: [candidate], responseId: 'r' });
};
const finishReasons = (chunks: readonly StreamChunk[]) =>
  chunks.flatMap((chunk) => chunk.choices.map((choice) => choice.finish_reason)).filter(Boolean);
const toolIndexes = (chunks: readonly StreamChunk[]) =>
  chunks.flatMap((chunk) => chunk.choices[0]?.delta.tool_calls?.map((call) => call.index) ?? []);

describe('trap: parallel tool calls all streamed with index: 0', () => {
  it('gives each of three parallel calls its own index and id', () => {
    const { chunks } = runValid([parallelEvent()]);
    const calls = accumulateToolCalls(chunks);
    expect(calls.map(({ name, arguments: args }) => [name, args])).toEqual([
      ['generate_topic', '{}'],
      ['generate_topic', '{}'],
      ['generate_topic', '{}'],
    ]);
    expect(new Set(calls.map((call) => call.id)).size).toBe(3);
  });

  it('keeps counting across events: calls in later events do not start again at 0', () => {
    const { chunks } = runValid([
      event([{ functionCall: { name: 'a', args: { x: 1 } } }]),
      event([{ functionCall: { name: 'b', args: {} } }, { functionCall: { name: 'c', args: {} } }], 'STOP'),
    ]);
    expect(toolIndexes(chunks)).toEqual([0, 1, 2]);
  });
});

describe('trap: the tool name repeated on every delta or empty in the first', () => {
  it('sends each call in exactly one delta carrying id, name and the complete arguments', () => {
    const events = readGeminiStreamLines('generate-content-tool-call.stream.jsonl');
    const deltas = runValid(events).chunks.flatMap((chunk) => chunk.choices[0]?.delta.tool_calls ?? []);
    expect(deltas).toHaveLength(1);
    expect(deltas[0]).toMatchObject({
      index: 0,
      type: 'function',
      function: { name: 'weather', arguments: '{"location":"San Francisco"}' },
    });
    expect(deltas[0]?.id).toMatch(/^call_/);
    expect(accumulateToolCalls(runValid([parallelEvent()]).chunks).map((call) => call.deltas)).toEqual([1, 1, 1]);
  });
});

describe('trap: a no-argument tool streamed as "" instead of "{}"', () => {
  it('cassette-stream-thought-signature.yaml: get_country (args {}) streams "{}"', () => {
    const [first] = readGeminiCassette('cassette-stream-thought-signature.yaml');
    expect(accumulateToolCalls(runValid(first?.responseEvents ?? []).chunks).map((call) => call.arguments)).toEqual(['{}']);
  });

  it('a functionCall without args at all still streams "{}"', () => {
    expect(accumulateToolCalls(runValid([event([{ functionCall: { name: 'ping' } }], 'STOP')]).chunks)[0]?.arguments).toBe('{}');
  });
});

describe('trap: a part index reused as the tool index (the Anthropic block-index trap, Gemini side)', () => {
  it('numbers calls, not parts: text before the call leaves its index at 0', () => {
    const parts = [{ text: 'Let me check.' }, { functionCall: { name: 'weather', args: { city: 'Oslo' } } }];
    const { chunks } = runValid([event(parts, 'STOP')]);
    expect(toolIndexes(chunks)).toEqual([0]);
    expect(accumulateContent(chunks)).toBe('Let me check.');
  });
});

describe('trap: Gemini ending a tool call with STOP', () => {
  it.each([
    [
      'generate-content-tool-call.stream.jsonl (call, then an event with STOP)',
      () => readGeminiStreamLines('generate-content-tool-call.stream.jsonl'),
    ],
    [
      'cassette-stream-tool-roundtrip.yaml (call and STOP in one event)',
      () => readGeminiCassette('cassette-stream-tool-roundtrip.yaml')[0]?.responseEvents ?? [],
    ],
  ])('%s finishes with tool_calls, exactly once', (_name, events) => {
    const { chunks, transformer } = runValid(events());
    expect(finishReasons(chunks)).toEqual(['tool_calls']);
    expect(transformer.complete).toBe(true);
  });

  it('and text ending with STOP stays stop', () => {
    expect(finishReasons(runValid(readGeminiStreamLines('generate-content-text.stream.jsonl')).chunks)).toEqual(['stop']);
  });
});

describe('trap: content null versus "" on an assistant message with tool calls (stream)', () => {
  it('a caller accumulating a calls-only stream ends with content null; a text stream starts from ""', () => {
    expect(accumulateContent(runValid(readGeminiStreamLines('generate-content-tool-call.stream.jsonl')).chunks)).toBeNull();
    const textRole = runValid(readGeminiStreamLines('generate-content-text.stream.jsonl')).chunks[0]?.choices[0]?.delta;
    expect(textRole).toEqual({ role: 'assistant', content: '' });
  });
});

describe('trap: the final usage chunk', () => {
  it('comes once, last, after the finish chunk, with choices [] and the last usage Gemini reported', () => {
    const [, second] = readGeminiCassette('cassette-stream-thought-signature.yaml');
    const { chunks } = runValid(second?.responseEvents ?? [], true);
    const usageChunks = chunks.filter((chunk) => chunk.usage !== undefined);
    expect(usageChunks).toHaveLength(1);
    expect(chunks.at(-1)).toBe(usageChunks[0]);
    expect(chunks.at(-1)?.choices).toEqual([]);
    expect(chunks.at(-2)?.choices[0]?.finish_reason).toBe('stop');
    expect(chunks.at(-1)?.usage).toMatchObject({ prompt_tokens: 257, completion_tokens: 8, total_tokens: 265 });
  });

  it('is left out without include_usage, and no other chunk carries usage', () => {
    const { chunks, transformer } = runValid(readGeminiStreamLines('generate-content-tool-call.stream.jsonl'), false);
    expect(chunks.filter((chunk) => 'usage' in chunk)).toEqual([]);
    expect(transformer.usage).toEqual({ promptTokens: 29, completionTokens: 60 });
  });
});

describe('trap: max_tokens reached in the middle of tool input', () => {
  it('MAX_TOKENS after a call finishes with length, the call already whole (Gemini never sends half a call)', () => {
    const { chunks } = runValid([event([{ functionCall: { name: 'write', args: { text: 'long' } } }], 'MAX_TOKENS')]);
    expect(finishReasons(chunks)).toEqual(['length']);
    expect(JSON.parse(accumulateToolCalls(chunks)[0]?.arguments ?? '')).toEqual({ text: 'long' });
  });

  it('MAX_TOKENS before any call (the call was cut off upstream) is length with no tool_calls delta', () => {
    const { chunks } = runValid([event([{ text: 'I will call' }]), event([], 'MAX_TOKENS')]);
    expect(finishReasons(chunks)).toEqual(['length']);
    expect(accumulateToolCalls(chunks)).toEqual([]);
  });
});
