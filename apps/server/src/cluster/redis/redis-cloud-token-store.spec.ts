import type Redis from 'ioredis';
import type { CloudKey } from '@chat-relay/wire';
import { AccessTokens } from '../../channels/cloud/access-tokens';
import { RedisCloudTokenStore } from './redis-cloud-token-store';
import { collectingLogger, deleteKeys, describeWithRedis, plainClient, uniqueKeyPrefix } from '../../../test/cluster/redis/testing/redis-test-env';

const ACCOUNT: CloudKey = { kind: 'azure-entra', tenantId: 't', clientId: 'c', clientSecret: 's', authorityHost: 'http://unused' };

describeWithRedis('RedisCloudTokenStore', (url) => {
  const prefix = uniqueKeyPrefix();
  const clients: Redis[] = [];
  const client = async () => {
    const redis = await plainClient(url);
    clients.push(redis);
    return redis;
  };
  afterAll(async () => {
    await Promise.all(clients.map((redis) => redis.quit().catch(() => undefined)));
    await deleteKeys(url, prefix);
  });

  it('lets four instances (four connections) share one minted token, sealed in Redis with its expiry', async () => {
    let mints = 0;
    const mint = async () => {
      mints += 1;
      await new Promise((resolve) => setTimeout(resolve, 50));
      return { token: `token-${mints}`, expiresAt: Date.now() + 3_600_000 };
    };
    const keyPrefix = `${prefix}share:`;
    const instances = await Promise.all([0, 1, 2, 3].map(async () => new AccessTokens({ mint, shared: new RedisCloudTokenStore({ redis: await client(), keyPrefix, logger: collectingLogger().logger }) })));
    const got = await Promise.all(instances.map((tokens) => tokens.tokenFor('{"tenant_id":"t"}', ACCOUNT)));
    expect(got).toEqual(['token-1', 'token-1', 'token-1', 'token-1']);
    expect(mints).toBe(1);
    const redis = await client();
    const keys = (await redis.keys(`${keyPrefix}cloud-token:*`)).filter((key) => !key.endsWith(':lease'));
    expect(keys).toHaveLength(1);
    const stored = (await redis.get(keys[0] ?? '')) ?? '';
    expect(stored).not.toContain('token-1');
    // Kept until five minutes before the token expires.
    expect(await redis.pttl(keys[0] ?? '')).toBeGreaterThan(3_200_000);
    expect(await redis.pttl(keys[0] ?? '')).toBeLessThanOrEqual(3_300_000);
  });

  it('with Redis away, each instance mints its own and the request goes on, with a warning', async () => {
    const gone = await plainClient(url);
    await gone.quit();
    const { logger, lines } = collectingLogger();
    const tokens = new AccessTokens({ mint: async () => ({ token: 'own', expiresAt: Date.now() + 3_600_000 }), shared: new RedisCloudTokenStore({ redis: gone, keyPrefix: `${prefix}gone:`, logger }) });
    expect(await tokens.tokenFor('k', ACCOUNT)).toBe('own');
    expect(lines.some((line) => line.includes('cloud token'))).toBe(true);
  });
});
