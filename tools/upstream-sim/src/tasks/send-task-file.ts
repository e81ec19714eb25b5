import type { ServerResponse } from 'node:http';
import { signalOnClose, writeFlushed } from '../http-io';
import type { SimFault } from '../sim-types';

/** Files go out in pieces this big, so a client sees a download arrive in several chunks. */
export const taskFileChunkBytes = 64 * 1024;

/**
 * Sends a task's file (a video, a thumbnail, a song) with its length, chunk by chunk. A `cut`
 * fault drops the connection after half of it; `malformed` sends the first half as a whole
 * (shorter) file, so only its bytes tell it apart.
 */
export async function sendTaskFile(res: ServerResponse, file: { contentType: string; bytes: Buffer }, fault: SimFault | undefined): Promise<void> {
  const half = file.bytes.subarray(0, Math.floor(file.bytes.length / 2));
  const sent = fault?.kind === 'malformed' || fault?.kind === 'cut' ? half : file.bytes;
  res.writeHead(200, { 'content-type': file.contentType, 'content-length': fault?.kind === 'malformed' ? half.length : file.bytes.length });
  const signal = signalOnClose(res);
  for (let offset = 0; offset < sent.length; offset += taskFileChunkBytes) {
    await writeFlushed(res, sent.subarray(offset, offset + taskFileChunkBytes), signal);
    if (signal.aborted) return;
  }
  if (fault?.kind === 'cut') res.destroy();
  else res.end();
}
