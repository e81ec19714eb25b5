import type Redis from 'ioredis';
import { z } from 'zod';
import type { Logger } from '../../logger';
import { formatOpenAiDuration } from '../../policy/openai-duration';
import type { PerMinuteLimits, RateLimitDecision, RateLimiter, RateLimitHeaders, RateLimitKind } from '../../policy/rate-limiter';
import { limitsUnavailable, type FailureMode } from './limits-unavailable';
import { CHECK_REQUEST, RECORD_TOKENS } from './rate-limit-scripts';
import { RedisSlots } from './redis-slots';
import { throttledWarn, type ThrottledWarn } from '../../core/throttled-log';

export interface RedisRateLimiterOptions {
  /** The command connection (no offline queue, a short command timeout). */
  redis: Redis;
  keyPrefix: string;
  /** Tells this instance's concurrency slots from the others'. */
  instanceId: string;
  failureMode: FailureMode;
  logger: Logger;
  /**
   * The clock when a call gives no `now`; without one, Redis' own clock (TIME, in the script), so
   * that every instance measures the shared window on the same clock.
   */
  clock?: () => number;
  windowMs?: number;
  /** The window's precision: additions in one bucket leave the window together (default 1 s). */
  bucketMs?: number;
  /** How long a silent instance's concurrency slots still count (default 30 s). */
  slotLeaseMs?: number;
}

const MINUTE_MS = 60_000;
const DEFAULT_BUCKET_MS = 1_000;
const NO_LIMIT = -1;
const REDIS_CLOCK = -1;

/** {allowed, exceeded bits, requestsUsed, tokensUsed, waitMs, requestsResetMs, tokensResetMs} */
const checkReply = z.tuple([z.number(), z.number(), z.number(), z.number(), z.number(), z.number(), z.number()]);

/**
 * The rate limits of every instance sharing one Redis: the same decisions and headers as
 * InMemoryRateLimiter, on a window all instances count in, decided atomically by one script per
 * request (see rate-limit-scripts.ts). When Redis does not answer (down, or slower than the
 * command timeout), `failureMode` decides: `open` admits without headers, `closed` refuses with
 * a 503. Counting tokens and giving slots back never reject: they run after the answer.
 */
export class RedisRateLimiter implements RateLimiter {
  private readonly redis: Redis;
  private readonly keyPrefix: string;
  private readonly failureMode: FailureMode;
  private readonly clock: (() => number) | undefined;
  private readonly windowMs: number;
  private readonly bucketMs: number;
  private readonly warn: ThrottledWarn;
  private readonly slots: RedisSlots;

  constructor(options: RedisRateLimiterOptions) {
    this.redis = options.redis;
    this.keyPrefix = options.keyPrefix;
    this.failureMode = options.failureMode;
    this.clock = options.clock;
    this.windowMs = options.windowMs ?? MINUTE_MS;
    this.bucketMs = options.bucketMs ?? DEFAULT_BUCKET_MS;
    this.warn = throttledWarn(options.logger);
    this.slots = new RedisSlots({
      redis: options.redis,
      keyPrefix: options.keyPrefix,
      instanceId: options.instanceId,
      failureMode: options.failureMode,
      warn: this.warn,
      leaseMs: options.slotLeaseMs,
    });
  }

  async checkRequest(tokenId: number, limits: PerMinuteLimits, now?: number): Promise<RateLimitDecision> {
    const { rpm, tpm } = limits;
    if (rpm === null && tpm === null) return { allowed: true, headers: {} };
    let reply: z.infer<typeof checkReply>;
    try {
      const raw = await CHECK_REQUEST.run(this.redis, [this.keyOf(tokenId, 'requests'), this.keyOf(tokenId, 'tokens')], [
        ...this.windowArgs(now),
        rpm ?? NO_LIMIT,
        tpm ?? NO_LIMIT,
      ]);
      reply = checkReply.parse(raw);
    } catch (error) {
      this.warn('check', error, `rate limits not checked (redis); failure mode ${this.failureMode}`);
      if (this.failureMode === 'closed') throw limitsUnavailable();
      return { allowed: true, headers: {} };
    }
    return decisionOf(limits, reply);
  }

  async recordTokens(tokenId: number, tokens: number, now?: number): Promise<void> {
    if (!Number.isFinite(tokens) || tokens <= 0) return;
    try {
      await RECORD_TOKENS.run(this.redis, [this.keyOf(tokenId, 'tokens')], [...this.windowArgs(now), Math.ceil(tokens)]);
    } catch (error) {
      this.warn('record', error, `tokens of token ${tokenId} not counted (redis)`);
    }
  }

  acquireSlot(tokenId: number, limit: number): Promise<boolean> {
    return this.slots.acquire(tokenId, limit);
  }

  releaseSlot(tokenId: number): Promise<void> {
    return this.slots.release(tokenId);
  }

  /** Slots this instance holds in Redis for a token (tests, metrics). */
  slotsHeldBy(tokenId: number): number {
    return this.slots.heldBy(tokenId);
  }

  /** Stops the slots' heartbeat; the connection belongs to the caller. */
  close(): Promise<void> {
    return this.slots.close();
  }

  /** now, windowMs, bucketMs, ttlMs: a key outlives its last write by a window and a bucket. */
  private windowArgs(now: number | undefined): number[] {
    const at = now ?? this.clock?.() ?? REDIS_CLOCK;
    return [Math.floor(at), this.windowMs, this.bucketMs, this.windowMs + this.bucketMs];
  }

  private keyOf(tokenId: number, window: 'requests' | 'tokens'): string {
    return `${this.keyPrefix}rl:${tokenId}:${window}`;
  }
}

/** The script's numbers as the decision and headers InMemoryRateLimiter gives. */
function decisionOf({ rpm, tpm }: PerMinuteLimits, reply: z.infer<typeof checkReply>): RateLimitDecision {
  const [allowedBit, exceededBits, requestsUsed, tokensUsed, waitMs, requestsResetMs, tokensResetMs] = reply;
  const allowed = allowedBit === 1;
  const headers: RateLimitHeaders = {};
  if (rpm !== null) {
    const used = requestsUsed + (allowed ? 1 : 0);
    headers['x-ratelimit-limit-requests'] = String(rpm);
    headers['x-ratelimit-remaining-requests'] = String(Math.max(0, rpm - used));
    headers['x-ratelimit-reset-requests'] = formatOpenAiDuration(requestsResetMs);
  }
  if (tpm !== null) {
    headers['x-ratelimit-limit-tokens'] = String(tpm);
    headers['x-ratelimit-remaining-tokens'] = String(Math.max(0, tpm - tokensUsed));
    headers['x-ratelimit-reset-tokens'] = formatOpenAiDuration(tokensResetMs);
  }
  if (allowed) return { allowed, headers };

  const exceeded: RateLimitKind[] = [];
  if (exceededBits & 1) exceeded.push('requests');
  if (exceededBits & 2) exceeded.push('tokens');
  const retryAfterSeconds = Math.max(1, Math.ceil(waitMs / 1000));
  headers['retry-after'] = String(retryAfterSeconds);
  return { allowed, exceeded, retryAfterSeconds, headers };
}
