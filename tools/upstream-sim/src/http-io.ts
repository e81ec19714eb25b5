import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ErrorResponse } from '@chat-relay/contract';

/** The whole body as bytes: multipart uploads carry binary files that UTF-8 decoding would damage. */
export async function readBody(req: IncomingMessage): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const part of req) parts.push(typeof part === 'string' ? Buffer.from(part) : (part as Buffer));
  return Buffer.concat(parts);
}

export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
  });
  res.end(text);
}

export function sendError(res: ServerResponse, status: number, body: ErrorResponse): void {
  sendJson(res, status, body);
}

/** Resolves once `data` is handed to the socket, or at once when the client has gone. */
export function writeFlushed(res: ServerResponse, data: string | Buffer, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted || res.destroyed) {
      resolve();
      return;
    }
    const onAbort = (): void => resolve();
    signal.addEventListener('abort', onAbort, { once: true });
    res.write(data, () => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    });
  });
}

/** An AbortSignal that fires when the response closes (finished, or the client went away). */
export function signalOnClose(res: ServerResponse): AbortSignal {
  const controller = new AbortController();
  res.once('close', () => controller.abort());
  return controller.signal;
}
