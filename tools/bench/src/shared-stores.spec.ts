import Redis from 'ioredis';
import pg from 'pg';
import {
  checkSharedStores,
  newSharedStoreSpace,
  redactUrl,
  removeSharedStoreSpace,
  sharedRelayEnv,
  sharedStoreUrls,
  type SharedStoreUrls,
} from './shared-stores';

describe('sharedStoreUrls', () => {
  it('takes BENCH_DATABASE_URL / BENCH_REDIS_URL first, else DATABASE_URL / REDIS_URL', () => {
    expect(sharedStoreUrls({ DATABASE_URL: 'postgres://ci@db/test', REDIS_URL: 'redis://cache:6379' })).toEqual({
      databaseUrl: 'postgres://ci@db/test',
      redisUrl: 'redis://cache:6379',
    });
    expect(
      sharedStoreUrls({
        DATABASE_URL: 'postgres://ci@db/test',
        BENCH_DATABASE_URL: 'postgresql://bench@db2/bench',
        REDIS_URL: 'redis://cache:6379',
        BENCH_REDIS_URL: ' rediss://cache2:6380 ',
      }),
    ).toEqual({ databaseUrl: 'postgresql://bench@db2/bench', redisUrl: 'rediss://cache2:6380' });
    // A blank override is no override.
    expect(sharedStoreUrls({ BENCH_DATABASE_URL: '', DATABASE_URL: 'postgres://ci@db/test', REDIS_URL: 'redis://cache' }).databaseUrl).toBe('postgres://ci@db/test');
  });

  it('refuses to start without both, naming what is missing, and a URL of the wrong kind without repeating it', () => {
    expect(() => sharedStoreUrls({})).toThrow(
      '--shared-stores: no PostgreSQL: set BENCH_DATABASE_URL or DATABASE_URL (e.g. postgres://postgres@127.0.0.1:5432/test); ' +
        'no Redis: set BENCH_REDIS_URL or REDIS_URL (e.g. redis://127.0.0.1:6379)',
    );
    expect(() => sharedStoreUrls({ DATABASE_URL: 'postgres://db/x' })).toThrow(/^--shared-stores: no Redis/);
    let message = '';
    try {
      sharedStoreUrls({ DATABASE_URL: 'mysql://root:hunter2@db/x', REDIS_URL: 'redis://cache' });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toBe('--shared-stores: BENCH_DATABASE_URL / DATABASE_URL must be a postgres:// URL');
  });
});

describe("the shared relay's corner of the stores", () => {
  it('is a schema and key prefix of its own per run, which the relay accepts', () => {
    const one = newSharedStoreSpace();
    const other = newSharedStoreSpace();
    expect(one.schema).not.toBe(other.schema);
    expect(one.keyPrefix).not.toBe(other.keyPrefix);
    // DATABASE_SCHEMA and REDIS_KEY_PREFIX as the relay's config checks them.
    expect(one.schema).toMatch(/^[a-z_][a-z0-9_]{0,62}$/);
    expect(one.keyPrefix.length).toBeLessThanOrEqual(100);
    const urls: SharedStoreUrls = { databaseUrl: 'postgres://db/x', redisUrl: 'redis://cache' };
    expect(sharedRelayEnv(urls, one)).toEqual({
      DATABASE_URL: 'postgres://db/x',
      DATABASE_SCHEMA: one.schema,
      REDIS_URL: 'redis://cache',
      REDIS_KEY_PREFIX: one.keyPrefix,
    });
  });

  it('prints URLs without their password', () => {
    expect(redactUrl('postgres://bench:s3cret@db:5432/x')).toBe('postgres://bench:***@db:5432/x');
    expect(redactUrl('redis://:s3cret@cache:6379')).toBe('redis://:***@cache:6379');
  });
});

const databaseUrl = process.env['DATABASE_URL']?.trim();
const redisUrl = process.env['REDIS_URL']?.trim();
if (!databaseUrl || !redisUrl) {
  process.stderr.write('bench shared-store specs on PostgreSQL and Redis skipped: DATABASE_URL and REDIS_URL are not both set\n');
}
const describeStores = databaseUrl && redisUrl ? describe : describe.skip;

describeStores('shared stores on a real PostgreSQL and Redis', () => {
  const urls: SharedStoreUrls = { databaseUrl: databaseUrl ?? '', redisUrl: redisUrl ?? '' };
  jest.setTimeout(30_000);

  it('checks both answer, and says which does not without its password', async () => {
    await expect(checkSharedStores(urls)).resolves.toBeUndefined();
    const closedPg = checkSharedStores({ ...urls, databaseUrl: 'postgres://bench:pg-secret@127.0.0.1:1/x' });
    await expect(closedPg).rejects.toThrow('--shared-stores: PostgreSQL at postgres://bench:***@127.0.0.1:1/x does not answer');
    await expect(closedPg).rejects.not.toThrow('pg-secret');
    const closedRedis = checkSharedStores({ ...urls, redisUrl: 'redis://:redis-secret@127.0.0.1:1' });
    await expect(closedRedis).rejects.toThrow('--shared-stores: Redis at redis://:***@127.0.0.1:1 does not answer: connect ECONNREFUSED');
    await expect(closedRedis).rejects.not.toThrow('redis-secret');
  });

  it('removes the run’s schema and its keys, and nothing else', async () => {
    const space = newSharedStoreSpace();
    const neighbour = newSharedStoreSpace();
    const client = new pg.Client({ connectionString: urls.databaseUrl });
    const redis = new Redis(urls.redisUrl);
    await client.connect();
    try {
      await client.query(`CREATE SCHEMA "${space.schema}"`);
      await client.query(`CREATE TABLE "${space.schema}".usage_log (id integer)`);
      await client.query(`INSERT INTO "${space.schema}".usage_log VALUES (1), (2)`);
      const pipeline = redis.pipeline();
      for (let i = 0; i < 1_200; i++) pipeline.set(`${space.keyPrefix}rl:${i}`, '1', 'EX', 120);
      await pipeline.exec();
      await redis.set(`${neighbour.keyPrefix}rl:0`, 'kept', 'EX', 120);

      expect(await removeSharedStoreSpace(urls, space)).toEqual({ usageRows: 2, redisKeys: 1_200 });
      expect((await client.query('SELECT 1 FROM pg_namespace WHERE nspname = $1', [space.schema])).rowCount).toBe(0);
      expect(await redis.keys(`${space.keyPrefix}*`)).toEqual([]);
      expect(await redis.get(`${neighbour.keyPrefix}rl:0`)).toBe('kept');
      // Nothing there (a relay that never started): nothing to remove, no failure.
      expect(await removeSharedStoreSpace(urls, newSharedStoreSpace())).toEqual({ usageRows: undefined, redisKeys: 0 });
    } finally {
      await redis.del(`${neighbour.keyPrefix}rl:0`);
      await client.query(`DROP SCHEMA IF EXISTS "${space.schema}" CASCADE`);
      await client.end();
      redis.disconnect();
    }
  });
});
