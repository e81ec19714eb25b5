import { createHash } from 'node:crypto';
import type Redis from 'ioredis';

/**
 * A Lua script run by its SHA1 (EVALSHA: the source is not sent each time), and by its source
 * (EVAL) when Redis answers NOSCRIPT — after a restart or SCRIPT FLUSH; the EVAL caches it again.
 */
export class LuaScript {
  readonly sha: string;

  constructor(readonly source: string) {
    this.sha = createHash('sha1').update(source).digest('hex');
  }

  async run(redis: Redis, keys: readonly string[], args: ReadonlyArray<string | number>): Promise<unknown> {
    try {
      return await redis.evalsha(this.sha, keys.length, ...keys, ...args);
    } catch (error) {
      if (!(error instanceof Error && error.message.startsWith('NOSCRIPT'))) throw error;
      return redis.eval(this.source, keys.length, ...keys, ...args);
    }
  }
}
