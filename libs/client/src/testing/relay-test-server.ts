import { readFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import path from 'node:path';
import { setImmediate as nextTick } from 'node:timers/promises';

/** Recorded OpenAI answers in the repository's `test-fixtures/openai`. */
const OPENAI_FIXTURES = path.resolve(__dirname, '../../../../test-fixtures/openai');

export const readOpenAiFixture = (name: string): Buffer => readFileSync(path.join(OPENAI_FIXTURES, name));

/** What the server saw of one request, including when and how its connection ended. */
export interface RecordedRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** Resolves when the request's socket closes; `responseEnded` says if we had finished. */
  socketClosed: Promise<{ responseEnded: boolean }>;
}

export type TestHandler = (req: IncomingMessage, res: ServerResponse, recorded: RecordedRequest) => Promise<void> | void;

export interface RelayTestServer {
  baseUrl: string;
  requests: RecordedRequest[];
  /** The handler for the next requests; each test sets its own. */
  handle(handler: TestHandler): void;
  close(): Promise<void>;
}

export async function startRelayTestServer(): Promise<RelayTestServer> {
  const requests: RecordedRequest[] = [];
  let handler: TestHandler = (_req, res) => {
    res.statusCode = 500;
    res.end('no handler');
  };
  // One listener per socket, however many keep-alive requests it carries.
  const socketCloses = new WeakMap<Socket, Promise<void>>();
  const closeOf = (socket: Socket): Promise<void> => {
    let closed = socketCloses.get(socket);
    if (!closed) {
      closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
      socketCloses.set(socket, closed);
    }
    return closed;
  };
  const server = createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (part: Buffer) => parts.push(part));
    req.on('end', () => {
      const socketClosed = closeOf(req.socket).then(() => ({ responseEnded: res.writableEnded }));
      const recorded: RecordedRequest = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(parts).toString('utf8'),
        socketClosed,
      };
      requests.push(recorded);
      Promise.resolve(handler(req, res, recorded)).catch(() => res.destroy());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    requests,
    handle: (next) => {
      handler = next;
    },
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
    },
  };
}

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

/**
 * Writes `bytes` as an SSE answer in slices of `sliceBytes`, yielding to the event loop
 * between slices so events and UTF-8 characters arrive split across packets.
 * Stops quietly when the client goes away.
 */
export async function sendSseSlices(
  res: ServerResponse,
  bytes: Buffer,
  { sliceBytes = 7, headers = {} }: { sliceBytes?: number; headers?: Record<string, string> } = {},
): Promise<void> {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', ...headers });
  res.socket?.setNoDelay(true);
  for (let offset = 0; offset < bytes.length; offset += sliceBytes) {
    if (res.destroyed || !res.socket || res.socket.destroyed) return;
    res.write(bytes.subarray(offset, offset + sliceBytes));
    await nextTick();
  }
  res.end();
}

/**
 * Sends one chunk every `intervalMs` and never `[DONE]`, until the client leaves
 * (or `maxChunks` is reached, so a broken test cannot hang forever).
 */
export async function sendEndlessSse(res: ServerResponse, { intervalMs = 15, maxChunks = 400 } = {}): Promise<void> {
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  for (let count = 0; count < maxChunks; count += 1) {
    if (res.destroyed || !res.socket || res.socket.destroyed) return;
    res.write(sseData(contentChunk(`tick ${count} `)));
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
  res.end();
}

/** One SSE event as the relay frames it. */
export const sseData = (payload: unknown): string =>
  `data: ${typeof payload === 'string' ? payload : JSON.stringify(payload)}\n\n`;

/** A minimal valid chunk carrying `content` for choice 0. */
export const contentChunk = (content: string, finishReason: 'stop' | null = null) => ({
  id: 'chatcmpl-test',
  object: 'chat.completion.chunk',
  created: 1727346168,
  model: 'gpt-4o-mini',
  choices: [{ index: 0, delta: { content }, logprobs: null, finish_reason: finishReason }],
});
