import type Redis from 'ioredis';
import { z } from 'zod';
import { limitsUnavailable, neverSent, type FailureMode } from './limits-unavailable';
import { ACQUIRE_SLOT, RENEW_SLOTS } from './slot-scripts';
import type { ThrottledWarn } from '../../core/throttled-log';

export interface RedisSlotsOptions {
  redis: Redis;
  keyPrefix: string;
  instanceId: string;
  failureMode: FailureMode;
  warn: ThrottledWarn;
  /** How long a slot counts after its last renewal: the most a dead holder can keep it (default 30 s). */
  leaseMs?: number;
}

export const DEFAULT_SLOT_LEASE_MS = 30_000;
/** A token's slot set outlives any request; it goes when empty, or this long after its last acquire. */
const SLOT_KEY_TTL_MS = 24 * 3_600_000;
/** Slot ids known dead (kept to be removed), at most; past it the leases end them. */
const MAX_DEAD = 10_000;
/** Tokens renewed per script call. */
const RENEW_BATCH = 500;
/** A full token is looked at now, and again after these waits, before the caller is refused. */
const FULL_LOOKS_AGAIN_AFTER_MS = [0, 10, 40];
/**
 * Shortly after Redis failed this instance (a reset, a failover, a timeout), a full token is looked
 * at a while longer: the acquires that every instance had in flight may each have taken a slot no
 * request holds, and the instance that knows such a slot is dead removes it with its own next
 * acquire or once it has reconnected — some hundreds of milliseconds later, not 50.
 */
const AFTER_TROUBLE_LOOKS_AGAIN_AFTER_MS = [100, 150, 250];
const TROUBLE_RECENT_MS = 5_000;
/** A reading of Redis' clock is replaced by one with a shorter round trip, or by any once this old. */
const CLOCK_READING_KEPT_MS = 10_000;

/** ACQUIRE_SLOT's answer: taken (1), full (0) or run too late (-1), and Redis' clock then. */
const acquireReply = z.tuple([z.number(), z.number()]);
const TAKEN = 1;
const TOO_LATE = -1;
/** TIME's answer: seconds and microseconds, as strings. */
const timeReply = z.tuple([z.coerce.number(), z.coerce.number()]);

/** Redis' clock minus this instance's, read from one round trip (accurate to half of it). */
interface ClockReading {
  offsetMs: number;
  roundTripMs: number;
  at: number;
}

/**
 * Concurrency slots in Redis (see slot-scripts.ts), with this instance's bookkeeping: the slot ids
 * it holds per token (renewed every third of a lease), the requests it admitted without a slot
 * (fail-open), the offset of Redis' clock (so an acquire can say when its caller stops waiting,
 * and a late one takes nothing), and slot ids that may be in Redis without a request — an acquire
 * that timed out (it may have run in time) or a release that failed. Those are removed by id, exactly, by the token's
 * next acquire in the same script, or as soon as Redis is back: a blip holds no caller out.
 */
export class RedisSlots {
  private readonly held = new Map<number, string[]>();
  private readonly unbacked = new Map<number, number>();
  private readonly dead = new Map<number, Set<string>>();
  private deadCount = 0;
  private clock: ClockReading | undefined;
  private readonly leaseMs: number;
  /** How long a caller waits for Redis (the connection's command timeout); 0 when it waits on. */
  private readonly waitsMs: number;
  private readonly heartbeatTimer: NodeJS.Timeout;
  private readonly onReady = () => {
    // Connected again (not the first time): what was in flight when the connection went may have run.
    if (this.connectedBefore) this.troubleAt = Date.now();
    this.connectedBefore = true;
    void this.heartbeat();
  };
  private connectedBefore = false;
  /** When Redis last failed this instance, or it last (re)connected (Date.now); 0: never. */
  private troubleAt = 0;
  private sequence = 0;

  constructor(private readonly options: RedisSlotsOptions) {
    this.leaseMs = options.leaseMs ?? DEFAULT_SLOT_LEASE_MS;
    this.waitsMs = options.redis.options.commandTimeout ?? 0;
    this.heartbeatTimer = setInterval(() => void this.heartbeat(), Math.max(100, Math.floor(this.leaseMs / 3)));
    this.heartbeatTimer.unref();
    options.redis.on('ready', this.onReady);
  }

  /**
   * Takes a slot of `tokenId` if fewer than `limit` are held. At the limit it looks again twice
   * (after 10 ms, then 40 ms) before refusing: a caller sends its next request the moment it has
   * read an answer, and that answer's slot — given back by another instance as the answer ended —
   * may reach Redis a moment after the new request does. A caller truly over its limit waits
   * those 50 ms for its 429 — up to 550 ms more within seconds of a Redis failure (see
   * AFTER_TROUBLE_LOOKS_AGAIN_AFTER_MS).
   */
  async acquire(tokenId: number, limit: number): Promise<boolean> {
    if (limit <= 0) return false;
    for (const wait of FULL_LOOKS_AGAIN_AFTER_MS) {
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      if (await this.tryAcquire(tokenId, limit)) return true;
    }
    if (Date.now() - this.troubleAt > TROUBLE_RECENT_MS) return false;
    for (const wait of AFTER_TROUBLE_LOOKS_AGAIN_AFTER_MS) {
      await new Promise((resolve) => setTimeout(resolve, wait));
      if (await this.tryAcquire(tokenId, limit)) return true;
    }
    return false;
  }

  private async tryAcquire(tokenId: number, limit: number): Promise<boolean> {
    const key = this.keyOf(tokenId);
    const slotId = `${this.options.instanceId}/${++this.sequence}`;
    const dead = [...(this.dead.get(tokenId) ?? [])];
    const sentAt = Date.now();
    // On Redis' clock, when this caller stops waiting: a script run later takes nothing. Earlier by
    // the reading's round trip, so that however wrong the offset is within it, a script that takes
    // a slot runs while the caller still waits for it.
    const clock = this.clock;
    const notAfter = clock && this.waitsMs > 0 ? Math.floor(sentAt + clock.offsetMs + this.waitsMs - clock.roundTripMs) : 0;
    let outcome: number;
    try {
      const [answer, redisNow] = acquireReply.parse(
        await ACQUIRE_SLOT.run(this.options.redis, [key], [limit, slotId, this.leaseMs, SLOT_KEY_TTL_MS, notAfter, ...dead]),
      );
      this.readClock(sentAt, redisNow);
      this.forgetDead(tokenId, dead);
      outcome = answer;
    } catch (error) {
      this.troubleAt = Date.now();
      if (!neverSent(error)) this.markDead(tokenId, slotId);
      return this.unchecked(tokenId, error);
    }
    if (outcome === TOO_LATE) return this.unchecked(tokenId, new Error('the acquire reached Redis after its caller stopped waiting'));
    if (outcome !== TAKEN) return false;
    const slots = this.held.get(tokenId);
    if (slots) slots.push(slotId);
    else this.held.set(tokenId, [slotId]);
    return true;
  }

  /** Redis could not decide in time: mode open admits without a slot, mode closed refuses. */
  private unchecked(tokenId: number, error: unknown): boolean {
    this.options.warn('acquire', error, `concurrency slot of token ${tokenId} not checked (redis); failure mode ${this.options.failureMode}`);
    if (this.options.failureMode === 'closed') throw limitsUnavailable();
    this.unbacked.set(tokenId, (this.unbacked.get(tokenId) ?? 0) + 1);
    return true;
  }

  /** Keeps the reading of Redis' clock with the shortest round trip of the last few seconds. */
  private readClock(sentAt: number, redisNow: number): void {
    const receivedAt = Date.now();
    const roundTripMs = receivedAt - sentAt;
    const kept = this.clock;
    if (kept && roundTripMs > kept.roundTripMs && receivedAt - kept.at < CLOCK_READING_KEPT_MS) return;
    this.clock = { offsetMs: redisNow - (sentAt + receivedAt) / 2, roundTripMs, at: receivedAt };
  }

  /** Never rejects: it runs after the answer. A request admitted without a slot gives none back. */
  async release(tokenId: number): Promise<void> {
    const unbacked = this.unbacked.get(tokenId) ?? 0;
    if (unbacked > 0) {
      if (unbacked === 1) this.unbacked.delete(tokenId);
      else this.unbacked.set(tokenId, unbacked - 1);
      return;
    }
    const slots = this.held.get(tokenId);
    const slotId = slots?.pop();
    if (!slots || slotId === undefined) return;
    if (slots.length === 0) this.held.delete(tokenId);
    try {
      await this.options.redis.zrem(this.keyOf(tokenId), slotId);
    } catch (error) {
      this.troubleAt = Date.now();
      this.markDead(tokenId, slotId);
      this.options.warn('release', error, `concurrency slot of token ${tokenId} not given back yet (redis); removed once Redis answers`);
    }
  }

  /** Slots this instance holds in Redis for a token (tests, metrics). */
  heldBy(tokenId: number): number {
    return this.held.get(tokenId)?.length ?? 0;
  }

  /** Renews the leases of the slots held, removes the slot ids known dead, reads Redis' clock once. */
  async heartbeat(): Promise<void> {
    const { redis } = this.options;
    try {
      if (!this.clock) {
        const sentAt = Date.now();
        const [seconds, micros] = timeReply.parse(await redis.time());
        this.readClock(sentAt, seconds * 1000 + Math.floor(micros / 1000));
      }
      const tokens = [...this.held];
      for (let start = 0; start < tokens.length; start += RENEW_BATCH) {
        const batch = tokens.slice(start, start + RENEW_BATCH);
        const args = batch.flatMap(([, slots]) => [slots.length, ...slots]);
        await RENEW_SLOTS.run(redis, batch.map(([tokenId]) => this.keyOf(tokenId)), [this.leaseMs, ...args]);
      }
      for (const [tokenId, ids] of [...this.dead]) {
        const dead = [...ids];
        await redis.zrem(this.keyOf(tokenId), ...dead);
        this.forgetDead(tokenId, dead);
      }
    } catch (error) {
      this.troubleAt = Date.now();
      this.options.warn('heartbeat', error, 'concurrency slots not renewed (redis)');
    }
  }

  /** Stops renewing and gives back whatever this instance still holds, so it stops counting at once. */
  async close(): Promise<void> {
    clearInterval(this.heartbeatTimer);
    this.options.redis.off('ready', this.onReady);
    const { redis } = this.options;
    const leftover = new Map<number, string[]>(this.held);
    for (const [tokenId, ids] of this.dead) leftover.set(tokenId, [...(leftover.get(tokenId) ?? []), ...ids]);
    this.held.clear();
    await Promise.all([...leftover].map(([tokenId, ids]) => redis.zrem(this.keyOf(tokenId), ...ids).catch(() => undefined)));
  }

  private markDead(tokenId: number, slotId: string): void {
    if (this.deadCount >= MAX_DEAD) return;
    const ids = this.dead.get(tokenId);
    if (ids) ids.add(slotId);
    else this.dead.set(tokenId, new Set([slotId]));
    this.deadCount += 1;
  }

  private forgetDead(tokenId: number, removed: readonly string[]): void {
    const ids = this.dead.get(tokenId);
    if (!ids) return;
    for (const id of removed) if (ids.delete(id)) this.deadCount -= 1;
    if (ids.size === 0) this.dead.delete(tokenId);
  }

  private keyOf(tokenId: number): string {
    return `${this.options.keyPrefix}slot-leases:${tokenId}`;
  }
}
