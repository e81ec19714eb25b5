import { createOpenAiSpecValidator } from '@chat-relay/contract/testing';
import { decodeEvents, deltasOf, encodeEvents, readRecording, responseBytes, runConverseStream, type ConverseStreamRun } from './testing/converse-fixtures';

const openAiSpec = createOpenAiSpecValidator();

function expectValidChunks(run: ConverseStreamRun): void {
  for (const chunk of run.chunks) {
    expect(openAiSpec.errorsFor('CreateChatCompletionStreamResponse', chunk)).toEqual([]);
    expect(chunk).toMatchObject({ id: 'chatcmpl-test', model: 'my-model' });
  }
  expect(run.chunks.flatMap((chunk) => chunk.choices.filter((choice) => choice.finish_reason !== null))).toHaveLength(1);
}

const contentOf = (run: ConverseStreamRun) => deltasOf(run).map(([delta]) => (typeof delta['content'] === 'string' ? delta['content'] : '')).join('');

describe('ConverseStreamTransformer on recorded ConverseStream answers (test-fixtures/bedrock-converse, openinference)', () => {
  it('should-handle-mistral-models-with-streaming.json: text deltas, end_turn → stop, usage chunk when asked, complete', () => {
    const run = runConverseStream(decodeEvents(responseBytes(readRecording('should-handle-mistral-models-with-streaming.json'))), true);
    expectValidChunks(run);
    expect(deltasOf(run)[0]).toEqual([{ role: 'assistant', content: '' }, null]);
    expect(contentOf(run)).toBe(' Silent screens glow,\n\nConnecting hearts, worlds apart,\n\nLife in digital.');
    expect(deltasOf(run).at(-1)).toEqual([{}, 'stop']);
    expect(run.chunks.at(-1)).toMatchObject({ choices: [], usage: { prompt_tokens: 15, completion_tokens: 21, total_tokens: 36 } });
    expect(run.transformer.complete).toBe(true);
    expect(run.transformer.usage).toEqual({ promptTokens: 15, completionTokens: 21 });
    expect(run.transformer.deliveredText).toBe(contentOf(run));
  });

  it('should-handle-amazon-nova-models-with-streaming.json: max_tokens → length; no usage chunk unless asked', () => {
    const run = runConverseStream(decodeEvents(responseBytes(readRecording('should-handle-amazon-nova-models-with-streaming.json'))));
    expectValidChunks(run);
    expect(deltasOf(run).at(-1)).toEqual([{}, 'length']);
    expect(run.chunks.every((chunk) => chunk.usage === undefined)).toBe(true);
    expect(run.transformer.usage).toEqual({ promptTokens: 5, completionTokens: 100 });
    expect(run.transformer.complete).toBe(true);
  });

  it('should-handle-streaming-tool-calls-and-responses.json: text then one call numbered 0, its input fragments as they came, tool_use → tool_calls', () => {
    const run = runConverseStream(decodeEvents(responseBytes(readRecording('should-handle-streaming-tool-calls-and-responses.json'))));
    expectValidChunks(run);
    const calls = deltasOf(run).flatMap(([delta]) => (delta['tool_calls'] as Array<Record<string, unknown>> | undefined) ?? []);
    expect(calls[0]).toEqual({ index: 0, id: 'tooluse_wnjikhCUTruJciycmmm5Kg', type: 'function', function: { name: 'get_weather', arguments: '' } });
    const args = calls.map((call) => (call['function'] as { arguments: string }).arguments).join('');
    expect(JSON.parse(args)).toEqual({ location: 'San Francisco, CA', unit: 'fahrenheit' });
    expect(calls.slice(1).every((call) => call['index'] === 0 && call['id'] === undefined)).toBe(true);
    expect(contentOf(run)).toMatch(/^I can certainly help/);
    expect(deltasOf(run).at(-1)).toEqual([{}, 'tool_calls']);
  });
});

describe('ConverseStreamTransformer on events built with AWS codec', () => {
  const start = ['messageStart', { role: 'assistant' }] as const;
  const stop = (stopReason: string) => ['messageStop', { stopReason }] as const;
  const metadata = ['metadata', { usage: { inputTokens: 12, outputTokens: 7, totalTokens: 119, cacheReadInputTokens: 100 }, metrics: { latencyMs: 5 } }] as const;

  it('reasoning: text as reasoning_content, then the signed block; a redacted block whole at its end', () => {
    const run = runConverseStream(
      decodeEvents(
        encodeEvents([
          start,
          ['contentBlockDelta', { contentBlockIndex: 0, delta: { reasoningContent: { text: 'Let me think. ' } } }],
          ['contentBlockDelta', { contentBlockIndex: 0, delta: { reasoningContent: { text: '42.' } } }],
          ['contentBlockDelta', { contentBlockIndex: 0, delta: { reasoningContent: { signature: 'sig-' } } }],
          ['contentBlockDelta', { contentBlockIndex: 0, delta: { reasoningContent: { signature: '1' } } }],
          ['contentBlockStop', { contentBlockIndex: 0 }],
          ['contentBlockDelta', { contentBlockIndex: 1, delta: { text: 'It is 42.' } }],
          ['contentBlockStop', { contentBlockIndex: 1 }],
          ['contentBlockDelta', { contentBlockIndex: 2, delta: { reasoningContent: { redactedContent: 'b3Bh' } } }],
          ['contentBlockDelta', { contentBlockIndex: 2, delta: { reasoningContent: { redactedContent: 'cXVl' } } }],
          ['contentBlockStop', { contentBlockIndex: 2 }],
          stop('end_turn'),
          metadata,
        ]),
      ),
    );
    expectValidChunks(run);
    expect(deltasOf(run).map(([delta]) => delta)).toEqual([
      { role: 'assistant', content: '' },
      { reasoning_content: 'Let me think. ' },
      { reasoning_content: '42.' },
      { thinking_blocks: [{ type: 'thinking', thinking: '', signature: 'sig-1' }] },
      { content: 'It is 42.' },
      { thinking_blocks: [{ type: 'redacted_thinking', data: 'b3BhcXVl' }] },
      {},
    ]);
    expect(run.transformer.usage).toEqual({ promptTokens: 112, completionTokens: 7, cacheReadTokens: 100 });
  });

  it('a call that got no input is closed with "{}"; calls are numbered among calls only', () => {
    const run = runConverseStream(
      decodeEvents(
        encodeEvents([
          start,
          ['contentBlockStart', { contentBlockIndex: 0, start: { toolUse: { toolUseId: 'tooluse_a', name: 'now' } } }],
          ['contentBlockStop', { contentBlockIndex: 0 }],
          ['contentBlockStart', { contentBlockIndex: 1, start: { toolUse: { toolUseId: 'tooluse_b', name: 'f' } } }],
          ['contentBlockDelta', { contentBlockIndex: 1, delta: { toolUse: { input: '{"x":1}' } } }],
          ['contentBlockStop', { contentBlockIndex: 1 }],
          stop('tool_use'),
          metadata,
        ]),
      ),
    );
    expect(deltasOf(run).map(([delta]) => delta['tool_calls'])).toEqual([
      undefined,
      [{ index: 0, id: 'tooluse_a', type: 'function', function: { name: 'now', arguments: '' } }],
      [{ index: 0, function: { arguments: '{}' } }],
      [{ index: 1, id: 'tooluse_b', type: 'function', function: { name: 'f', arguments: '' } }],
      [{ index: 1, function: { arguments: '{"x":1}' } }],
      undefined,
    ]);
  });

  it('a mid-stream throttlingException is one error step (a 429 rate_limit_error, as InvokeModel\'s stream), then nothing; not complete', () => {
    const events = decodeEvents(
      encodeEvents([start, ['contentBlockDelta', { contentBlockIndex: 0, delta: { text: 'Hi' } }]], ['throttlingException', 'Too many requests, please wait before trying again.']),
    );
    expect(events.at(-1)).toMatchObject({ event: 'throttlingException', exception: true });
    const run = runConverseStream([...events, ...decodeEvents(encodeEvents([stop('end_turn'), metadata]))]);
    const errors = run.steps.filter((step) => step.kind === 'error');
    expect(errors).toHaveLength(1);
    expect(run.steps.at(-1)).toBe(errors[0]);
    expect(errors[0]).toMatchObject({ error: { status: 429, type: 'rate_limit_error', code: 'throttlingException', message: expect.stringContaining('Too many requests') } });
    expect(run.transformer.complete).toBe(false);
  });

  it('a validationException mid-stream is the request’s fault: 400', () => {
    const run = runConverseStream(decodeEvents(encodeEvents([start], ['validationException', 'Input is too long for requested model.'])));
    expect(run.steps.at(-1)).toMatchObject({ kind: 'error', error: { status: 400, type: 'invalid_request_error', message: 'Input is too long for requested model.' } });
  });

  it('messageStop without metadata is not complete (the usage never came)', () => {
    const run = runConverseStream(decodeEvents(encodeEvents([start, ['contentBlockDelta', { contentBlockIndex: 0, delta: { text: 'Hi' } }], stop('end_turn')])));
    expect(run.transformer.complete).toBe(false);
    expect(run.transformer.usage).toBeUndefined();
  });

  it('malformed_tool_use at messageStop is an error step instead of a finish', () => {
    const run = runConverseStream(decodeEvents(encodeEvents([start, stop('malformed_tool_use'), metadata])));
    expect(run.steps.at(-1)).toMatchObject({ kind: 'error', error: { code: 'malformed_tool_use' } });
  });

  it('a delta that does not parse stops the stream with a bad_response', () => {
    const run = runConverseStream([{ event: 'contentBlockDelta', data: '{"contentBlockIndex":"zero"}' }]);
    expect(run.steps).toEqual([{ kind: 'error', error: expect.objectContaining({ code: 'bad_response' }) }]);
  });
});
