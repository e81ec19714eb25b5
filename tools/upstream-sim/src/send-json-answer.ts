import type { ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { signalOnClose, writeFlushed } from './http-io';
import type { SimFault } from './sim-types';

/**
 * Sends a non-streamed answer after `latencyMsPerToken × completionTokens`; a `malformed`
 * fault sends half of it as a complete body, a `cut` half of it and then drops the connection.
 * `contentType` is JSON's unless the answer is text (a transcription as `srt`, say).
 */
export async function sendJsonAnswer(
  res: ServerResponse,
  body: string,
  timing: { completionTokens: number; latencyMsPerToken: number },
  fault: SimFault | undefined,
  contentType = 'application/json',
): Promise<void> {
  const signal = signalOnClose(res);
  if (timing.latencyMsPerToken > 0) {
    await sleep(timing.latencyMsPerToken * timing.completionTokens, undefined, { signal }).catch(() => undefined);
    if (signal.aborted) return;
  }
  const half = body.slice(0, Math.floor(body.length / 2));
  if (fault?.kind === 'malformed') {
    res.writeHead(200, { 'content-type': contentType, 'content-length': Buffer.byteLength(half) });
    res.end(half);
    return;
  }
  res.writeHead(200, { 'content-type': contentType, 'content-length': Buffer.byteLength(body) });
  if (fault?.kind === 'cut') {
    await writeFlushed(res, half, signal);
    res.destroy();
    return;
  }
  res.end(body);
}
