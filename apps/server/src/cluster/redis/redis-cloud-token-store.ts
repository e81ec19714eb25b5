import type Redis from 'ioredis';
import type { Logger } from '../../logger';
import { throttledWarn, type ThrottledWarn } from '../../core/throttled-log';
import type { CloudTokenStore } from '../cloud-token-store';

/** Sealed access tokens in Redis: `${prefix}cloud-token:${id}` with Redis' own expiry, and a minting lease beside it. */
export class RedisCloudTokenStore implements CloudTokenStore {
  private readonly prefix: string;
  private readonly warn: ThrottledWarn;

  constructor(private readonly options: { redis: Redis; keyPrefix: string; logger: Logger }) {
    this.prefix = `${options.keyPrefix}cloud-token:`;
    this.warn = throttledWarn(options.logger);
  }

  async read(id: string): Promise<string | undefined> {
    try {
      return (await this.options.redis.get(this.prefix + id)) ?? undefined;
    } catch (error) {
      this.warn('read', error, 'shared cloud token not read (redis); this instance mints its own');
      return undefined;
    }
  }

  async claim(id: string, leaseMs: number): Promise<boolean> {
    try {
      return (await this.options.redis.set(`${this.prefix}${id}:lease`, '1', 'PX', Math.max(1, Math.round(leaseMs)), 'NX')) === 'OK';
    } catch (error) {
      this.warn('claim', error, 'cloud token lease not taken (redis); this instance mints its own');
      return true;
    }
  }

  async write(id: string, sealed: string, ttlMs: number): Promise<void> {
    try {
      await this.options.redis.multi().set(this.prefix + id, sealed, 'PX', Math.max(1, Math.round(ttlMs))).del(`${this.prefix}${id}:lease`).exec();
    } catch (error) {
      this.warn('write', error, 'cloud token not shared (redis); other instances mint their own');
    }
  }
}
