import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * An upstream of every channel type whose errors quote the channel's keys in every field, in
 * the spellings an upstream might use. The last user text picks the answer: `mode=<m>` and
 * `variant=<n>` (see {@link LEAK_VARIANTS}); modes: `status:<code>` (an error answer),
 * `midstream` (a stream that fails with an error event).
 */
export interface LeakyUpstream {
  /** `…/v1` for openai and anthropic channels, `…/v1beta` for gemini ones. */
  baseUrl: string;
  geminiBaseUrl: string;
  close(): Promise<void>;
}

/** How one field spells the keys: plain, inside text, repeated, glued, and escaped three ways. */
export const LEAK_VARIANTS: ReadonlyArray<(key: string, other: string) => string> = [
  (key) => key,
  (key, other) => `Incorrect API key provided: ${key}. Other key on file: ${other}.`,
  (key) => `${key}${key}|${key}`,
  (key) => `\\u${key.charCodeAt(0).toString(16).padStart(4, '0')}${key.slice(1)}`,
  (key) => `key=${encodeURIComponent(key)}&x=1`,
  (key) => key.replace(/\//g, '\\/'),
];

function keyOf(req: http.IncomingMessage): string {
  const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
  return bearer ?? String(req.headers['x-api-key'] ?? req.headers['x-goog-api-key'] ?? '');
}

function errorBody(format: 'openai' | 'anthropic' | 'gemini', status: number, field: (slot: number) => string): unknown {
  switch (format) {
    case 'openai':
      return { error: { message: field(0), type: field(1), code: field(2), param: field(3) } };
    case 'anthropic':
      return { type: 'error', error: { type: field(1), message: field(0) } };
    case 'gemini':
      return { error: { code: status, message: field(0), status: field(1) } };
  }
}

function streamEvents(format: 'openai' | 'anthropic' | 'gemini', error: unknown): string {
  const data = JSON.stringify(error);
  switch (format) {
    case 'openai': {
      const chunk = { id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta: { content: 'Hi' }, finish_reason: null }] };
      return `data: ${JSON.stringify(chunk)}\n\ndata: ${data}\n\n`;
    }
    case 'anthropic':
      return `event: error\ndata: ${data}\n\n`;
    case 'gemini':
      return `data: ${data}\n\n`;
  }
}

export async function startLeakyUpstream(keys: readonly string[]): Promise<LeakyUpstream> {
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const format = req.url?.startsWith('/v1beta/') ? 'gemini' : req.url?.endsWith('/messages') ? 'anthropic' : 'openai';
      const mode = /mode=([a-z]+(?::\d+)?)/.exec(text)?.[1] ?? 'status:400';
      const variant = LEAK_VARIANTS[Number(/variant=(\d+)/.exec(text)?.[1] ?? 0)] ?? ((key: string) => key);
      const key = keyOf(req);
      // Keys come in pairs, one pair per channel: the other key of the same channel.
      const other = keys[keys.indexOf(key) ^ 1] ?? key;
      // Every field spells a key: the one sent, or the channel's other one.
      const field = (slot: number) => (slot % 2 === 0 ? variant(key, other) : variant(other, key));
      if (mode === 'midstream') {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.end(streamEvents(format, errorBody(format, 500, field)));
        return;
      }
      const status = Number(mode.split(':')[1] ?? 400);
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(errorBody(format, status, field)));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    geminiBaseUrl: `http://127.0.0.1:${port}/v1beta`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
