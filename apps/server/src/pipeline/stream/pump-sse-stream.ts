import { createParser } from 'eventsource-parser';
import { performance } from 'node:perf_hooks';
import { Stream } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { AwsEventStreamDecoder, RelayError, upstreamError, type StreamStep, type StreamTransformer } from '@chat-relay/wire';
import type { Logger } from '../../logger';
import type { AbortLike } from '../../core/caller-gone';
import { serverShuttingDown, type OpenStreams } from './open-streams';
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
  first: Buffer;
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
    void run(this.input, destination);
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

async function run(input: PumpInput, destination: Destination): Promise<void> {
  const { transformer, trace, signal, framing } = input;
  let upstream = input.upstream;
  const frame = (step: { json: string; event?: string }): string => (framing.frame ? framing.frame(step.json, step.event) : sseFrame(step));
  const encoding = framing.encoding ?? 'utf8';
  // Keeps a character split across pieces whole; cheaper per piece than TextDecoder.
  const decoder = new StringDecoder('utf8');
  const events: Array<{ event?: string; data: string }> = [];
  const parser = createParser({ onEvent: ({ event, data }) => events.push(event ? { event, data } : { data }) });
  let ended = false;
  let failure: RelayError | undefined;
  /** Frames made from the current upstream piece, written together. */
  let batch = '';
  /** Something was written: the response's head is out. */
  let started = false;

  const push = (frame: string): void => {
    trace.ttfbMs ??= performance.now() - trace.startedAt;
    batch += frame;
  };
  const flush = (): boolean => {
    if (batch === '' || signal.aborted) return true;
    const frames = batch;
    batch = '';
    started = true;
    return destination.write(frames, encoding);
  };
  let finished = false;
  const fail = (error: RelayError) => {
    if (finished) return;
    failure = error;
    ended = true;
    if (signal.aborted) return;
    // A dialect with its own failure events for a started stream (Responses: `response.failed`) writes them.
    const steps = transformer.fail?.(error);
    if (!steps) push(framing.error(error));
    else for (const step of steps) if (step.kind === 'chunk') push(frame(step));
  };

  /** Exactly once: the last frames, the end of the response, and the upstream let go. */
  const finish = (): void => {
    if (finished) return;
    finished = true;
    forget?.();
    if (!failure && framing.done) push(framing.done);
    try {
      input.onEnd(failure);
    } catch (error) {
      input.logger.error({ requestId: trace.requestId, err: error }, 'accounting at the end of a stream failed');
    }
    // The last frames and the end of the response in one write. A whole stream that arrived at
    // once is written before the end rather than with it: Node would send it with a
    // Content-Length, and a stream keeps its chunked framing (both go out in one socket write).
    if (signal.aborted) destination.end();
    else if (started) destination.end(batch, encoding);
    else {
      destination.write(batch, encoding);
      destination.end();
    }
    void upstream.return?.().catch(() => undefined);
  };
  // On shutdown: one error event and a clean end now, whatever the loop is waiting for.
  // (Declared after `finish`, which only runs once this is set.)
  const forget = input.openStreams?.add(() => {
    fail(serverShuttingDown());
    finish();
  });

  /** Steps into the batch; nothing after the one that ended the stream. */
  const write = (steps: readonly StreamStep[]): void => {
    for (const step of steps) {
      if (step.kind === 'chunk') push(frame(step));
      else fail(step.error);
      if (ended) return;
    }
  };

  /** Bedrock's binary event stream, read message by message (its CRCs checked) instead of as SSE text. */
  const awsEvents = input.upstreamFraming === 'aws-eventstream' ? new AwsEventStreamDecoder() : undefined;
  const eventsOf = (piece: Buffer): Array<{ event?: string; data: string }> => {
    if (!awsEvents) {
      parser.feed(decoder.write(piece));
      return events.splice(0);
    }
    try {
      return awsEvents.push(piece);
    } catch (error) {
      throw upstreamError(`The upstream provider's event stream is malformed: ${error instanceof Error ? error.message : String(error)}`, 'malformed_stream');
    }
  };

  /** One upstream piece through the SSE parser (or the event-stream decoder) and the transformer into the batch. */
  const feed = (piece: Buffer): void => {
    for (const event of eventsOf(piece)) {
      write(transformer.transform(event));
      if (ended) return;
    }
  };

  try {
    for (let first: Buffer | undefined = input.first; first && !ended; ) {
      for (let piece: Buffer | undefined = first; piece && !ended; ) {
        // This piece and every piece that arrived with it, framed into one write.
        for (let here: Buffer | undefined = piece; here && !ended; here = upstream.takeQueued?.()) feed(here);
        if (ended) break;
        // The body is over: its last frames go out with the end of the response (finish).
        if (upstream.ended === true) break;
        if (!flush()) await drained(destination, signal);
        const next = await upstream.next();
        piece = next.done ? undefined : next.value;
      }
      first = undefined;
      if (ended) break;
      write(transformer.finish());
      if (ended || !input.next) break;
      const more = await input.next((steps) => {
        write(steps);
        flush();
      });
      if (!more) break;
      if (ended) {
        // Ended meanwhile (a shutdown): the next body is let go unread.
        void more.upstream.return?.().catch(() => undefined);
        break;
      }
      // The next model call of the same answer: its own body, parsed afresh.
      void upstream.return?.().catch(() => undefined);
      upstream = more.upstream;
      first = more.first;
      decoder.end();
      parser.reset();
    }
    if (!ended && !transformer.complete) {
      fail(upstreamError('The upstream provider ended the stream before it was complete.', 'stream_truncated'));
    }
  } catch (error) {
    fail(error instanceof RelayError ? error : transportFailure(error).error);
  } finally {
    finish();
  }
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
