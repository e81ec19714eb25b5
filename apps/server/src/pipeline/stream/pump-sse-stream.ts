import { performance } from 'node:perf_hooks';
import { Stream } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { AwsEventStreamDecoder, RelayError, SseEventReader, upstreamError, type SseEvent, type StreamStep, type StreamTransformer } from '@chat-relay/wire';
import type { Logger } from '../../logger';
import type { AbortLike } from '../../core/caller-gone';
import { serverShuttingDown, type OpenStream, type OpenStreams } from './open-streams';
import type { RelayTrace } from '../request-context';
import type { StreamFraming } from '../caller-dialect';
import { sseData, sseEvent } from './sse';
import { transportFailure } from '../../channels/upstream/transport-failure';

/**
 * An upstream body read piece by piece. `takeQueued` hands over a piece that has already arrived
 * without waiting, and `ended` says the body is over with nothing left to take: what arrived
 * together is written together (an upstream sends a whole short answer in one TCP read, as
 * many HTTP chunks), and the end of the response goes with it.
 */
export interface UpstreamPieces extends AsyncIterator<Buffer> {
  takeQueued?(): Buffer | undefined;
  readonly ended?: boolean;
}

export interface PumpInput {
  /** The upstream body, its first piece already read (the stream is committed). */
  upstream: UpstreamPieces;
  /** Let go of once read (the pump clears it): a stream does not keep its first piece. */
  first: Buffer | undefined;
  transformer: StreamTransformer;
  /** The caller's dialect's end marker and error event. */
  framing: StreamFraming;
  /** How the upstream frames its events: SSE when absent; Bedrock's binary AWS event stream (UpstreamRequest.framing). */
  upstreamFraming?: 'sse' | 'aws-eventstream';
  trace: RelayTrace;
  signal: AbortLike;
  /** Called once with how the stream ended: undefined for a clean end. */
  onEnd(error: RelayError | undefined): void;
  /** Where the stream is listed while it runs, for a shutdown to end it. */
  openStreams?: OpenStreams;
  /** Where a throwing `onEnd` is reported: the stream still ends, the process stays up. */
  logger: Logger;
  /**
   * An answer of several model calls (the relay answering a function itself, pipeline/relay-function-loop):
   * asked when an upstream body has ended properly, after `transformer.finish()` — the next body to
   * read, or undefined when the answer is whole. What it emits meanwhile is written at once.
   */
  next?(emit: (steps: StreamStep[]) => void): Promise<{ upstream: UpstreamPieces; first: Buffer } | undefined>;
}

/** Where the frames go: the HTTP response, as ts-rest hands it to `pipe`. */
type Destination = NodeJS.WritableStream;

/**
 * The caller's side of a relayed stream, in the form ts-rest expects of a streamed body: a
 * Stream it pipes into the response. `pipe` writes the frames straight into the response —
 * no Readable in between — one write per upstream piece, and the last frames together with
 * the end of the response, so a stream costs as few socket writes as its upstream did.
 */
export class SseBody extends Stream {
  private started = false;

  constructor(private readonly input: PumpInput) {
    super();
  }

  override pipe<T extends Destination>(destination: T): T {
    if (this.started) throw new Error('an SSE body can be piped once');
    this.started = true;
    void new SsePump(this.input, destination).run();
    return destination;
  }
}

/**
 * Reads the upstream SSE body and writes the caller's stream: every upstream event is framed
 * and written at once; the dialect's end marker (`[DONE]`) at a clean end; a failure after the
 * start becomes one error event and the end (SPEC §7). Honours back-pressure from a slow client.
 */
export function pumpSseStream(input: PumpInput): SseBody {
  return new SseBody(input);
}

/**
 * One stream's pump. An object of its own, not a function's closures: an open stream holds it
 * for as long as the answer lasts (minutes for an agent's turn), and one object with its fields
 * is several times smaller than a closure per step sharing a context (issue 30: heap snapshots
 * of 1,000 open slow streams).
 */
class SsePump implements OpenStream {
  private upstream: UpstreamPieces;
  /**
   * Keeps a character split across pieces whole; made when a piece first ends inside one (a
   * stream's pieces nearly always end with a line end), since it holds a buffer of its own.
   */
  private decoder: StringDecoder | undefined;
  private readonly events = new SseEventReader();
  /** Bedrock's binary event stream, read message by message (its CRCs checked) instead of as SSE text. */
  private readonly awsEvents: AwsEventStreamDecoder | undefined;
  private readonly encoding: BufferEncoding;
  private ended = false;
  private failure: RelayError | undefined;
  /** Frames made from the current upstream piece, written together. */
  private batch = '';
  /** Something was written: the response's head is out. */
  private started = false;
  private finished = false;

  constructor(
    private readonly input: PumpInput,
    private readonly destination: Destination,
  ) {
    this.upstream = input.upstream;
    this.encoding = input.framing.encoding ?? 'utf8';
    this.awsEvents = input.upstreamFraming === 'aws-eventstream' ? new AwsEventStreamDecoder() : undefined;
    input.openStreams?.add(this);
  }

  /** The relay is stopping (OpenStreams): one error event and a clean end now, whatever the loop is waiting for. */
  shutDown(): void {
    this.fail(serverShuttingDown());
    this.finish();
  }

  async run(): Promise<void> {
    const { input } = this;
    try {
      let first = input.first;
      input.first = undefined;
      while (first && !this.ended) {
        let piece: Buffer | undefined = first;
        first = undefined;
        while (piece && !this.ended) {
          // This piece and every piece that arrived with it, framed into one write.
          for (let here: Buffer | undefined = piece; here && !this.ended; here = this.upstream.takeQueued?.()) this.feed(here);
          // Read: not held while the next is awaited (a slow stream waits most of its life).
          piece = undefined;
          if (this.ended) break;
          // The body is over: its last frames go out with the end of the response (finish).
          if (this.upstream.ended === true) break;
          if (!this.flush()) await drained(this.destination, input.signal);
          // Cleared once read, like `piece`: the suspended loop's registers would keep it to the next piece.
          let next: IteratorResult<Buffer> | undefined = await this.upstream.next();
          piece = next.done ? undefined : next.value;
          next = undefined;
        }
        if (this.ended) break;
        this.write(input.transformer.finish());
        if (this.ended || !input.next) break;
        const more = await input.next((steps) => {
          this.write(steps);
          this.flush();
        });
        if (!more) break;
        if (this.ended) {
          // Ended meanwhile (a shutdown): the next body is let go unread.
          void more.upstream.return?.().catch(() => undefined);
          break;
        }
        // The next model call of the same answer: its own body, parsed afresh.
        void this.upstream.return?.().catch(() => undefined);
        this.upstream = more.upstream;
        first = more.first;
        this.decoder = undefined;
        this.events.reset();
      }
      if (!this.ended && !input.transformer.complete) {
        this.fail(upstreamError('The upstream provider ended the stream before it was complete.', 'stream_truncated'));
      }
    } catch (error) {
      this.fail(error instanceof RelayError ? error : transportFailure(error).error);
    } finally {
      this.finish();
    }
  }

  private frame(step: { json: string; event?: string }): string {
    const { framing } = this.input;
    return framing.frame ? framing.frame(step.json, step.event) : sseFrame(step);
  }

  private push(frame: string): void {
    const { trace } = this.input;
    trace.ttfbMs ??= performance.now() - trace.startedAt;
    this.batch += frame;
  }

  private flush(): boolean {
    if (this.batch === '' || this.input.signal.aborted) return true;
    const frames = this.batch;
    this.batch = '';
    this.started = true;
    return this.destination.write(frames, this.encoding);
  }

  private fail(error: RelayError): void {
    if (this.finished) return;
    this.failure = error;
    this.ended = true;
    if (this.input.signal.aborted) return;
    // A dialect with its own failure events for a started stream (Responses: `response.failed`) writes them.
    const steps = this.input.transformer.fail?.(error);
    if (!steps) this.push(this.input.framing.error(error));
    else for (const step of steps) if (step.kind === 'chunk') this.push(this.frame(step));
  }

  /** Exactly once: the last frames, the end of the response, and the upstream let go. */
  private finish(): void {
    if (this.finished) return;
    this.finished = true;
    const { input, destination, encoding } = this;
    input.openStreams?.delete(this);
    if (!this.failure && input.framing.done) this.push(input.framing.done);
    try {
      input.onEnd(this.failure);
    } catch (error) {
      input.logger.error({ requestId: input.trace.requestId, err: error }, 'accounting at the end of a stream failed');
    }
    // The last frames and the end of the response in one write. A whole stream that arrived at
    // once is written before the end rather than with it: Node would send it with a
    // Content-Length, and a stream keeps its chunked framing (both go out in one socket write).
    if (input.signal.aborted) destination.end();
    else if (this.started) destination.end(this.batch, encoding);
    else {
      destination.write(this.batch, encoding);
      destination.end();
    }
    // An upstream read to its end has nothing to let go of (the common end): no call, no promise.
    if (this.upstream.ended !== true) void this.upstream.return?.().catch(() => undefined);
  }

  /** Steps into the batch; nothing after the one that ended the stream. */
  private write(steps: readonly StreamStep[]): void {
    for (const step of steps) {
      if (step.kind === 'chunk') this.push(this.frame(step));
      else this.fail(step.error);
      if (this.ended) return;
    }
  }

  private eventsOf(piece: Buffer): SseEvent[] {
    if (!this.awsEvents) return this.events.read(this.textOf(piece));
    try {
      return this.awsEvents.push(piece);
    } catch (error) {
      throw upstreamError(`The upstream provider's event stream is malformed: ${error instanceof Error ? error.message : String(error)}`, 'malformed_stream');
    }
  }

  /** A piece's text; a character it ends inside is completed by the next piece. */
  private textOf(piece: Buffer): string {
    if (this.decoder === undefined) {
      if (endsOnCharBoundary(piece)) return piece.toString('utf8');
      this.decoder = new StringDecoder('utf8');
    }
    return this.decoder.write(piece);
  }

  /** One upstream piece through the SSE parser (or the event-stream decoder) and the transformer into the batch. */
  private feed(piece: Buffer): void {
    const { transformer } = this.input;
    for (const event of this.eventsOf(piece)) {
      this.write(transformer.transform(event));
      if (this.ended) return;
    }
  }
}

/** Whether `piece` ends where a UTF-8 character ends: none is split between it and the next piece. */
export function endsOnCharBoundary(piece: Uint8Array): boolean {
  const end = piece.length - 1;
  if (end < 0 || (piece[end] as number) < 0x80) return true;
  // Back over the continuation bytes (10xxxxxx) to the byte that leads the last character.
  let lead = end;
  while (lead > end - 3 && lead > 0 && ((piece[lead] as number) & 0xc0) === 0x80) lead -= 1;
  const first = piece[lead] as number;
  const length = first >= 0xf0 ? 4 : first >= 0xe0 ? 3 : first >= 0xc0 ? 2 : 1;
  return (first & 0xc0) !== 0x80 && end - lead + 1 === length;
}

const sseFrame = (step: { json: string; event?: string }): string =>
  step.event === undefined ? sseData(step.json) : sseEvent(step.event, step.json);

/** Resolves once the destination has room again, or the caller has gone. */
export function drained(destination: Destination, signal: AbortLike): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const done = () => {
      destination.removeListener('drain', done);
      signal.removeEventListener('abort', done);
      resolve();
    };
    destination.once('drain', done);
    signal.addEventListener('abort', done, { once: true });
  });
}
