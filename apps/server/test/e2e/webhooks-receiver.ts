import { createHmac, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** One POST as the receiver got it: the raw body (what the signature covers) and the headers. */
export interface ReceivedDelivery {
  headers: http.IncomingHttpHeaders;
  rawBody: string;
  body: { id: string; type: string; created_at: string; data: Record<string, unknown> };
}

/**
 * A webhook receiver on 127.0.0.1, port 0, as an operator would write one: it answers each POST
 * with the next status of `statuses` (the last one repeating), or never when `hang` is set.
 */
export interface WebhookReceiver {
  url: string;
  received: ReceivedDelivery[];
  /** Resolves once `count` deliveries arrived (rejects after `timeoutMs`). */
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedDelivery[]>;
  close(): Promise<void>;
}

export async function startWebhookReceiver(options: { statuses?: number[]; hang?: boolean } = {}): Promise<WebhookReceiver> {
  const statuses = options.statuses ?? [200];
  const received: ReceivedDelivery[] = [];
  const waiters: Array<() => void> = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const rawBody = Buffer.concat(chunks).toString('utf8');
      received.push({ headers: req.headers, rawBody, body: JSON.parse(rawBody) as ReceivedDelivery['body'] });
      for (const wake of waiters.splice(0)) wake();
      if (options.hang) return;
      res.statusCode = statuses[Math.min(received.length, statuses.length) - 1] ?? 200;
      res.end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    waitFor: async (count, timeoutMs = 5_000) => {
      const deadline = Date.now() + timeoutMs;
      while (received.length < count) {
        if (Date.now() > deadline) throw new Error(`the receiver got ${received.length} deliveries, not ${count}`);
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 50);
        });
      }
      return received.slice(0, count);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * The receiver's check, written apart from the relay's code as the guide shows it: HMAC-SHA256 of
 * `"<t>.<raw body>"` under the secret, compared in constant time, the time within 5 minutes.
 */
export function signatureIsValid(secret: string, delivery: ReceivedDelivery): boolean {
  const header = String(delivery.headers['x-relay-signature'] ?? '');
  const fields = Object.fromEntries(header.split(',').map((part) => part.split('=') as [string, string]));
  const t = Number(fields['t']);
  if (!Number.isInteger(t) || Math.abs(Date.now() / 1000 - t) > 300 || !fields['v1']) return false;
  const expected = createHmac('sha256', secret).update(`${t}.${delivery.rawBody}`).digest();
  const given = Buffer.from(fields['v1'], 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}
