import type { ServerResponse } from 'node:http';
import type { SimFault } from './sim-types';

/** Faults that change how a started stream ends. */
export type StreamFault = Extract<SimFault, { kind: 'cut' | 'malformed' | 'stream-error' }>;

export interface StreamOptions {
  latencyMsPerToken: number;
  fault: StreamFault | undefined;
}

/** One provider's stream, already framed: its events and how each ending is written. */
export interface FramedStream {
  /** Complete SSE events (`event: …\n` where the provider uses them, `data: …\n\n`). */
  frames: readonly string[];
  /** How many good frames go out before `fault` is played. */
  goodFramesBeforeFault(fault: StreamFault): number;
  /** Written after the last frame of a normal stream (OpenAI's `[DONE]`), or nothing. */
  endFrame?: string;
  /** The broken event of a `malformed` fault. */
  malformedFrame: string;
  /** The provider's error event of a `stream-error` fault. */
  errorFrame: string;
}

/** At least one good frame, and never all of them: the fault must land before the end. */
export function clampGoodFrames(wanted: number, total: number): number {
  return Math.max(1, Math.min(wanted, total - 1));
}

/** Writes what follows the good frames: the normal ending, or the fault's. */
function writeEnding(res: ServerResponse, stream: FramedStream, fault: StreamFault | undefined): void {
  switch (fault?.kind) {
    case undefined:
      res.end(stream.endFrame ?? '');
      return;
    case 'cut':
      // Mid-stream connection loss: no last event, no terminating HTTP chunk.
      res.destroy();
      return;
    case 'malformed':
      res.end(stream.malformedFrame);
      return;
    case 'stream-error':
      res.end(stream.errorFrame);
      return;
    default: {
      const unexpected: never = fault;
      throw new Error(`unhandled stream fault ${JSON.stringify(unexpected)}`);
    }
  }
}

interface Playback {
  goodCount: number;
  options: StreamOptions;
  resolve(): void;
  reject(error: unknown): void;
}

/**
 * Plays one stream on plain callbacks: a promise, a timer and abort listeners per event were
 * the simulator's main cost with thousands of slow streams open at once. Each frame is written
 * once the previous one has been handed to the socket (so it goes out on its own, and a slow
 * reader holds the stream back), `latencyMsPerToken` later on one timer that is re-armed
 * rather than re-created.
 */
class FramePlayer {
  private next = 0;
  private timer: NodeJS.Timeout | undefined;
  private finished = false;
  // Bound once per stream: no closure per event.
  private readonly onFlushed = (error?: Error | null): void => {
    if (error) this.stop();
    else this.afterFlush();
  };
  private readonly onTimer = (): void => this.writeNext();
  private readonly onClose = (): void => this.stop();

  constructor(
    private readonly res: ServerResponse,
    private readonly stream: FramedStream,
    private readonly playback: Playback,
  ) {}

  start(): void {
    this.res.on('close', this.onClose);
    this.writeNext();
  }

  private writeNext(): void {
    if (this.finished) return;
    const frame = this.next < this.playback.goodCount ? this.stream.frames[this.next] : undefined;
    if (frame === undefined) {
      this.end();
      return;
    }
    this.next += 1;
    this.res.write(frame, this.onFlushed);
  }

  /** The ending follows the last frame at once, as every frame does without latency. */
  private afterFlush(): void {
    if (this.finished) return;
    const latency = this.playback.options.latencyMsPerToken;
    if (latency <= 0 || this.next >= this.playback.goodCount) {
      this.writeNext();
      return;
    }
    if (this.timer) this.timer.refresh();
    else this.timer = setTimeout(this.onTimer, latency);
  }

  private end(): void {
    this.detach();
    try {
      writeEnding(this.res, this.stream, this.playback.options.fault);
      this.playback.resolve();
    } catch (error) {
      this.playback.reject(error);
    }
  }

  /** The client went away (or the socket failed): no more writes, no timer left behind. */
  private stop(): void {
    if (this.finished) return;
    this.detach();
    this.playback.resolve();
  }

  private detach(): void {
    this.finished = true;
    clearTimeout(this.timer);
    this.res.off('close', this.onClose);
  }
}

/**
 * Writes the frames of `stream` as server-sent events after the head: all in one write when there
 * is no latency and no fault, else each flushed on its own, `latencyMsPerToken` apart — or plays
 * `fault` after the first few frames.
 */
export function writeEventStream(res: ServerResponse, stream: FramedStream, options: StreamOptions): Promise<void> {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  res.flushHeaders();
  // The client may have gone between reading the request and answering it.
  if (res.closed) return Promise.resolve();
  if (!options.fault && options.latencyMsPerToken <= 0) {
    // Nothing to wait for between tokens: the whole answer is ready, and goes out in one write
    // after the head — what a provider's short answer looks like on the wire (several events in
    // one TCP read). A write a frame cost the simulator ~14 syscalls a stream, a third of its CPU
    // in the benchmark's stream rows (issue 30), where it shares two cores with the relay it serves.
    res.end(stream.frames.join('') + (stream.endFrame ?? ''));
    return Promise.resolve();
  }
  const total = stream.frames.length;
  const goodCount = options.fault ? Math.min(stream.goodFramesBeforeFault(options.fault), total) : total;
  return new Promise((resolve, reject) => {
    new FramePlayer(res, stream, { goodCount, options, resolve, reject }).start();
  });
}
