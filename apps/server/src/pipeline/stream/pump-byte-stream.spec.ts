import type { RelayError } from '@chat-relay/wire';
import { Writable } from 'node:stream';
import { performance } from 'node:perf_hooks';
import { createLogger } from '../../logger';
import { CallerGone } from '../../core/caller-gone';
import { OpenStreams } from './open-streams';
import { ByteBody, type BytePumpInput } from './pump-byte-stream';
import { newTrace } from '../request-context';

/**
 * An upstream body as undici gives it: pieces handed out one `next()` at a time, which the
 * test releases; aborted with the call's signal (undici rejects with an AbortError).
 */
class Upstream implements AsyncIterator<Buffer> {
  pulls = 0;
  returned = 0;
  private waiting: { resolve(result: IteratorResult<Buffer>): void; reject(error: unknown): void } | undefined;
  private readonly queued: Array<IteratorResult<Buffer> | Error> = [];

  constructor(private readonly signal?: CallerGone) {
    signal?.addEventListener('abort', () => this.waiting?.reject(Object.assign(new Error('aborted'), { name: 'AbortError' })));
  }

  next(): Promise<IteratorResult<Buffer>> {
    this.pulls += 1;
    if (this.signal?.aborted) return Promise.reject(Object.assign(new Error('aborted'), { name: 'AbortError' }));
    const queued = this.queued.shift();
    if (queued instanceof Error) return Promise.reject(queued);
    if (queued) return Promise.resolve(queued);
    return new Promise((resolve, reject) => (this.waiting = { resolve, reject }));
  }

  async return(): Promise<IteratorResult<Buffer>> {
    this.returned += 1;
    return { done: true, value: undefined };
  }

  /** Hands out a piece, the end (`undefined`), or a failure. */
  push(item: Buffer | undefined | Error): void {
    const result: IteratorResult<Buffer> | Error = item instanceof Error ? item : item ? { done: false, value: item } : { done: true, value: undefined };
    const waiting = this.waiting;
    this.waiting = undefined;
    if (!waiting) this.queued.push(result);
    else if (result instanceof Error) waiting.reject(result);
    else waiting.resolve(result);
  }
}

/** A destination that keeps what it is given; `writeMs` makes it slow. */
class Sink extends Writable {
  readonly pieces: Buffer[] = [];
  errors: Error[] = [];
  constructor(
    private readonly writeMs: number | 'never' = 0,
    highWaterMark = 16 * 1024,
    private readonly onPiece?: (count: number) => void,
  ) {
    super({ highWaterMark });
    this.on('error', (error) => this.errors.push(error));
  }
  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    this.pieces.push(chunk);
    this.onPiece?.(this.pieces.length);
    if (this.writeMs === 'never') return;
    if (this.writeMs === 0) callback();
    else setTimeout(callback, this.writeMs);
  }
  get bytes(): Buffer {
    return Buffer.concat(this.pieces);
  }
}

const tick = (ms = 5) => new Promise((resolve) => setTimeout(resolve, ms));
const until = async (condition: () => boolean, what: string) => {
  for (let waited = 0; !condition(); waited += 5) {
    if (waited > 2_000) throw new Error(`timed out waiting for ${what}`);
    await tick();
  }
};

describe('ByteBody', () => {
  const logger = createLogger('silent');
  let ended: Array<RelayError | undefined>;
  beforeEach(() => {
    ended = [];
  });

  const body = (upstream: Upstream, first: Buffer, signal = new CallerGone(), extra: Partial<BytePumpInput> = {}) => {
    const trace = newTrace('req-bytes', performance.now(), 'audio_speech');
    const input: BytePumpInput = { upstream, first, trace, signal, onEnd: (error) => ended.push(error), logger, ...extra };
    return { byteBody: new ByteBody(input), trace, signal };
  };

  it('pipes every byte unchanged and in order, then ends the destination and reports a clean end once', async () => {
    const upstream = new Upstream();
    const pieces = Array.from({ length: 40 }, (_, index) => Buffer.from([index, 255 - index, 0x0a, 0x0d, index]));
    for (const piece of pieces.slice(1)) upstream.push(piece);
    upstream.push(undefined);
    const openStreams = new OpenStreams();
    const sink = new Sink();
    const finished = new Promise((resolve) => sink.on('finish', resolve));
    const { byteBody, trace } = body(upstream, pieces[0] ?? Buffer.alloc(0), undefined, { openStreams });

    expect(byteBody.pipe(sink)).toBe(sink);
    expect(openStreams.size).toBe(1);
    await finished;
    expect(sink.bytes.equals(Buffer.concat(pieces))).toBe(true);
    expect(ended).toEqual([undefined]);
    expect(trace.ttfbMs).toEqual(expect.any(Number));
    expect(openStreams.size).toBe(0);
    expect(upstream.returned).toBe(1);
    expect(() => byteBody.pipe(new Sink())).toThrow('a byte body can be piped once');
  });

  it('honours back-pressure: no piece is pulled from the upstream while the destination is full', async () => {
    const upstream = new Upstream();
    const fullAtPull: number[] = [];
    const sink = new Sink(2, 1);
    const next = upstream.next.bind(upstream);
    upstream.next = () => {
      fullAtPull.push(sink.writableLength);
      return next();
    };
    for (let index = 1; index < 20; index += 1) upstream.push(Buffer.alloc(64, index));
    upstream.push(undefined);
    const finished = new Promise((resolve) => sink.on('finish', resolve));
    body(upstream, Buffer.alloc(64, 0)).byteBody.pipe(sink);
    // Mid-way, the pump waits on the slow destination rather than pulling ahead.
    await tick(10);
    expect(upstream.pulls).toBeLessThan(10);
    await finished;
    expect(sink.pieces.map((piece) => piece[0])).toEqual(Array.from({ length: 20 }, (_, index) => index));
    expect(fullAtPull).toHaveLength(20);
    expect(Math.max(...fullAtPull)).toBe(0);
    expect(ended).toEqual([undefined]);
  });

  it('the caller leaving ends it with a 499 and gives the upstream back; the destination is ended, not destroyed', async () => {
    const signal = new CallerGone();
    const upstream = new Upstream(signal);
    const sink = new Sink();
    body(upstream, Buffer.from('first'), signal).byteBody.pipe(sink);
    upstream.push(Buffer.from('second'));
    await until(() => sink.pieces.length === 2 && upstream.pulls === 2, 'the second piece');
    signal.abort();
    await until(() => ended.length > 0, 'the end');
    expect(ended).toEqual([expect.objectContaining({ status: 499, code: 'client_closed' })]);
    expect(upstream.returned).toBe(1);
    expect(sink.writableEnded).toBe(true);
    expect(sink.errors).toEqual([]);
    await tick();
    expect(ended).toHaveLength(1);
  });

  it('the caller leaving while the destination is full ends it too (no wait for a drain that never comes)', async () => {
    const signal = new CallerGone();
    const upstream = new Upstream(signal);
    const sink = new Sink('never', 1);
    upstream.push(Buffer.from('never written'));
    body(upstream, Buffer.from('stuck'), signal).byteBody.pipe(sink);
    await tick();
    expect(sink.pieces.map(String)).toEqual(['stuck']);
    expect(upstream.pulls).toBe(0);
    signal.abort();
    await until(() => ended.length > 0, 'the end');
    expect(ended).toEqual([expect.objectContaining({ status: 499 })]);
    expect(sink.pieces.map(String)).toEqual(['stuck']);
    expect(upstream.returned).toBe(1);
  });

  it('an upstream failure mid-way destroys the destination (a cut transfer) and reports the failure', async () => {
    const upstream = new Upstream();
    const sink = new Sink();
    body(upstream, Buffer.from('one')).byteBody.pipe(sink);
    upstream.push(Buffer.from('two'));
    upstream.push(Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' }));
    await until(() => ended.length > 0, 'the end');
    expect(ended).toEqual([expect.objectContaining({ status: 502, code: 'upstream_connection_error' })]);
    expect(sink.pieces.map(String)).toEqual(['one', 'two']);
    expect(sink.destroyed).toBe(true);
    await until(() => sink.errors.length > 0, 'the destination error');
    expect(sink.errors[0]?.message).toBe('The connection to the upstream provider failed.');
    expect(upstream.returned).toBe(1);
  });

  it('an upstream that stops answering in time ends with a 504', async () => {
    const upstream = new Upstream();
    const sink = new Sink();
    body(upstream, Buffer.from('one')).byteBody.pipe(sink);
    upstream.push(Object.assign(new Error('body timeout'), { code: 'UND_ERR_BODY_TIMEOUT' }));
    await until(() => ended.length > 0, 'the end');
    expect(ended).toEqual([expect.objectContaining({ status: 504, code: 'upstream_timeout' })]);
    expect(sink.destroyed).toBe(true);
  });

  it('OpenStreams.endAll() during the stream ends it at once, onEnd called once, nothing written after', async () => {
    const upstream = new Upstream();
    const openStreams = new OpenStreams();
    const sink = new Sink();
    body(upstream, Buffer.from('before'), undefined, { openStreams }).byteBody.pipe(sink);
    await until(() => upstream.pulls === 1, 'the pump waiting on the upstream');
    expect(openStreams.endAll()).toBe(1);
    expect(ended).toEqual([expect.objectContaining({ status: 503, code: 'server_shutting_down' })]);
    expect(sink.destroyed).toBe(true);
    expect(upstream.returned).toBe(1);
    // The upstream answers late: the pump stops there, without writing or ending again.
    upstream.push(Buffer.from('after'));
    await tick(20);
    expect(sink.pieces.map(String)).toEqual(['before']);
    expect(ended).toHaveLength(1);
    expect(upstream.pulls).toBe(1);
    expect(openStreams.size).toBe(0);
  });

  it('an accounting failure in onEnd is logged, and the destination still ends', async () => {
    const lines: string[] = [];
    const logged = new Writable({ write: (chunk: Buffer, _encoding, callback) => (lines.push(chunk.toString()), callback()) });
    const upstream = new Upstream();
    upstream.push(undefined);
    const sink = new Sink();
    const finished = new Promise((resolve) => sink.on('finish', resolve));
    const onEnd = () => {
      throw new Error('usage store down');
    };
    body(upstream, Buffer.from('only'), undefined, { onEnd, logger: createLogger('error', logged) }).byteBody.pipe(sink);
    await finished;
    expect(sink.bytes.toString()).toBe('only');
    await until(() => lines.length > 0, 'the log line');
    expect(JSON.parse(lines[0] ?? '{}')).toMatchObject({ requestId: 'req-bytes', msg: 'accounting at the end of a byte stream failed' });
  });
});
