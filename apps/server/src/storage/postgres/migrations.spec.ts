import pg from 'pg';
import { dropSchema, TEST_DATABASE_URL, TEST_SECRETS, uniqueSchemaName } from '../../../test/storage/testing/store-backends';
import { migratePostgres, postgresMigrations, type PostgresMigration } from './migrations';
import { openPostgresStorage } from './open-postgres';
import { createPgPool, quoteSchema } from './pg-pool';

/** Tables of the schema every version so far creates (later versions may add more). */
const TABLES = [
  'schema_migrations',
  'accounts',
  'tokens',
  'channels',
  'assistants',
  'prices',
  'quota_reservations',
  'usage_log',
  'stored_responses',
  'relay_instances',
  'usage_rollup',
  'tasks',
];
const VERSIONS = postgresMigrations.map((migration) => migration.version);

if (!TEST_DATABASE_URL) {
  process.stderr.write('PostgreSQL migration specs skipped: DATABASE_URL is not set (e.g. postgres://postgres@127.0.0.1:5432/test)\n');
}
const describePostgres = TEST_DATABASE_URL ? describe : describe.skip;

describePostgres('PostgreSQL migrations', () => {
  const url = TEST_DATABASE_URL ?? '';
  let schema: string;
  let pool: pg.Pool;
  /** Outside the schema: looks at it by name, as an operator would. */
  let client: pg.Client;

  beforeEach(async () => {
    schema = uniqueSchemaName('mig');
    pool = createPgPool({ url, schema, maxConnections: 2 });
    client = new pg.Client({ connectionString: url });
    await client.connect();
  });
  afterEach(async () => {
    await pool.end();
    await client.end();
    await dropSchema(url, schema);
  });

  const applied = async (): Promise<number[]> =>
    (await client.query<{ version: number }>(`SELECT version FROM ${quoteSchema(schema)}.schema_migrations ORDER BY version`)).rows.map(
      (row) => row.version,
    );
  const tablesIn = async (namespace: string, names: readonly string[]): Promise<string[]> =>
    (
      await client.query<{ table_name: string }>(
        'SELECT table_name FROM information_schema.tables WHERE table_schema = $1 AND table_name = ANY($2::text[]) ORDER BY table_name',
        [namespace, names],
      )
    ).rows.map((row) => row.table_name);

  it('gives a new schema every version once, its tables in that schema and none in public', async () => {
    const inPublicBefore = await tablesIn('public', TABLES);
    expect(await migratePostgres(pool, schema)).toEqual(VERSIONS);
    expect(await applied()).toEqual(VERSIONS);
    expect(await tablesIn(schema, TABLES)).toEqual([...TABLES].sort());
    expect(await tablesIn('public', TABLES)).toEqual(inPublicBefore);
  });

  it('applies nothing the second time', async () => {
    await migratePostgres(pool, schema);
    expect(await migratePostgres(pool, schema)).toEqual([]);
    expect(await applied()).toEqual(VERSIONS);
  });

  it('lets four instances start on one new schema at once: each works, each version applied once', async () => {
    const storages = await Promise.all(
      Array.from({ length: 4 }, (_, index) => openPostgresStorage({ url, schema, maxConnections: 2 }, { instanceId: `instance-${index}`, secrets: TEST_SECRETS })),
    );
    try {
      for (const storage of storages) {
        await storage.ping();
        expect((await storage.prices.list()).length).toBeGreaterThan(0);
      }
      expect(await applied()).toEqual(VERSIONS);
      // One seeded price table, not four.
      const seeded = await client.query<{ n: number }>(`SELECT COUNT(*)::int AS n FROM ${quoteSchema(schema)}.prices WHERE model = 'gpt-4o*'`);
      expect(seeded.rows[0]?.n).toBe(1);
    } finally {
      await Promise.all(storages.map((storage) => storage.close()));
    }
  });

  it('rolls a failing migration back whole, names its version, keeps the ones before, and runs again once fixed', async () => {
    const good = (version: number): PostgresMigration => ({ version, name: `good ${version}`, sql: `CREATE TABLE made_by_${version} (id integer)` });
    const broken: PostgresMigration = {
      version: 1002,
      name: 'broken on purpose',
      sql: 'CREATE TABLE half_done (id integer); SELECT * FROM no_such_table',
    };
    await expect(migratePostgres(pool, schema, [...postgresMigrations, good(1001), broken, good(1003)])).rejects.toThrow(
      /PostgreSQL migration 1002 \(broken on purpose\) failed: .*no_such_table/,
    );
    expect(await applied()).toEqual([...VERSIONS, 1001]);
    expect(await tablesIn(schema, ['made_by_1001', 'half_done', 'made_by_1003'])).toEqual(['made_by_1001']);

    // The lock was given back: the next run goes through.
    expect(await migratePostgres(pool, schema, [...postgresMigrations, good(1001), good(1002), good(1003)])).toEqual([1002, 1003]);
    expect(await applied()).toEqual([...VERSIONS, 1001, 1002, 1003]);
  });
});
