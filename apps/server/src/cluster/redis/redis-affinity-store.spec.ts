import type Redis from 'ioredis';
import { RedisAffinityStore } from './redis-affinity-store';
import { describeAffinityStore } from '../../../test/cluster/affinity-store.suite';
import { collectingLogger, deleteKeys, describeWithRedis, plainClient, uniqueKeyPrefix } from '../../../test/cluster/redis/testing/redis-test-env';

describeWithRedis('RedisAffinityStore', (url) => {
  const prefix = uniqueKeyPrefix();
  let redis: Redis;
  beforeAll(async () => {
    redis = await plainClient(url);
  });
  afterAll(async () => {
    await redis.quit();
    await deleteKeys(url, prefix);
  });

  let run = 0;
  describeAffinityStore(async () => new RedisAffinityStore({ redis, keyPrefix: `${prefix}${(run += 1)}:`, logger: collectingLogger().logger }));

  it('keeps the key digest, never a key, with Redis expiring the entry; a malformed value is not known', async () => {
    const keyPrefix = `${prefix}shape:`;
    const store = new RedisAffinityStore({ redis, keyPrefix, logger: collectingLogger().logger });
    await store.set('s', { channelId: 7, keyDigest: 'f'.repeat(64) }, 60_000);
    expect(JSON.parse((await redis.get(`${keyPrefix}affinity:s`)) ?? '')).toEqual({ channel_id: 7, key_digest: 'f'.repeat(64) });
    expect(await redis.pttl(`${keyPrefix}affinity:s`)).toBeGreaterThan(59_000);
    await redis.set(`${keyPrefix}affinity:s`, '{"channel_id":"7"}');
    expect(await store.get('s')).toBeUndefined();
  });

  it('answers "not known" and drops writes when Redis is away, with one warning', async () => {
    const gone = await plainClient(url);
    await gone.quit();
    const { logger, lines } = collectingLogger();
    const store = new RedisAffinityStore({ redis: gone, keyPrefix: `${prefix}gone:`, logger });
    await expect(store.set('s', { channelId: 1, keyDigest: 'a'.repeat(64) }, 1_000)).resolves.toBeUndefined();
    await expect(store.get('s')).resolves.toBeUndefined();
    expect(lines.filter((line) => line.includes('session affinity')).length).toBeGreaterThanOrEqual(1);
  });
});
