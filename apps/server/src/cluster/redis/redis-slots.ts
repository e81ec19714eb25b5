import type Redis from 'ioredis';
import { limitsUnavailable, neverSent, type FailureMode } from './limits-unavailable';
import { ACQUIRE_SLOT, HEARTBEAT } from './slot-scripts';
import type { ThrottledWarn } from './throttled-log';

export interface RedisSlotsOptions {
  redis: Redis;
  keyPrefix: string;
  instanceId: string;
  failureMode: FailureMode;
  warn: ThrottledWarn;
  /** How long after its last heartbeat a silent instance's slots stop counting (default 30 s). */
  leaseMs?: number;
}

export const DEFAULT_SLOT_LEASE_MS = 30_000;
/** A token's slot set outlives any request; it goes when empty, or this long after its last acquire. */
const SLOT_KEY_TTL_MS = 24 * 3_600_000;
/** Instances silent this long leave the heartbeat set. */
const FORGET_INSTANCE_AFTER_MS = 24 * 3_600_000;
/** Slot ids whose acquire may have run but whose answer was lost, kept to be removed; at most. */
const MAX_ORPHANS = 10_000;

/**
 * Concurrency slots in Redis (see slot-scripts.ts), with this instance's bookkeeping: the slot ids
 * it holds per token, the requests it admitted without a slot (fail-open), and slot ids to remove
 * because their acquire timed out — it may have run, so it is undone by id, exactly.
 */
export class RedisSlots {
  private readonly held = new Map<number, string[]>();
  private readonly unbacked = new Map<number, number>();
  private readonly orphans = new Map<string, string>();
  private readonly leaseMs: number;
  private readonly heartbeatTimer: NodeJS.Timeout;
  private sequence = 0;

  constructor(private readonly options: RedisSlotsOptions) {
    this.leaseMs = options.leaseMs ?? DEFAULT_SLOT_LEASE_MS;
    this.heartbeatTimer = setInterval(() => void this.heartbeat(), Math.max(100, Math.floor(this.leaseMs / 3)));
    this.heartbeatTimer.unref();
  }

  async acquire(tokenId: number, limit: number): Promise<boolean> {
    if (limit <= 0) return false;
    const { redis, instanceId } = this.options;
    const key = this.keyOf(tokenId);
    const slotId = `${instanceId}/${++this.sequence}`;
    try {
      const taken = await ACQUIRE_SLOT.run(redis, [key, this.instancesKey], [limit, slotId, instanceId, this.leaseMs, SLOT_KEY_TTL_MS]);
      if (taken !== 1) return false;
      const slots = this.held.get(tokenId);
      if (slots) slots.push(slotId);
      else this.held.set(tokenId, [slotId]);
      return true;
    } catch (error) {
      if (!neverSent(error)) this.forget(key, slotId);
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
    const key = this.keyOf(tokenId);
    try {
      await this.options.redis.srem(key, slotId);
    } catch (error) {
      this.forget(key, slotId);
      this.options.warn('release', error, `concurrency slot of token ${tokenId} not given back yet (redis); retried`);
    }
  }

  /** Slots this instance holds in Redis for a token (tests, metrics). */
  heldBy(tokenId: number): number {
    return this.held.get(tokenId)?.length ?? 0;
  }

  /** Tells the others this instance is alive, and removes what earlier failures left behind. */
  async heartbeat(): Promise<void> {
    const { redis, instanceId } = this.options;
    try {
      await HEARTBEAT.run(redis, [this.instancesKey], [instanceId, FORGET_INSTANCE_AFTER_MS]);
      for (const [slotId, key] of this.orphans) {
        await redis.srem(key, slotId);
        this.orphans.delete(slotId);
      }
    } catch (error) {
      this.options.warn('heartbeat', error, 'concurrency slots heartbeat failed (redis)');
    }
  }

  /**
   * Stops the heartbeat and leaves the set of live instances, so whatever slots this instance
   * still holds stop counting at once instead of after the lease.
   */
  async close(): Promise<void> {
    clearInterval(this.heartbeatTimer);
    await this.options.redis.zrem(this.instancesKey, this.options.instanceId).catch(() => undefined);
  }

  private forget(key: string, slotId: string): void {
    if (this.orphans.size >= MAX_ORPHANS) return;
    this.orphans.set(slotId, key);
  }

  private keyOf(tokenId: number): string {
    return `${this.options.keyPrefix}slots:${tokenId}`;
  }

  private get instancesKey(): string {
    return `${this.options.keyPrefix}instances`;
  }
}
