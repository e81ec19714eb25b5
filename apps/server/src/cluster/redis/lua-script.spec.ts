import { randomBytes } from 'node:crypto';
import { LuaScript } from './lua-script';
import { describeWithRedis, plainClient } from '../../../test/cluster/redis/testing/redis-test-env';

describeWithRedis('LuaScript', (url) => {
  it('runs by SHA, and by its source once when Redis does not know it (NOSCRIPT)', async () => {
    // A source no Redis has seen: the first EVALSHA must be answered NOSCRIPT.
    const script = new LuaScript(`-- ${randomBytes(8).toString('hex')}\nreturn {KEYS[1], ARGV[1]}`);
    const redis = await plainClient(url);
    try {
      expect(await redis.script('EXISTS', script.sha)).toEqual([0]);
      expect(await script.run(redis, ['k'], ['v'])).toEqual(['k', 'v']);
      expect(await redis.script('EXISTS', script.sha)).toEqual([1]);
      expect(await script.run(redis, ['k2'], [2])).toEqual(['k2', '2']);
    } finally {
      await redis.quit();
    }
  });

  it("a script's own error reaches the caller", async () => {
    const script = new LuaScript(`return redis.error_reply('BROKEN ${randomBytes(4).toString('hex')}')`);
    const redis = await plainClient(url);
    try {
      await script.run(redis, [], []).catch(() => undefined); // loads it
      await expect(script.run(redis, [], [])).rejects.toThrow(/^BROKEN/);
    } finally {
      await redis.quit();
    }
  });
});
