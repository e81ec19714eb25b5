import type Redis from 'ioredis';
import { z } from 'zod';
import type { Logger } from '../../logger';
import type { CircuitSync } from '../circuit-sync';
import type { RedisSubscriber } from './redis-subscriber';
import { untilReady } from './redis-connection';
import { parseMessage } from './parse-message';
import { describeError, throttledWarn, type ThrottledWarn } from '../../core/throttled-log';

export interface RedisCircuitSyncOptions {
  redis: Redis;
  subscriber: RedisSubscriber;
  keyPrefix: string;
  instanceId: string;
  logger: Logger;
  clock?: () => number;
}

/** What goes over the `${prefix}circuits` channel. */
const circuitMessage = z.object({
  origin: z.string(),
  channel_id: z.number().int(),
  open_until: z.number().nullable(),
});

/**
 * How long a replay after a resubscription waits for the commands connection: the subscriber's
 * connection can be back first (each has its own backoff), and a read then would fail at once.
 */
const REPLAY_WAIT_MS = 30_000;

/** A circuit's entry stays this long after it would have let its trial through, then is dropped. */
const FORGET_AFTER_MS = 3_600_000;

/**
 * Circuits shared through Redis: the hash `${prefix}circuits` holds channel id → openUntil of
 * every open circuit (for start-up and refresh), and each announcement is also published on the
 * channel `${prefix}circuits` so the other instances apply it at once. Both go in one MULTI.
 * Never throws to the caller: with Redis away, circuits are this instance's own until it is back.
 */
export class RedisCircuitSync implements CircuitSync {
  private readonly listeners: Array<(channelId: number, openUntil: number | null) => void> = [];
  private readonly key: string;
  private readonly warn: ThrottledWarn;
  private readonly clock: () => number;

  constructor(private readonly options: RedisCircuitSyncOptions) {
    this.key = `${options.keyPrefix}circuits`;
    this.warn = throttledWarn(options.logger);
    this.clock = options.clock ?? Date.now;
    options.subscriber.handle(this.key, (message) => this.receive(message));
    // Announcements made while disconnected were lost: take in what is open now.
    options.subscriber.onResubscribed(() => void this.replayOpen());
  }

  announce(channelId: number, openUntil: number | null): void {
    const message = JSON.stringify({ origin: this.options.instanceId, channel_id: channelId, open_until: openUntil });
    const multi = this.options.redis.multi();
    if (openUntil === null) multi.hdel(this.key, String(channelId));
    else multi.hset(this.key, String(channelId), String(openUntil));
    multi.publish(this.key, message);
    multi.exec().catch((error: unknown) => {
      this.warn('announce', error, `circuit of channel ${channelId} not shared (redis); this instance only`);
    });
  }

  onRemote(listener: (channelId: number, openUntil: number | null) => void): void {
    this.listeners.push(listener);
  }

  async openCircuits(): Promise<Map<number, number>> {
    const open = new Map<number, number>();
    let entries: Record<string, string>;
    try {
      entries = await this.options.redis.hgetall(this.key);
    } catch (error) {
      this.warn('read', error, 'open circuits not read (redis); this instance only');
      return open;
    }
    const now = this.clock();
    const stale: string[] = [];
    for (const [field, value] of Object.entries(entries)) {
      const channelId = Number(field);
      const openUntil = Number(value);
      if (!Number.isSafeInteger(channelId) || !Number.isFinite(openUntil) || openUntil < now - FORGET_AFTER_MS) stale.push(field);
      else if (openUntil > now) open.set(channelId, openUntil);
    }
    if (stale.length > 0) this.options.redis.hdel(this.key, ...stale).catch(() => undefined);
    return open;
  }

  private receive(text: string): void {
    const message = parseMessage(circuitMessage, text);
    if (!message) {
      this.warn('message', text.slice(0, 200), 'circuit message not understood; ignored');
      return;
    }
    const { origin, channel_id: channelId, open_until: openUntil } = message;
    if (origin === this.options.instanceId) return;
    this.notify(channelId, openUntil);
  }

  private async replayOpen(): Promise<void> {
    if (!(await untilReady(this.options.redis, REPLAY_WAIT_MS))) {
      // Closed on purpose (shutdown) is not worth a warning; still away after the wait is.
      if (this.options.redis.status === 'end') return;
      this.warn('read', 'commands connection not back', 'open circuits not read after the subscriber came back (redis); this instance only');
      return;
    }
    for (const [channelId, openUntil] of await this.openCircuits()) this.notify(channelId, openUntil);
  }

  private notify(channelId: number, openUntil: number | null): void {
    for (const listener of this.listeners) {
      try {
        listener(channelId, openUntil);
      } catch (error) {
        this.options.logger.error({ error: describeError(error) }, 'circuit listener failed');
      }
    }
  }
}
