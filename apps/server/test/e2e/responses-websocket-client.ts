import WebSocket from 'ws';
import type { E2eRelay } from './e2e-relay';

/** A Responses WebSocket client for the specs: frames read in order, one `response.create` at a time. */

export type Json = Record<string, unknown>;

/** A WebSocket client reading the relay's frames in order. */
export class Client {
  private readonly frames: Json[] = [];
  private readonly waiters: Array<() => void> = [];
  readonly closed: Promise<{ code: number; reason: string }>;

  constructor(readonly ws: WebSocket) {
    ws.on('message', (data) => {
      this.frames.push(JSON.parse(String(data)) as Json);
      for (const wake of this.waiters.splice(0)) wake();
    });
    this.closed = new Promise((resolve) => ws.once('close', (code, reason) => resolve({ code, reason: String(reason) })));
  }

  send(event: Json): void {
    this.ws.send(JSON.stringify(event));
  }

  /** The next frame, within `timeoutMs`. */
  async next(timeoutMs = 5000): Promise<Json> {
    const deadline = Date.now() + timeoutMs;
    while (this.frames.length === 0) {
      if (Date.now() > deadline) throw new Error('no frame in time');
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        setTimeout(resolve, 50);
      });
    }
    return this.frames.shift() as Json;
  }

  /** The frames up to and including the first of one of `types`. */
  async until(...types: string[]): Promise<Json[]> {
    const seen: Json[] = [];
    for (;;) {
      const frame = await this.next();
      seen.push(frame);
      if (types.includes(String(frame['type']))) return seen;
    }
  }

  /** One `response.create`, its events to the end: the finished response, or the error event. */
  async create(body: Json): Promise<{ events: Json[]; last: Json }> {
    this.send({ type: 'response.create', ...body });
    const events = await this.until('response.completed', 'response.incomplete', 'response.failed', 'error');
    return { events, last: events.at(-1) as Json };
  }
}

export async function connect(e2e: Pick<E2eRelay, 'url' | 'token'>, headers: Record<string, string> = { authorization: `Bearer ${e2e.token}` }): Promise<Client> {
  const ws = new WebSocket(`${e2e.url.replace('http:', 'ws:')}/v1/responses`, { headers });
  const client = new Client(ws);
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  return client;
}

export const responseOf = (frame: Json): Json => frame['response'] as Json;
