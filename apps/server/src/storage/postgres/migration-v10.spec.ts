import pg from 'pg';
import { dropSchema, TEST_DATABASE_URL, TEST_SECRETS, uniqueSchemaName } from '../../../test/storage/testing/store-backends';
import { migratePostgres, postgresMigrations } from './migrations';
import { openPostgresStorage } from './open-postgres';
import { createPgPool } from './pg-pool';

if (!TEST_DATABASE_URL) {
  process.stderr.write('PostgreSQL migration v10 spec skipped: DATABASE_URL is not set (e.g. postgres://postgres@127.0.0.1:5432/test)\n');
}
const describePostgres = TEST_DATABASE_URL ? describe : describe.skip;

describePostgres('PostgreSQL migration 10: periodic limits, the windows they count in', () => {
  const url = TEST_DATABASE_URL ?? '';
  const schema = uniqueSchemaName('mig10');
  let pool: pg.Pool;
  afterAll(async () => {
    await pool.end();
    await dropSchema(url, schema);
  });

  it('keeps the rows of version 9, a reservation pending included, and reserves through the new relay_reserve', async () => {
    pool = createPgPool({ url, schema, maxConnections: 2 });
    expect(await migratePostgres(pool, schema, postgresMigrations.filter((step) => step.version <= 9))).toContain(9);
    const now = '2026-01-01T00:00:00.000Z';
    await pool.query("INSERT INTO accounts (id, name, role, quota_limit, quota_used, created_at) VALUES (1, 'team', 'user', 5000, 700, $1)", [now]);
    await pool.query(
      `INSERT INTO tokens (id, account_id, name, key_digest, key_hint, quota_limit, quota_used, models, created_at)
       VALUES (1, 1, 'alice', 'digest-alice', 'sk-…alic', 1000, 700, '["gpt-4o"]', $1)`,
      [now],
    );
    await pool.query(
      "INSERT INTO quota_reservations (request_id, token_id, account_id, amount, created_at, instance_id) VALUES ('pending', 1, 1, 200, $1, 'gone')",
      [now],
    );
    expect(await migratePostgres(pool, schema)).toContain(10);

    const storage = await openPostgresStorage({ url, schema, maxConnections: 2 }, { instanceId: 'here', secrets: TEST_SECRETS });
    try {
      expect(await storage.tokens.findByKeyDigest('digest-alice')).toMatchObject({
        quotaUsed: 700,
        models: ['gpt-4o'],
        periodicLimits: [],
        timeZone: null,
        alertThresholds: null,
        account: { status: 'active', quotaLimit: 5000, periodicLimits: [], timeZone: null },
      });
      // The reservation from before counted in no window: given back to the lifetime quota alone.
      expect(await storage.quota.releaseOrphaned('2027-01-01T00:00:00.000Z')).toEqual({ count: 1, amount: 200 });
      expect(await storage.tokens.get(1)).toMatchObject({ quotaUsed: 500 });
      const window = { owner: 'token', ownerId: 1, period: 'day', start: '2026-03-01', limits: { cost: null, requests: 1, tokens: null } } as const;
      expect(await storage.quota.reserve({ requestId: 'new', tokenId: 1, accountId: 1, amount: 10, windows: [window], tokens: 5 })).toEqual({ ok: true });
      expect(await storage.quota.reserve({ requestId: 'over', tokenId: 1, accountId: 1, amount: 10, windows: [window] })).toEqual({
        ok: false,
        exhausted: 'window',
        window,
        metric: 'requests',
        used: 1,
      });
      // The old six-argument function is gone: one relay_reserve, no overload to pick wrongly.
      const { rows } = await pool.query<{ n: string }>("SELECT COUNT(*) AS n FROM pg_proc p JOIN pg_namespace s ON s.oid = p.pronamespace WHERE proname = 'relay_reserve' AND nspname = $1", [schema]);
      expect(Number(rows[0]?.n)).toBe(1);
    } finally {
      await storage.close();
    }
  });
});
