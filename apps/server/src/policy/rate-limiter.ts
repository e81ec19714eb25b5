import { formatOpenAiDuration } from './openai-duration';
import type { RateLimits } from '../core/rate-limits';
import { SlidingWindow } from './sliding-window';

export type { RateLimits } from '../core/rate-limits';

/** The limits `checkRequest` looks at; `concurrency` has its own slots. */
export type PerMinuteLimits = Pick<RateLimits, 'rpm' | 'tpm'>;

/** Response headers, lower-case names as OpenAI sends them. */
export type RateLimitHeaders = Record<string, string>;

export type RateLimitKind = 'requests' | 'tokens';

export type RateLimitDecision =
  | { allowed: true; headers: RateLimitHeaders }
  | {
      allowed: false;
      /** The limits that refused it: requests first when both did. */
      exceeded: RateLimitKind[];
      retryAfterSeconds: number;
      /** The `x-ratelimit-*` headers and `retry-after`. */
      headers: RateLimitHeaders;
    };

/**
 * Per-token rate limits over a sliding one-minute window. Async so that a shared (Redis)
 * implementation can serve several relay instances behind the same interface.
 *
 * - `checkRequest` admits a request — counting it towards `rpm` — or refuses it. A request is
 *   refused when the requests admitted in the window reach `rpm`, or when the tokens recorded
 *   in the window reach `tpm`. A refused request is not counted.
 * - `recordTokens` counts what a request used (prompt + completion) once it has completed, so
 *   requests still in flight do not count towards `tpm` yet.
 *
 * Headers follow OpenAI: `x-ratelimit-limit-requests`, `x-ratelimit-remaining-requests`,
 * `x-ratelimit-reset-requests` (time until the window is back to its full limit, e.g. `6m0s`,
 * `20ms`) and the `-tokens` variants, for each limit the token has; on refusal also
 * `retry-after` (whole seconds, at least 1: when the request would be admitted).
 */
export interface RateLimiter {
  /** At once, not a promise, where the limiter keeps its windows in memory. */
  checkRequest(tokenId: number, limits: PerMinuteLimits, now?: number): RateLimitDecision | Promise<RateLimitDecision>;
  recordTokens(tokenId: number, tokens: number, now?: number): Promise<void>;
  /** Takes one of the token's `limit` in-flight slots (`concurrency`); false when all are taken. */
  acquireSlot(tokenId: number, limit: number): Promise<boolean>;
  /** Gives back a slot `acquireSlot` took; call exactly once per slot taken. */
  releaseSlot(tokenId: number): Promise<void>;
}

export interface InMemoryRateLimiterOptions {
  /** Milliseconds since the epoch; injectable for tests. */
  clock?: () => number;
  windowMs?: number;
  /** Additions closer together than this share a slot (bounds memory under bursts). */
  slotMs?: number;
  /** How often idle tokens are looked for and dropped. */
  sweepEveryMs?: number;
}

interface TokenWindows {
  requests: SlidingWindow;
  tokens: SlidingWindow;
}

const MINUTE_MS = 60_000;

/**
 * One process's limiter. Memory stays bounded: each window holds at most
 * `windowMs / slotMs + 1` slots, and a token nobody used for a whole window is dropped by the
 * next sweep.
 */
export class InMemoryRateLimiter implements RateLimiter {
  private readonly byToken = new Map<number, TokenWindows>();
  /** Requests in flight per token that has a `concurrency` limit; absent = none. */
  private readonly inFlight = new Map<number, number>();
  private readonly clock: () => number;
  private readonly windowMs: number;
  private readonly slotMs: number;
  private readonly sweepEveryMs: number;
  private lastSweep = Number.NEGATIVE_INFINITY;

  constructor(options: InMemoryRateLimiterOptions = {}) {
    this.clock = options.clock ?? Date.now;
    this.windowMs = options.windowMs ?? MINUTE_MS;
    this.slotMs = options.slotMs ?? 100;
    this.sweepEveryMs = options.sweepEveryMs ?? this.windowMs;
  }

  checkRequest(tokenId: number, limits: PerMinuteLimits, now: number = this.clock()): RateLimitDecision {
    return this.admit(tokenId, limits, now);
  }

  async recordTokens(tokenId: number, tokens: number, now: number = this.clock()): Promise<void> {
    this.sweep(now);
    if (!Number.isFinite(tokens) || tokens <= 0) return;
    this.windowsFor(tokenId).tokens.add(now, tokens);
  }

  async acquireSlot(tokenId: number, limit: number): Promise<boolean> {
    const current = this.inFlight.get(tokenId) ?? 0;
    if (current >= limit) return false;
    this.inFlight.set(tokenId, current + 1);
    return true;
  }

  async releaseSlot(tokenId: number): Promise<void> {
    const current = this.inFlight.get(tokenId) ?? 0;
    if (current <= 1) this.inFlight.delete(tokenId);
    else this.inFlight.set(tokenId, current - 1);
  }

  /** Requests of a token holding a concurrency slot right now (for tests and metrics). */
  slotsInUse(tokenId: number): number {
    return this.inFlight.get(tokenId) ?? 0;
  }

  /** How many tokens have state right now (for tests and metrics). */
  get trackedTokens(): number {
    return this.byToken.size;
  }

  /** Slots held for one token: `[requests, tokens]` (for tests). */
  slotsOf(tokenId: number): [number, number] {
    const windows = this.byToken.get(tokenId);
    return windows ? [windows.requests.slotCount, windows.tokens.slotCount] : [0, 0];
  }

  private admit(tokenId: number, { rpm, tpm }: PerMinuteLimits, now: number): RateLimitDecision {
    this.sweep(now);
    if (rpm === null && tpm === null) return { allowed: true, headers: {} };
    const windows = this.windowsFor(tokenId);
    const requestsUsed = windows.requests.sum(now);
    const tokensUsed = windows.tokens.sum(now);

    const exceeded: RateLimitKind[] = [];
    let waitMs = 0;
    if (rpm !== null && requestsUsed >= rpm) {
      exceeded.push('requests');
      waitMs = Math.max(waitMs, windows.requests.msUntilBelow(rpm, now));
    }
    if (tpm !== null && tokensUsed >= tpm) {
      exceeded.push('tokens');
      waitMs = Math.max(waitMs, windows.tokens.msUntilBelow(tpm, now));
    }
    const allowed = exceeded.length === 0;
    if (allowed && rpm !== null) windows.requests.add(now, 1);

    const headers: RateLimitHeaders = {};
    if (rpm !== null) {
      const used = requestsUsed + (allowed ? 1 : 0);
      headers['x-ratelimit-limit-requests'] = String(rpm);
      headers['x-ratelimit-remaining-requests'] = String(Math.max(0, rpm - used));
      headers['x-ratelimit-reset-requests'] = formatOpenAiDuration(windows.requests.msUntilEmpty(now));
    }
    if (tpm !== null) {
      headers['x-ratelimit-limit-tokens'] = String(tpm);
      headers['x-ratelimit-remaining-tokens'] = String(Math.max(0, tpm - tokensUsed));
      headers['x-ratelimit-reset-tokens'] = formatOpenAiDuration(windows.tokens.msUntilEmpty(now));
    }
    if (allowed) return { allowed, headers };

    const retryAfterSeconds = Math.max(1, Math.ceil(waitMs / 1000));
    headers['retry-after'] = String(retryAfterSeconds);
    return { allowed, exceeded, retryAfterSeconds, headers };
  }

  private windowsFor(tokenId: number): TokenWindows {
    let windows = this.byToken.get(tokenId);
    if (!windows) {
      windows = {
        requests: new SlidingWindow(this.windowMs, this.slotMs),
        tokens: new SlidingWindow(this.windowMs, this.slotMs),
      };
      this.byToken.set(tokenId, windows);
    }
    return windows;
  }

  /** Drops tokens whose windows have emptied; at most once per `sweepEveryMs`. */
  private sweep(now: number): void {
    if (now - this.lastSweep < this.sweepEveryMs) return;
    this.lastSweep = now;
    for (const [tokenId, windows] of this.byToken) {
      if (windows.requests.sum(now) === 0 && windows.tokens.sum(now) === 0) this.byToken.delete(tokenId);
    }
  }
}
