import { RelayError, upstreamError } from '@chat-relay/wire';

export interface FetchLimits {
  /** The whole fetch, headers and body. */
  timeoutMs: number;
  /** The body's size cap: models.dev's api.json is a few MB. */
  maxBytes: number;
}

export const DEFAULT_FETCH_LIMITS: FetchLimits = { timeoutMs: 20_000, maxBytes: 64 * 1024 * 1024 };

const OFFLINE_HINT = 'Where the relay cannot reach it, download api.json elsewhere and POST it as the request body (or upload it in the console).';

const fetchFailed = (url: string, why: string, code: string, status = 502) =>
  upstreamError(`Could not fetch the catalogue from ${url}: ${why}. ${OFFLINE_HINT}`, code, status);

/** The network error under fetch's generic "fetch failed" (ECONNREFUSED, ENOTFOUND …). */
function causeOf(error: unknown): string {
  const cause = (error as { cause?: unknown }).cause;
  if (cause && typeof cause === 'object') {
    const { code, message } = cause as { code?: unknown; message?: unknown };
    if (typeof code === 'string') return code;
    if (typeof message === 'string') return message;
  }
  return error instanceof Error ? error.message : String(error);
}

/**
 * GETs models.dev's api.json (or a copy of it) for POST /api/catalogue/refresh: within a time
 * limit and a size cap (both enforced while the body arrives), parsed as JSON. Every failure is
 * a RelayError saying what went wrong and how to refresh without the network.
 */
export async function fetchModelsDevJson(url: string, limits: FetchLimits = DEFAULT_FETCH_LIMITS): Promise<unknown> {
  const signal = AbortSignal.timeout(limits.timeoutMs);
  let text: string;
  try {
    const response = await fetch(url, { signal, headers: { accept: 'application/json' } });
    if (!response.ok) {
      await response.body?.cancel().catch(() => undefined);
      throw fetchFailed(url, `it answered ${response.status}`, 'catalogue_fetch_failed');
    }
    const declared = Number(response.headers.get('content-length') ?? NaN);
    if (declared > limits.maxBytes) {
      await response.body?.cancel().catch(() => undefined);
      throw fetchFailed(url, `it is ${declared} bytes, over the limit of ${limits.maxBytes}`, 'catalogue_too_large');
    }
    text = await readCapped(response, limits.maxBytes, url);
  } catch (error) {
    if (error instanceof RelayError) throw error;
    if (signal.aborted) throw fetchFailed(url, `no answer within ${limits.timeoutMs} ms`, 'catalogue_fetch_timeout', 504);
    throw fetchFailed(url, causeOf(error), 'catalogue_fetch_failed');
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw fetchFailed(url, 'its answer is not JSON', 'catalogue_unreadable');
  }
}

async function readCapped(response: Response, maxBytes: number, url: string): Promise<string> {
  if (!response.body) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = response.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw fetchFailed(url, `it is over the limit of ${maxBytes} bytes`, 'catalogue_too_large');
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}
