import type { ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import type { ChatCompletionChunk } from '@chat-relay/contract';
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

export const streamErrorEvent =
  'data: {"error":{"message":"The server had an error while processing your request.","type":"server_error","param":null,"code":null}}\n\n';

/** How many good chunks are sent before the fault: role + two tokens for a cut, two otherwise. */
function goodChunkCount(fault: StreamFault | undefined, total: number): number {
  if (!fault) return total;
  const wanted = fault.kind === 'cut' ? 3 : 2;
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
 * Writes `chunks` as server-sent events, each flushed on its own, `latencyMsPerToken` apart,
 * then `data: [DONE]` — or plays `fault` after the first few chunks.
 */
export async function writeChatStream(
  res: ServerResponse,
  chunks: readonly ChatCompletionChunk[],
  options: StreamOptions,
): Promise<void> {
  const { latencyMsPerToken, fault, signal } = options;
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  res.flushHeaders();
  const goodCount = goodChunkCount(fault, chunks.length);
  for (const [index, chunk] of chunks.slice(0, goodCount).entries()) {
    if (index > 0 && latencyMsPerToken > 0) await pause(latencyMsPerToken, signal);
    if (signal.aborted) return;
    await writeFlushed(res, `data: ${JSON.stringify(chunk)}\n\n`, signal);
  }
  if (signal.aborted) return;
  switch (fault?.kind) {
    case undefined:
      res.end('data: [DONE]\n\n');
      return;
    case 'cut':
      // Mid-stream connection loss: no finish chunk, no [DONE], no terminating HTTP chunk.
      res.destroy();
      return;
    case 'malformed':
      res.end('data: {not json\n\n');
      return;
    case 'stream-error':
      res.end(streamErrorEvent);
      return;
    default: {
      const unexpected: never = fault;
      throw new Error(`unhandled stream fault ${JSON.stringify(unexpected)}`);
    }
  }
}
