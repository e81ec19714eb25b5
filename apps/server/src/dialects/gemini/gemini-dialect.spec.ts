import { PassThrough } from 'node:stream';
import pino from 'pino';
import { GeminiErrorResponseSchema, GeminiGenerateContentResponseSchema } from '@chat-relay/contract';
import { chainTransformers, geminiNativeAdapter, openAiAdapter, type RelayError, type StreamTransformer } from '@chat-relay/wire';
import { readFixture } from '../../../test/testing/fixtures';
import { geminiDialect } from './gemini-dialect';
import { pumpSseStream } from '../../pipeline/stream/pump-sse-stream';
import { newTrace } from '../../pipeline/request-context';

/** An upstream body delivered in `size`-byte pieces, optionally failing after them. */
async function* pieces(text: string, size: number, failWith?: Error): AsyncGenerator<Buffer> {
  const bytes = Buffer.from(text);
  for (let offset = 0; offset < bytes.length; offset += size) yield bytes.subarray(offset, offset + size);
  if (failWith) throw failWith;
}

const passthrough = (): StreamTransformer => geminiNativeAdapter.createStreamTransformer({ publicModel: 'my-gemini', callerWantsUsage: false, secrets: [] });

/** An upstream relayed to a Gemini caller with the dialect's framing (SSE unless `sse` is false). */
async function pump(text: string, options: { sse?: boolean; failWith?: Error; transformer?: StreamTransformer } = {}) {
  const upstream = pieces(text, 11, options.failWith);
  const first = await upstream.next();
  let ended: RelayError | undefined | 'not-called' = 'not-called';
  const out = pumpSseStream({
    upstream,
    first: first.value as Buffer,
    transformer: options.transformer ?? passthrough(),
    framing: geminiDialect({ includeThoughts: false, sse: options.sse ?? true }).framing,
    trace: newTrace('req_test', 0),
    signal: new AbortController().signal,
    onEnd: (failure) => {
      ended = failure;
    },
    logger: pino({ level: 'silent' }),
  });
  let body = '';
  for await (const chunk of out.pipe(new PassThrough())) body += String(chunk);
  return { body, ended };
}

/** The `data:` of each event, parsed; no event carries a name. */
function dataEvents(body: string): unknown[] {
  const events = body.split('\n\n').filter((event) => event !== '');
  for (const event of events) expect(event.startsWith('data: ')).toBe(true);
  return events.map((event) => JSON.parse(event.slice('data: '.length)) as unknown);
}

const recorded = readFixture('gemini/generate-content-tool-call.stream.jsonl').split('\n').filter((line) => line.trim() !== '');
const asSse = (lines: readonly string[]) => lines.map((line) => `data: ${line}\r\n\r\n`).join('');

describe('geminiDialect framing through pumpSseStream', () => {
  it('SSE: a recorded stream relayed as the same data events, modelVersion rewritten, no end marker', async () => {
    const { body, ended } = await pump(asSse(recorded));
    const events = dataEvents(body);
    expect(events).toEqual(recorded.map((line) => ({ ...(JSON.parse(line) as object), modelVersion: 'my-gemini' })));
    expect(body).not.toContain('[DONE]');
    expect(ended).toBeUndefined();
  });

  it('SSE: a cut stream ends with one data event holding Google’s error object, last', async () => {
    const { body, ended } = await pump(asSse(recorded.slice(0, 1)));
    const events = dataEvents(body);
    expect(events).toHaveLength(2);
    expect(GeminiErrorResponseSchema.parse(events[1])).toEqual({
      error: { code: 502, message: 'The upstream provider ended the stream before it was complete.', status: 'UNAVAILABLE', details: [expect.objectContaining({ reason: 'stream_truncated' })] },
    });
    expect(ended).toMatchObject({ code: 'stream_truncated' });
  });

  it('SSE: an upstream error event mid-stream is relayed as the caller’s error event', async () => {
    const overloaded = JSON.stringify({ error: { code: 503, message: 'The model is overloaded.', status: 'UNAVAILABLE' } });
    const { body } = await pump(asSse([recorded[0] ?? '', overloaded, recorded[1] ?? '']));
    const events = dataEvents(body);
    expect(events).toHaveLength(2);
    expect(events[1]).toMatchObject({ error: { code: 502, status: 'UNAVAILABLE', message: expect.stringContaining('The model is overloaded.') } });
  });

  it('JSON array: the same answers as one array written as it grows, closed at the end', async () => {
    const { body, ended } = await pump(asSse(recorded), { sse: false });
    expect(body.startsWith('[{')).toBe(true);
    expect(body.endsWith('}]')).toBe(true);
    expect(JSON.parse(body)).toEqual(recorded.map((line) => ({ ...(JSON.parse(line) as object), modelVersion: 'my-gemini' })));
    expect(ended).toBeUndefined();
  });

  it('JSON array: a failure after the start is the array’s last element, and the array is still closed', async () => {
    const { body } = await pump(asSse(recorded.slice(0, 1)), { sse: false });
    const answers = JSON.parse(body) as unknown[];
    expect(answers).toHaveLength(2);
    expect(GeminiErrorResponseSchema.parse(answers[1]).error.status).toBe('UNAVAILABLE');
  });

  it('JSON array: a failure before any answer is a one-element array', async () => {
    const { body } = await pump('data: {nope\n\n', { sse: false });
    expect(JSON.parse(body)).toEqual([{ error: expect.objectContaining({ code: 502, status: 'UNAVAILABLE' }) }]);
  });

  it('bridged: an OpenAI stream becomes GenerateContentResponse data events, the finish and usage last', async () => {
    const chunk = (delta: object, finish: string | null = null) =>
      `data: ${JSON.stringify({ id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1, model: 'gpt-4o', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
    const usage = `data: ${JSON.stringify({ id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1, model: 'gpt-4o', choices: [], usage: { prompt_tokens: 5, completion_tokens: 2, total_tokens: 7 } })}\n\n`;
    const upstream = openAiAdapter.createStreamTransformer({ publicModel: 'my-gemini', callerWantsUsage: true, secrets: [] });
    const dialect = geminiDialect({ includeThoughts: false, sse: true });
    const bridge = dialect.bridge?.stream('my-gemini');
    if (!bridge) throw new Error('the Gemini dialect bridges');
    const { body, ended } = await pump(`${chunk({ role: 'assistant', content: 'Hi' })}${chunk({ content: '!' }, 'stop')}${usage}data: [DONE]\n\n`, {
      transformer: chainTransformers(upstream, bridge),
    });
    const events = dataEvents(body).map((event) => GeminiGenerateContentResponseSchema.parse(event));
    expect(events.map((event) => event.candidates?.[0]?.content?.parts)).toEqual([[{ text: 'Hi' }], [{ text: '!' }], []]);
    expect(events.at(-1)).toMatchObject({ candidates: [{ finishReason: 'STOP' }], usageMetadata: { promptTokenCount: 5, candidatesTokenCount: 2, totalTokenCount: 7 }, modelVersion: 'my-gemini' });
    expect(ended).toBeUndefined();
  });
});
