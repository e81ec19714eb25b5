import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import type { SpawnedRelay } from '../../testing/spawn-relay';

/** What one `/v1/chat/completions` call came to, as the caller saw it. */
export interface ChatOutcome {
  /** The HTTP status; 0 when no answer came (connection refused or cut). */
  status: number;
  /** The id sent as `X-Request-Id` (and so the usage row's). */
  requestId: string;
  /** The parsed JSON answer, or the text when it is not JSON. */
  body: unknown;
  /** From sending to the whole answer read. */
  ms: number;
  /** Which relay answered (its URL). */
  url: string;
  /** The Retry-After header, when the answer had one. */
  retryAfter?: string;
  /** The transport error when no answer came. */
  error?: string;
}

export interface ChatOptions {
  maxTokens?: number;
  /** The simulator's delay per streamed token (per token before a non-streamed answer). */
  latencyMsPerToken?: number;
  stream?: boolean;
  /** Sent as `X-Request-Id`; a fresh one otherwise. */
  requestId?: string;
  /** Abort after this long (a hung relay must not hang the test). Default 10 s. */
  timeoutMs?: number;
}

export const newRequestId = (tag = 'r'): string => `${tag}-${randomBytes(8).toString('hex')}`;

/** Long enough that the simulator's echo is cut by `max_tokens`, so every answer has the same length. */
const PROMPT = 'please echo this sentence back with all of its many words intact';

/** One chat request to `relay` with `key`; never throws (a transport error is status 0). */
export async function chat(relay: Pick<SpawnedRelay, 'url'>, key: string, options: ChatOptions = {}): Promise<ChatOutcome> {
  const requestId = options.requestId ?? newRequestId();
  const started = performance.now();
  const body: Record<string, unknown> = { model: 'gpt-4o', max_tokens: options.maxTokens ?? 5, messages: [{ role: 'user', content: PROMPT }] };
  if (options.latencyMsPerToken) body['x_sim'] = { latency_ms_per_token: options.latencyMsPerToken };
  if (options.stream) body['stream'] = true;
  try {
    const response = await fetch(`${relay.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'x-request-id': requestId },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(options.timeoutMs ?? 10_000),
    });
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // A stream, or not JSON: kept as text.
    }
    const retryAfter = response.headers.get('retry-after') ?? undefined;
    return { status: response.status, requestId, body: parsed, ms: performance.now() - started, url: relay.url, ...(retryAfter ? { retryAfter } : {}) };
  } catch (error) {
    return { status: 0, requestId, body: undefined, ms: performance.now() - started, url: relay.url, error: String((error as Error).cause ?? error) };
  }
}

/** The `error` object of an OpenAI-shaped error answer, or undefined. */
export function errorOf(outcome: ChatOutcome): { message?: unknown; type?: unknown; param?: unknown; code?: unknown } | undefined {
  const body = outcome.body as { error?: { message?: unknown; type?: unknown; param?: unknown; code?: unknown } } | undefined;
  return typeof body === 'object' && body !== null ? body.error : undefined;
}

/** `count` requests at once, the i-th to `relays[i % relays.length]` (round robin, as a balancer spreads them). */
export function spread(relays: Array<Pick<SpawnedRelay, 'url'>>, count: number, send: (relay: Pick<SpawnedRelay, 'url'>, index: number) => Promise<ChatOutcome>): Promise<ChatOutcome[]> {
  return Promise.all(
    Array.from({ length: count }, (_, index) => {
      const relay = relays[index % relays.length];
      if (!relay) throw new Error('no relay to send to');
      return send(relay, index);
    }),
  );
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A usage row as the test reads it from PostgreSQL. */
export interface UsageRow {
  id: number;
  created_at: string;
  request_id: string;
  token_id: number | null;
  status: number;
  error_code: string | null;
  cost: number;
  completion_tokens: number;
}

/**
 * The usage rows of `requestIds` (every row with one of those ids, duplicates included),
 * waiting up to `timeoutMs` until each id has at least one.
 */
export async function usageRowsOf(db: pg.Pool, requestIds: readonly string[], timeoutMs = 5_000): Promise<UsageRow[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { rows } = await db.query<UsageRow>(
      'SELECT id, created_at, request_id, token_id, status, error_code, cost, completion_tokens FROM usage_log WHERE request_id = ANY($1::text[])',
      [requestIds],
    );
    const seen = new Set(rows.map((row) => row.request_id));
    if (requestIds.every((id) => seen.has(id)) || Date.now() > deadline) return rows;
    await sleep(50);
  }
}

/** Every usage row of `tokenId`. */
export async function usageRowsOfToken(db: pg.Pool, tokenId: number): Promise<UsageRow[]> {
  const { rows } = await db.query<UsageRow>('SELECT id, created_at, request_id, token_id, status, error_code, cost, completion_tokens FROM usage_log WHERE token_id = $1', [tokenId]);
  return rows;
}

/** The token's quota as stored (micro-USD). */
export async function quotaOf(db: pg.Pool, tokenId: number): Promise<{ quotaUsed: number; quotaLimit: number | null }> {
  const { rows } = await db.query<{ quota_used: number; quota_limit: number | null }>('SELECT quota_used, quota_limit FROM tokens WHERE id = $1', [tokenId]);
  const row = rows[0];
  if (!row) throw new Error(`no token ${tokenId}`);
  return { quotaUsed: row.quota_used, quotaLimit: row.quota_limit };
}

/** Reservations not settled yet: request id → micro-USD. */
export async function openReservations(db: pg.Pool, tokenId?: number): Promise<Array<{ request_id: string; amount: number }>> {
  const { rows } = await db.query<{ request_id: string; amount: number }>(
    tokenId === undefined ? 'SELECT request_id, amount FROM quota_reservations' : 'SELECT request_id, amount FROM quota_reservations WHERE token_id = $1',
    tokenId === undefined ? [] : [tokenId],
  );
  return rows;
}

/** How many times each value occurs. */
export function countBy<T>(values: readonly T[]): Map<T, number> {
  const counts = new Map<T, number>();
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
  return counts;
}

/**
 * Asks `check` every `everyMs` until it returns true or `withinMs` passes; how long it took
 * (from `since`), or undefined when it never did.
 */
export async function pollUntil(check: () => Promise<boolean>, { since = performance.now(), everyMs = 50, withinMs = 3_000 } = {}): Promise<number | undefined> {
  const deadline = since + withinMs;
  for (;;) {
    if (await check()) return performance.now() - since;
    if (performance.now() > deadline) return undefined;
    await sleep(everyMs);
  }
}

/** The status of `GET path` and its JSON body. */
export async function probe(relay: Pick<SpawnedRelay, 'url'>, path: '/healthz' | '/readyz'): Promise<{ status: number; body: Record<string, unknown>; ms: number }> {
  const started = performance.now();
  const response = await fetch(`${relay.url}${path}`, { signal: AbortSignal.timeout(10_000) });
  return { status: response.status, body: (await response.json()) as Record<string, unknown>, ms: performance.now() - started };
}
