import type { UpstreamHeaderName } from './upstream-client';

/**
 * How long an upstream asked to be left alone, in ms, from a 429's or 503's headers: Azure's and
 * OpenAI's `retry-after-ms` (milliseconds, fractions allowed) first, else `retry-after` (RFC 9110:
 * seconds, or an HTTP date). Undefined when neither says, or says nonsense.
 */
export function retryAfterMsOf(status: number, header: (name: UpstreamHeaderName) => string | undefined, now: number = Date.now()): number | undefined {
  if (status !== 429 && status !== 503) return undefined;
  const ms = Number(header('retry-after-ms'));
  if (Number.isFinite(ms) && ms > 0) return Math.ceil(ms);
  const after = header('retry-after')?.trim();
  if (!after) return undefined;
  if (/^\d+(\.\d+)?$/.test(after)) return Math.ceil(Number(after) * 1000);
  const at = Date.parse(after);
  return Number.isFinite(at) && at > now ? at - now : undefined;
}
