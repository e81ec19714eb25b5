import type Redis from 'ioredis';
import { z } from 'zod';
import type { Logger } from '../../logger';
import type { AffinityPin, AffinityStore } from '../affinity-store';
import { parseMessage } from './parse-message';
import { throttledWarn, type ThrottledWarn } from '../../core/throttled-log';

export interface RedisAffinityStoreOptions {
  redis: Redis;
  keyPrefix: string;
  logger: Logger;
}

/** What one key `${prefix}affinity:${session}` holds (snake_case, as everything the relay writes out). */
const storedPin = z.object({ channel_id: z.number().int().positive(), key_digest: z.string().regex(/^[0-9a-f]{64}$/) });

/**
 * Affinity shared by the instances: one string key per session with Redis' own expiry (SET PX).
 * Never throws: with Redis away a session is not known (routing draws as usual) and writes are
 * dropped, with a throttled warning.
 */
export class RedisAffinityStore implements AffinityStore {
  private readonly prefix: string;
  private readonly warn: ThrottledWarn;

  constructor(private readonly options: RedisAffinityStoreOptions) {
    this.prefix = `${options.keyPrefix}affinity:`;
    this.warn = throttledWarn(options.logger);
  }

  async get(session: string): Promise<AffinityPin | undefined> {
    let text: string | null;
    try {
      text = await this.options.redis.get(this.prefix + session);
    } catch (error) {
      this.warn('read', error, 'session affinity not read (redis); routing draws a channel');
      return undefined;
    }
    if (text === null) return undefined;
    const stored = parseMessage(storedPin, text);
    return stored && { channelId: stored.channel_id, keyDigest: stored.key_digest };
  }

  async set(session: string, pin: AffinityPin, ttlMs: number): Promise<void> {
    const text = JSON.stringify({ channel_id: pin.channelId, key_digest: pin.keyDigest });
    try {
      await this.options.redis.set(this.prefix + session, text, 'PX', Math.max(1, Math.round(ttlMs)));
    } catch (error) {
      this.warn('write', error, 'session affinity not shared (redis); this instance only');
    }
  }

  async delete(session: string): Promise<void> {
    try {
      await this.options.redis.del(this.prefix + session);
    } catch (error) {
      this.warn('write', error, 'session affinity not shared (redis); this instance only');
    }
  }
}
