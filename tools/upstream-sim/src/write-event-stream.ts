import type { ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { writeFlushed } from './http-io';
import type { SimFault } from './sim-types';

/** Faults that change how a started stream ends. */
export type StreamFault = Extract<SimFault, { kind: 'cut' | 'malformed' | 'stream-error' }>;

export interface StreamOptions {
  latencyMsPerToken: number;
  fault: StreamFault | undefined;
  /** Fires when the client goes away: stops writing and clears the latency timer. */
  signal: AbortSignal;
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

async function pause(ms: number, signal: AbortSignal): Promise<void> {
  try {
    await sleep(ms, undefined, { signal });
  } catch {
    // Aborted because the client went away; the caller checks the signal.
  }
}

/**
 * Writes the frames of `stream` as server-sent events, each flushed on its own,
 * `latencyMsPerToken` apart — or plays `fault` after the first few frames.
 */
export async function writeEventStream(res: ServerResponse, stream: FramedStream, options: StreamOptions): Promise<void> {
  const { latencyMsPerToken, fault, signal } = options;
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  res.flushHeaders();
  const goodCount = fault ? stream.goodFramesBeforeFault(fault) : stream.frames.length;
  for (const [index, frame] of stream.frames.slice(0, goodCount).entries()) {
    if (index > 0 && latencyMsPerToken > 0) await pause(latencyMsPerToken, signal);
    if (signal.aborted) return;
    await writeFlushed(res, frame, signal);
  }
  if (signal.aborted) return;
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
