import type Redis from 'ioredis';
import { limitsUnavailable, neverSent, type FailureMode } from './limits-unavailable';
import { ACQUIRE_SLOT, RENEW_SLOTS } from './slot-scripts';
import type { ThrottledWarn } from './throttled-log';

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
 * Concurrency slots in Redis (see slot-scripts.ts), with this instance's bookkeeping: the slot ids
 * it holds per token (renewed every third of a lease), the requests it admitted without a slot
 * (fail-open), and slot ids that may be in Redis without a request — an acquire that timed out
 * (it may have run) or a release that failed. Those are removed by id, exactly, by the token's
 * next acquire in the same script, or as soon as Redis is back: a blip holds no caller out.
 */
export class RedisSlots {
  private readonly held = new Map<number, string[]>();
  private readonly unbacked = new Map<number, number>();
  private readonly dead = new Map<number, Set<string>>();
  private deadCount = 0;
  private readonly leaseMs: number;
  private readonly heartbeatTimer: NodeJS.Timeout;
  private readonly onReady = () => void this.heartbeat();
  private sequence = 0;

  constructor(private readonly options: RedisSlotsOptions) {
    this.leaseMs = options.leaseMs ?? DEFAULT_SLOT_LEASE_MS;
    this.heartbeatTimer = setInterval(() => void this.heartbeat(), Math.max(100, Math.floor(this.leaseMs / 3)));
    this.heartbeatTimer.unref();
    options.redis.on('ready', this.onReady);
  }

  /**
   * Takes a slot of `tokenId` if fewer than `limit` are held. At the limit it looks again twice
   * (after 10 ms, then 40 ms) before refusing: a caller sends its next request the moment it has
   * read an answer, and that answer's slot — given back by another instance as the answer ended —
   * may reach Redis a moment after the new request does. A caller truly over its limit waits
   * those 50 ms for its 429.
   */
  async acquire(tokenId: number, limit: number): Promise<boolean> {
    if (limit <= 0) return false;
    for (const wait of FULL_LOOKS_AGAIN_AFTER_MS) {
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      const taken = await this.tryAcquire(tokenId, limit);
      if (taken) return true;
    }
    return false;
  }

  private async tryAcquire(tokenId: number, limit: number): Promise<boolean> {
    const key = this.keyOf(tokenId);
    const slotId = `${this.options.instanceId}/${++this.sequence}`;
    const dead = [...(this.dead.get(tokenId) ?? [])];
    try {
      const taken = await ACQUIRE_SLOT.run(this.options.redis, [key], [limit, slotId, this.leaseMs, SLOT_KEY_TTL_MS, ...dead]);
      this.forgetDead(tokenId, dead);
      if (taken !== 1) return false;
      const slots = this.held.get(tokenId);
      if (slots) slots.push(slotId);
      else this.held.set(tokenId, [slotId]);
      return true;
    } catch (error) {
      if (!neverSent(error)) this.markDead(tokenId, slotId);
      this.options.warn('acquire', error, `concurrency slot of token ${tokenId} not checked (redis); failure mode ${this.options.failureMode}`);
      if (this.options.failureMode === 'closed') throw limitsUnavailable();
      this.unbacked.set(tokenId, (this.unbacked.get(tokenId) ?? 0) + 1);
      return true;
    }
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
      this.markDead(tokenId, slotId);
      this.options.warn('release', error, `concurrency slot of token ${tokenId} not given back yet (redis); removed once Redis answers`);
    }
  }

  /** Slots this instance holds in Redis for a token (tests, metrics). */
  heldBy(tokenId: number): number {
    return this.held.get(tokenId)?.length ?? 0;
  }

  /** Renews the leases of the slots held, and removes the slot ids known dead. */
  async heartbeat(): Promise<void> {
    const { redis } = this.options;
    try {
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
