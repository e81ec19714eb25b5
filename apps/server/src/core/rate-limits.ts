import type { RateLimitInput } from '@chat-relay/contract';

/** A token's `rate_limit` (SPEC §4): null = no limit of that kind. */
export interface RateLimits {
  /** Requests per minute. */
  rpm: number | null;
  /** Prompt + completion tokens per minute. */
  tpm: number | null;
  /** Requests in flight at once. */
  concurrency: number | null;
}

const NO_LIMITS: RateLimits = { rpm: null, tpm: null, concurrency: null };

const orNull = (limits: RateLimits): RateLimits | null =>
  limits.rpm === null && limits.tpm === null && limits.concurrency === null ? null : limits;

/**
 * Applies a create/PATCH `rate_limit` to what a token has: an absent kind keeps its value (no
 * limit on create), null removes it, `rate_limit: null` removes them all. No limit left → null.
 */
export function mergeRateLimits(current: RateLimits | null, change: RateLimitInput | null | undefined): RateLimits | null {
  if (change === undefined) return current;
  if (change === null) return null;
  const base = current ?? NO_LIMITS;
  return orNull({
    rpm: change.rpm === undefined ? base.rpm : change.rpm,
    tpm: change.tpm === undefined ? base.tpm : change.tpm,
    concurrency: change.concurrency === undefined ? base.concurrency : change.concurrency,
  });
}

/** Limits as stored before `concurrency` existed (or by hand) read as the full shape. */
export function normaliseRateLimits(stored: Partial<RateLimits> | null): RateLimits | null {
  if (stored === null) return null;
  return orNull({ rpm: stored.rpm ?? null, tpm: stored.tpm ?? null, concurrency: stored.concurrency ?? null });
}
