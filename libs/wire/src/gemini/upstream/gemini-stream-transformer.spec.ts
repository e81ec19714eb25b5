import { expectOpenAiValid, idWithSignature } from '../testing/expect-openai-valid';
import { readGeminiCassette, readGeminiStreamLines, runGeminiStream, TEST_CREATED } from '../testing/gemini-fixtures';

/** Runs a recorded stream, validating every chunk against the official OpenAI spec. */
function runValid(events: readonly string[], callerWantsUsage = true, secrets: string[] = []) {
  const run = runGeminiStream(events, callerWantsUsage, secrets);
  for (const chunk of run.chunks) expectOpenAiValid('CreateChatCompletionStreamResponse', chunk);
  return run;
}

const chunkOf = (id: string) => (delta: Record<string, unknown>, finishReason: string | null = null) => ({
  id,
  object: 'chat.completion.chunk',
  created: TEST_CREATED,
  model: 'my-gemini',
  choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
});
const usageChunkOf = (id: string) => (prompt: number, completion: number, reasoning: number) => ({
  id,
  object: 'chat.completion.chunk',
  created: TEST_CREATED,
  model: 'my-gemini',
  choices: [],
  usage: {
    prompt_tokens: prompt,
    completion_tokens: completion,
    total_tokens: prompt + completion,
    prompt_tokens_details: { cached_tokens: 0 },
    completion_tokens_details: { reasoning_tokens: reasoning },
  },
});
const toolDelta = (index: number, id: string, name: string, args: string) => ({
  tool_calls: [{ index, id, type: 'function', function: { name, arguments: args } }],
});
const signatureIn = (event: string | undefined): string => JSON.parse(event ?? '{}').candidates[0].content.parts[0].thoughtSignature;

describe('GeminiStreamTransformer on recorded Gemini streams', () => {
  it('generate-content-text.stream.jsonl: role, text deltas, one stop, the usage chunk', () => {
    const { chunks, transformer } = runValid(readGeminiStreamLines('generate-content-text.stream.jsonl'));
    const chunk = chunkOf('chatcmpl-bH6LaZW8Fp_3nsEPqtaSwQ4');
    expect(chunks).toEqual([
      chunk({ role: 'assistant', content: '' }),
      chunk({ content: 'There are **3**' }),
      chunk({ content: ' "r"s in strawberry.\n\nst**r**awbe**rr**y' }),
      chunk({}, 'stop'),
      usageChunkOf('chatcmpl-bH6LaZW8Fp_3nsEPqtaSwQ4')(9, 23 + 185, 185),
    ]);
    expect(transformer.complete).toBe(true);
    expect(transformer.usage).toEqual({ promptTokens: 9, completionTokens: 208 });
    expect(transformer.deliveredChars).toBe('There are **3**'.length + ' "r"s in strawberry.\n\nst**r**awbe**rr**y'.length);
  });

  it('generate-content-tool-call.stream.jsonl: one whole tool call, then STOP → tool_calls', () => {
    const events = readGeminiStreamLines('generate-content-tool-call.stream.jsonl');
    const { chunks } = runValid(events);
    const chunk = chunkOf('chatcmpl-b36LacjwM668nsEP2tbsgQQ');
    const id = idWithSignature('call_373e2434555a0337b058f189', signatureIn(events[0]));
    expect(chunks).toEqual([
      chunk({ role: 'assistant', content: null }),
      chunk(toolDelta(0, id, 'weather', '{"location":"San Francisco"}')),
      chunk({}, 'tool_calls'),
      usageChunkOf('chatcmpl-b36LacjwM668nsEP2tbsgQQ')(29, 15 + 45, 45),
    ]);
  });

  it('cassette-stream-thought-signature.yaml: the signed no-argument call, then the text answer', () => {
    const [first, second] = readGeminiCassette('cassette-stream-thought-signature.yaml');
    const events = first?.responseEvents ?? [];
    const call = chunkOf('chatcmpl-QUVVadTSNJ6_qtsPvN7J8Q0');
    const id = idWithSignature('call_118fbc9a17685cbceb05a29a', signatureIn(events[0]));
    expect(runValid(events).chunks).toEqual([
      call({ role: 'assistant', content: null }),
      call(toolDelta(0, id, 'get_country', '{}')),
      call({}, 'tool_calls'),
      usageChunkOf('chatcmpl-QUVVadTSNJ6_qtsPvN7J8Q0')(29, 10 + 202, 202),
    ]);

    const text = chunkOf('chatcmpl-REVVabaiCdq4qtsPnZu96Qo');
    expect(runValid(second?.responseEvents ?? []).chunks).toEqual([
      text({ role: 'assistant', content: '' }),
      text({ content: 'The capital of Mexico' }),
      text({ content: ' is Mexico City.' }),
      text({}, 'stop'),
      // The last usageMetadata wins: Gemini revised the prompt count on the final event.
      usageChunkOf('chatcmpl-REVVabaiCdq4qtsPnZu96Qo')(257, 8, 0),
    ]);
  });

  it('cassette-stream-tool-roundtrip.yaml: call and STOP in one event, twice, then text (\\r\\n framing)', () => {
    const [first, second, third] = readGeminiCassette('cassette-stream-tool-roundtrip.yaml');
    const capital = chunkOf('chatcmpl-1lpeaMTxIpW1nvgP-O3vwQY');
    expect(runValid(first?.responseEvents ?? []).chunks).toEqual([
      capital({ role: 'assistant', content: null }),
      capital(toolDelta(0, 'call_dccae6cd2514495fabac2b3f', 'get_capital', '{"country":"France"}')),
      capital({}, 'tool_calls'),
      usageChunkOf('chatcmpl-1lpeaMTxIpW1nvgP-O3vwQY')(52, 5, 0),
    ]);
    const temperature = runValid(second?.responseEvents ?? []).chunks;
    expect(temperature.map((chunk: any) => chunk.choices[0]?.delta.tool_calls?.[0]?.function)).toEqual([
      undefined,
      { name: 'get_temperature', arguments: '{"city":"Paris"}' },
      undefined,
      undefined,
    ]);
    const answer = chunkOf('chatcmpl-11peaI_ZJLq3nvgP0vasuQk');
    expect(runValid(third?.responseEvents ?? []).chunks).toEqual([
      answer({ role: 'assistant', content: '' }),
      answer({ content: 'The temperature in Paris' }),
      answer({ content: ' is 30°C.\n' }),
      answer({}, 'stop'),
      usageChunkOf('chatcmpl-11peaI_ZJLq3nvgP0vasuQk')(79, 12, 0),
    ]);
  });
});

describe('GeminiStreamTransformer beyond the recordings', () => {
  const event = (candidate: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
    JSON.stringify({ candidates: [candidate], responseId: 'r1', ...extra });

  it('sends no usage chunk when the caller did not ask, but still reports usage', () => {
    const { chunks, transformer } = runValid(readGeminiStreamLines('generate-content-text.stream.jsonl'), false);
    expect(chunks.every((chunk) => (chunk['choices'] as unknown[]).length === 1)).toBe(true);
    expect(chunks.some((chunk) => 'usage' in chunk)).toBe(false);
    expect(transformer.usage).toEqual({ promptTokens: 9, completionTokens: 208 });
  });

  it('turns an error object in the stream into one error step and stops, secrets redacted', () => {
    const { steps, transformer } = runGeminiStream(
      [
        event({ content: { parts: [{ text: 'Hel' }] } }),
        JSON.stringify({ error: { code: 503, message: 'overloaded for key AIzaSecret123', status: 'UNAVAILABLE' } }),
        event({ content: { parts: [{ text: 'lo' }] }, finishReason: 'STOP' }),
      ],
      true,
      ['AIzaSecret123'],
    );
    const errors = steps.filter((step) => step.kind === 'error');
    expect(errors).toHaveLength(1);
    expect(steps.at(-1)?.kind).toBe('error');
    const error = errors[0]?.kind === 'error' ? errors[0].error : undefined;
    expect(error?.toBody().error).toMatchObject({ type: 'upstream_error', code: 'UNAVAILABLE' });
    expect(error?.message).not.toContain('AIzaSecret123');
    expect(transformer.complete).toBe(false);
  });

  it('reports a malformed event as bad_response', () => {
    const { steps } = runGeminiStream(['{not json'], true);
    expect(steps).toHaveLength(1);
    expect(steps[0]?.kind === 'error' && steps[0].error.code).toBe('bad_response');
  });

  it('is not complete, and sends no usage chunk, when the stream ends before a finish reason', () => {
    const { chunks, transformer } = runValid([
      event({ content: { parts: [{ text: 'Hel' }] } }, { usageMetadata: { promptTokenCount: 3, candidatesTokenCount: 1 } }),
    ]);
    expect(transformer.complete).toBe(false);
    expect(chunks.map((chunk: any) => chunk.choices.length)).toEqual([1, 1]);
  });

  it('finishes a blocked prompt with content_filter', () => {
    const { chunks, transformer } = runValid([
      JSON.stringify({ promptFeedback: { blockReason: 'SAFETY' }, usageMetadata: { promptTokenCount: 5 }, responseId: 'b' }),
    ]);
    const chunk = chunkOf('chatcmpl-b');
    expect(chunks).toEqual([
      chunk({ role: 'assistant', content: null }),
      chunk({}, 'content_filter'),
      usageChunkOf('chatcmpl-b')(5, 0, 0),
    ]);
    expect(transformer.complete).toBe(true);
  });

  it('keeps candidates apart (n = 2) and is complete only when both finished', () => {
    const run = runValid([
      JSON.stringify({
        candidates: [
          { index: 0, content: { parts: [{ text: 'A' }] } },
          { index: 1, content: { parts: [{ text: 'B' }] }, finishReason: 'STOP' },
        ],
        responseId: 'n2',
      }),
    ]);
    expect(run.transformer.complete).toBe(false);
    expect(run.chunks.map((chunk: any) => [chunk.choices[0].index, chunk.choices[0].delta, chunk.choices[0].finish_reason])).toEqual([
      [0, { role: 'assistant', content: '' }, null],
      [0, { content: 'A' }, null],
      [1, { role: 'assistant', content: '' }, null],
      [1, { content: 'B' }, null],
      [1, {}, 'stop'],
    ]);
    const last = event({ index: 0, content: { parts: [{ text: '' }] }, finishReason: 'STOP' }, { responseId: 'n2' });
    run.transformer.transform({ data: last });
    expect(run.transformer.complete).toBe(true);
  });

  it('makes a malformed function call an error step after what was already sent', () => {
    const malformed = event({ content: { parts: [{ text: 'x' }] }, finishReason: 'MALFORMED_FUNCTION_CALL' });
    const { steps } = runGeminiStream([malformed], true);
    expect(steps.map((step) => step.kind)).toEqual(['chunk', 'chunk', 'error']);
    expect(steps[2]?.kind === 'error' && steps[2].error.code).toBe('MALFORMED_FUNCTION_CALL');
  });
});
