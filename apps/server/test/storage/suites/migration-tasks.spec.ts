import { FREE_SEEDED_MODELS } from '../../../src/storage/sqlite/migrations-money';
import Database from 'better-sqlite3';
import type pg from 'pg';
import { migratePostgres, postgresMigrations } from '../../../src/storage/postgres/migrations';
import { createPgPool } from '../../../src/storage/postgres/pg-pool';
import { PgPriceStore } from '../../../src/storage/postgres/pg-price-store';
import { PgQuotaStore } from '../../../src/storage/postgres/pg-quota-store';
import { PgTaskStore } from '../../../src/storage/postgres/pg-task-store';
import { migrate, migrations } from '../../../src/storage/sqlite/migrations';
import { SqlitePriceStore } from '../../../src/storage/sqlite/sqlite-price-store';
import { SqliteQuotaStore } from '../../../src/storage/sqlite/sqlite-quota-store';
import { SqliteTaskStore } from '../../../src/storage/sqlite/sqlite-task-store';
import { dropSchema, storeBackends, TEST_DATABASE_URL, uniqueSchemaName } from '../testing/store-backends';
import type { PriceStore, QuotaStore, TaskStore } from '../../../src/storage/types';
import { newTask, settlementOf } from './task-sample';

// Each test opens its own database (on PostgreSQL a schema, migrated): seconds when the machine is busy.
jest.setTimeout(30_000);

/** A database as the version before the task prices and tasks left it, then migrated. */
interface Migrated {
  prices: PriceStore;
  quota: QuotaStore;
  tasks: TaskStore;
  run(sql: string, params?: unknown[]): Promise<void>;
  count(table: string): Promise<number>;
  close(): Promise<void>;
}

const THEN = '2026-01-01T00:00:00.000Z';

/** An account and a token with 25 held by a request in flight, and a price the admin set. */
const SEED: Array<[string, unknown[]]> = [
  ["INSERT INTO accounts (id, name, role, quota_used, created_at) VALUES (1, 'a', 'user', 25, ?)", [THEN]],
  ["INSERT INTO tokens (id, account_id, name, key_digest, key_hint, quota_used, created_at) VALUES (1, 1, 't', 'd', 'h', 25, ?)", [THEN]],
  ["INSERT INTO quota_reservations (request_id, token_id, account_id, amount, created_at, instance_id) VALUES ('before', 1, 1, 25, ?, 'gone')", [THEN]],
  ['DELETE FROM prices', []],
  ["INSERT INTO prices (position, model, input, output, image) VALUES (1, 'house-*', 7, 9, 11)", []],
];

async function sqliteFromVersion9(): Promise<Migrated> {
  const db = new Database(':memory:');
  db.pragma('foreign_keys = ON');
  db.exec('CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT, applied_at TEXT)');
  for (const migration of migrations.filter((step) => step.version <= 9)) {
    db.exec(migration.sql);
    db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)').run(migration.version, migration.name, 'then');
  }
  for (const [sql, params] of SEED) db.prepare(sql).run(...params);
  // 10 and 11, and every later one.
  expect(migrate(db)).toEqual(migrations.filter((migration) => migration.version >= 10).map((migration) => migration.version));
  return {
    prices: new SqlitePriceStore(db),
    quota: new SqliteQuotaStore(db, 'after-upgrade'),
    tasks: new SqliteTaskStore(db, 'after-upgrade'),
    run: async (sql, params = []) => {
      db.prepare(sql).run(...params);
    },
    count: async (table) => (db.prepare(`SELECT COUNT(*) AS n FROM ${table}`).get() as { n: number }).n,
    close: async () => {
      db.close();
    },
  };
}

async function postgresFromVersion2(url: string): Promise<Migrated> {
  const schema = uniqueSchemaName('mig');
  const pool: pg.Pool = createPgPool({ url, schema, maxConnections: 2 });
  const close = async () => {
    await pool.end();
    await dropSchema(url, schema);
  };
  const numbered = (sql: string) => {
    let n = 0;
    return sql.replace(/\?/g, () => `$${++n}`);
  };
  try {
    expect(await migratePostgres(pool, schema, postgresMigrations.slice(0, 2))).toEqual([1, 2]);
    for (const [sql, params] of SEED) await pool.query(numbered(sql), params);
    expect(await migratePostgres(pool, schema)).toEqual(postgresMigrations.slice(2).map((migration) => migration.version));
    return {
      prices: new PgPriceStore(pool),
      quota: new PgQuotaStore(pool, 'after-upgrade'),
      tasks: new PgTaskStore(pool, 'after-upgrade'),
      run: async (sql, params = []) => {
        await pool.query(numbered(sql), params);
      },
      count: async (table) => Number((await pool.query<{ n: number }>(`SELECT COUNT(*) AS n FROM ${table}`)).rows[0]?.n),
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}

const openers: Array<[string, () => Promise<Migrated>]> = storeBackends().map((backend) =>
  backend.name === 'SQLite' ? ['SQLite 9 → 11', sqliteFromVersion9] : ['PostgreSQL 2 → 4', () => postgresFromVersion2(TEST_DATABASE_URL!)],
);

describe.each(openers)('migration to tasks and their prices (%s)', (_name, open) => {
  let migrated: Migrated;
  beforeEach(async () => {
    migrated = await open();
  });
  afterEach(() => migrated.close());

  it('keeps the prices as the admin set them, and then stores the new units', async () => {
    // Then the free entries a later migration seeds (issue 28: OpenAI's moderation models cost nothing).
    const seededFree = FREE_SEEDED_MODELS.map((model) => ({ model, input: null, output: null, cacheRead: null, cacheWrite: null, free: true }));
    expect(await migrated.prices.list()).toStrictEqual([{ model: 'house-*', input: 7, output: 9, cacheRead: null, cacheWrite: null, image: 11 }, ...seededFree]);
    const table = [{ model: 'sora-2', input: 0, output: 0, cacheRead: null, cacheWrite: null, videoSecond: 100_000, videoSecondVariants: { '1280x720': 100_000 }, song: 1, searchQuery: 2 }];
    await migrated.prices.replace(table);
    expect(await migrated.prices.list()).toStrictEqual(table);
  });

  it('takes a reservation of the version before for an ordinary one: given back, as it was before', async () => {
    await migrated.quota.heartbeat('2026-03-01T12:00:00.000Z');
    expect(await migrated.quota.releaseOrphaned('2026-03-01T11:59:30.000Z')).toEqual({ count: 1, amount: 25 });
  });

  it('stores tasks that hold their reservation, settles them, and deletes them with their account', async () => {
    await migrated.run("INSERT INTO quota_reservations (request_id, token_id, account_id, amount, created_at, instance_id) VALUES ('req-new', 1, 1, 40, ?, 'after-upgrade')", [THEN]);
    const task = await migrated.tasks.create(newTask(1, 1, { requestId: 'req-new', quotaReserved: 40 }));
    expect(await migrated.quota.retire()).toEqual({ count: 0, amount: 0 });
    expect(await migrated.tasks.countUnsettled()).toBe(1);
    expect(await migrated.tasks.settle(task.id, settlementOf(task, 0, 'failed'))).toMatchObject({ status: 'failed' });
    expect(await migrated.count('usage_log')).toBe(1);
    // The reservation left from before the upgrade, held by a task now: no longer given back as orphaned.
    await migrated.tasks.create(newTask(1, 1, { requestId: 'before', quotaReserved: 25 }));
    await migrated.quota.heartbeat('2026-03-01T12:00:00.000Z');
    expect(await migrated.quota.releaseOrphaned('2026-03-01T11:59:30.000Z')).toEqual({ count: 0, amount: 0 });
    expect(await migrated.count('quota_reservations')).toBe(1);
    await migrated.run('DELETE FROM accounts WHERE id = 1');
    expect(await migrated.count('tasks')).toBe(0);
    expect(await migrated.count('quota_reservations')).toBe(0);
  });

  it('refuses a task kind or status the relay does not know', async () => {
    await expect(migrated.tasks.create({ ...newTask(1, null), kind: 'podcast' as 'video' })).rejects.toMatchObject({ message: expect.stringMatching(/check/i) });
    await expect(migrated.tasks.create({ ...newTask(1, null), status: 'paused' as 'queued' })).rejects.toMatchObject({ message: expect.stringMatching(/check/i) });
  });
});
