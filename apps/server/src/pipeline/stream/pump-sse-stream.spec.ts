import { PassThrough } from 'node:stream';
import pino from 'pino';
import type { Logger } from '../../logger';
import { OpenAiStreamTransformer, type RelayError } from '@chat-relay/wire';
import { readFixture } from '../../../test/testing/fixtures';
import { endsOnCharBoundary, pumpSseStream } from './pump-sse-stream';
import { UpstreamBody } from '../../channels/upstream/upstream-body';
import { chatCompletionsDialect } from '../caller-dialect';
import { newTrace } from '../request-context';
import { SSE_DONE, sseData, sseError } from './sse';

/** An upstream body delivered in `size`-byte pieces, optionally failing after them. */
async function* pieces(text: string, size: number, failWith?: Error): AsyncGenerator<Buffer> {
  const bytes = Buffer.from(text);
  for (let offset = 0; offset < bytes.length; offset += size) yield bytes.subarray(offset, offset + size);
  if (failWith) throw failWith;
}

/** A logger whose JSON lines land in `lines`, to see what was reported. */
function memoryLogger() {
  const lines: Array<Record<string, unknown>> = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => lines.push(JSON.parse(line) as Record<string, unknown>) });
  return { logger, lines };
}

async function pump(
  text: string,
  options: { size?: number; failWith?: Error; wantsUsage?: boolean; onEnd?: () => void; logger?: Logger } = {},
) {
  const upstream = pieces(text, options.size ?? 5, options.failWith);
  const first = await upstream.next();
  const trace = newTrace('req_test', 0);
  let ended: RelayError | undefined | 'not-called' = 'not-called';
  const out = pumpSseStream({
    upstream,
    first: first.value as Buffer,
    transformer: new OpenAiStreamTransformer({ publicModel: 'public-name', callerWantsUsage: options.wantsUsage ?? false, secrets: [] }),
    framing: chatCompletionsDialect.framing,
    trace,
    signal: new AbortController().signal,
    onEnd: (failure) => {
      ended = failure;
      options.onEnd?.();
    },
    logger: options.logger ?? memoryLogger().logger,
  });
  let body = '';
  for await (const chunk of out.pipe(new PassThrough())) body += String(chunk);
  return { body, trace, ended };
}

describe('SSE framing', () => {
  it('frames data events, errors and the end marker', () => {
    expect(sseData('{"a":1}')).toBe('data: {"a":1}\n\n');
    expect(SSE_DONE).toBe('data: [DONE]\n\n');
    expect(sseError({ message: 'm', type: 't', param: null, code: 'c' })).toBe(
      'data: {"error":{"message":"m","type":"t","param":null,"code":"c"}}\n\n',
    );
  });
});

describe('pumpSseStream', () => {
  it('re-frames a recorded stream split into 5-byte pieces, one event per upstream event, then [DONE]', async () => {
    const fixture = readFixture('openai/chat-stream-tool-call.sse');
    const { body, ended, trace } = await pump(fixture);
    const upstreamEvents = fixture.split('\n\n').filter((block) => block.startsWith('data: '));
    const frames = body.split('\n\n').filter(Boolean);
    // The usage chunk is removed because the caller did not ask for it.
    expect(frames).toHaveLength(upstreamEvents.length - 1);
    expect(body.endsWith(SSE_DONE)).toBe(true);
    expect(frames.slice(0, -1).every((frame) => JSON.parse(frame.slice(6)).model === 'public-name')).toBe(true);
    expect(ended).toBeUndefined();
    expect(trace.ttfbMs).not.toBeNull();
  });

  it('ends a stream cut before [DONE] and before any finish_reason with one stream_truncated error', async () => {
    const fixture = readFixture('openai/chat-stream-text.sse');
    const cut = fixture.slice(0, fixture.indexOf('\n\n', 400) + 2);
    const { body, ended } = await pump(cut);
    expect(body).not.toContain('[DONE]');
    const frames = body.split('\n\n').filter(Boolean);
    expect(JSON.parse(frames.at(-1)!.slice(6)).error.code).toBe('stream_truncated');
    expect(frames.filter((frame) => frame.includes('"error"'))).toHaveLength(1);
    expect(ended).toMatchObject({ code: 'stream_truncated' });
  });

  it('turns an upstream socket failure mid-stream into one error event', async () => {
    const fixture = readFixture('openai/chat-stream-text.sse');
    const socketError = Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' });
    const { body, ended } = await pump(fixture.slice(0, 600), { failWith: socketError });
    expect(body.trim().split('\n\n').at(-1)).toContain('upstream_connection_error');
    expect(ended).toMatchObject({ code: 'upstream_connection_error' });
  });

  it('turns an idle timeout into upstream_timeout', async () => {
    const timeout = Object.assign(new Error('body timeout'), { code: 'UND_ERR_BODY_TIMEOUT' });
    const { ended } = await pump(readFixture('openai/chat-stream-text.sse').slice(0, 300), { failWith: timeout });
    expect(ended).toMatchObject({ code: 'upstream_timeout' });
  });
});

describe('issue 10 defect 2: no rejection inside usage accounting takes the process down', () => {
  it('a throwing onEnd is logged; the stream still ends with [DONE]', async () => {
    // Before, the throw escaped the pump as an unhandled rejection and the response never ended.
    const { logger, lines } = memoryLogger();
    const { body, ended } = await pump(readFixture('openai/chat-stream-text.sse'), {
      logger,
      onEnd: () => {
        throw new RangeError('Maximum call stack size exceeded');
      },
    });
    expect(ended).toBeUndefined();
    expect(body.endsWith(SSE_DONE)).toBe(true);
    expect(lines).toEqual([expect.objectContaining({ level: 50, requestId: 'req_test', msg: 'accounting at the end of a stream failed' })]);
  });
});

describe('issue 30: what arrived together is written together', () => {
  /** Records each write and the end as the pump makes them. */
  function recorder() {
    const calls: Array<{ kind: 'write' | 'end'; text: string }> = [];
    let ended!: () => void;
    const done = new Promise<void>((resolve) => (ended = resolve));
    const destination = {
      write: (chunk: string) => (calls.push({ kind: 'write', text: String(chunk) }), true),
      end: (chunk?: string) => {
        calls.push({ kind: 'end', text: chunk === undefined ? '' : String(chunk) });
        ended();
      },
      once: () => destination,
      removeListener: () => destination,
    };
    return { calls, done, destination: destination as unknown as NodeJS.WritableStream };
  }

  function pumpBody(body: UpstreamBody, first: Buffer) {
    return pumpSseStream({
      upstream: body,
      first,
      transformer: new OpenAiStreamTransformer({ publicModel: 'public-name', callerWantsUsage: false, secrets: [] }),
      framing: chatCompletionsDialect.framing,
      trace: newTrace('req_test', 0),
      signal: new AbortController().signal,
      onEnd: () => undefined,
      logger: memoryLogger().logger,
    });
  }

  const events = (text: string) => text.split('\n\n').filter(Boolean);

  it('a whole answer that came in one read, as many HTTP chunks, leaves in one write and the end', async () => {
    const fixture = readFixture('openai/chat-stream-text.sse');
    const blocks = fixture.split(/(?<=\n\n)/);
    const body = new UpstreamBody({ abort: () => undefined });
    for (const block of blocks.slice(1)) body.push(Buffer.from(block), () => undefined);
    body.end();
    const { calls, done, destination } = recorder();
    pumpBody(body, Buffer.from(blocks[0] as string)).pipe(destination);
    await done;
    // Before: one write per upstream piece, then the end with [DONE]. Now every frame in one
    // write (not in end(), which would make Node send a Content-Length), and an empty end.
    expect(calls.map((call) => call.kind)).toEqual(['write', 'end']);
    expect(calls[1]?.text).toBe('');
    const frames = events(calls[0]?.text ?? '');
    expect(frames.at(-1)).toBe(SSE_DONE.trim());
    expect(frames.length).toBeGreaterThan(3);
  });

  it('pieces that arrive apart are written as they come, each batch at once', async () => {
    const fixture = readFixture('openai/chat-stream-text.sse');
    const blocks = fixture.split(/(?<=\n\n)/);
    const body = new UpstreamBody({ abort: () => undefined });
    const { calls, done, destination } = recorder();
    pumpBody(body, Buffer.from(blocks[0] as string)).pipe(destination);
    await new Promise((resolve) => setImmediate(resolve));
    // The first piece is written before anything else arrives.
    expect(calls.map((call) => call.kind)).toEqual(['write']);
    body.push(Buffer.from(blocks[1] as string), () => undefined);
    body.push(Buffer.from(blocks[2] as string), () => undefined);
    await new Promise((resolve) => setImmediate(resolve));
    expect(calls.map((call) => call.kind)).toEqual(['write', 'write']);
    expect(events(calls[1]?.text ?? '')).toHaveLength(2);
    for (const block of blocks.slice(3)) body.push(Buffer.from(block), () => undefined);
    body.end();
    await done;
    expect(calls.map((call) => call.kind)).toEqual(['write', 'write', 'end']);
    expect(calls[2]?.text.endsWith(SSE_DONE)).toBe(true);
  });

  it('characters of two, three and four bytes split between pieces at every byte arrive whole', async () => {
    const text = 'é€😀 ünïcödé — 漢字 🚀';
    const chunk = (content: string) =>
      `data: {"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"content":${JSON.stringify(content)}},"finish_reason":null}]}\n\n`;
    const stream = [...text].map(chunk).join('') + 'data: {"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}\n\ndata: [DONE]\n\n';
    for (const size of [1, 2, 3, 5, 7]) {
      const { body, ended } = await pump(stream, { size });
      const delivered = events(body)
        .filter((frame) => frame !== SSE_DONE.trim())
        .map((frame) => (JSON.parse(frame.slice(6)) as { choices: Array<{ delta: { content?: string } }> }).choices[0]?.delta.content ?? '')
        .join('');
      expect({ size, delivered, ended }).toEqual({ size, delivered: text, ended: undefined });
    }
  });

  it('endsOnCharBoundary: true only where no character continues in the next piece', () => {
    const bytes = (text: string) => Buffer.from(text, 'utf8');
    for (const whole of ['', 'a', 'é', '€', '😀', 'data: é\n\n']) expect({ whole, ends: endsOnCharBoundary(bytes(whole)) }).toEqual({ whole, ends: true });
    for (const text of ['é', '€', '😀']) {
      const all = bytes(text);
      for (let cut = 1; cut < all.length; cut += 1) expect({ text, cut, ends: endsOnCharBoundary(all.subarray(0, cut)) }).toEqual({ text, cut, ends: false });
    }
    // A stray continuation byte is not a boundary to trust: the decoder takes over.
    expect(endsOnCharBoundary(Buffer.from([0x61, 0x80]))).toBe(false);
  });
});
