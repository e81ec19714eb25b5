import Database from 'better-sqlite3';
import type pg from 'pg';
import { migratePostgres, postgresMigrations } from '../../../src/storage/postgres/migrations';
import { createPgPool } from '../../../src/storage/postgres/pg-pool';
import { PgQuotaStore } from '../../../src/storage/postgres/pg-quota-store';
import { PgUsageLogStore } from '../../../src/storage/postgres/pg-usage-log-store';
import { migrate, migrations } from '../../../src/storage/sqlite/migrations';
import { SqliteQuotaStore } from '../../../src/storage/sqlite/sqlite-quota-store';
import { SqliteUsageLogStore } from '../../../src/storage/sqlite/sqlite-usage-log-store';
import { dropSchema, storeBackends, TEST_DATABASE_URL, uniqueSchemaName } from '../testing/store-backends';
import type { QuotaStore, UsageLogEntry, UsageLogStore } from '../../../src/storage/types';
import { bruteForceAggregate, sampleRows } from './usage-sample';

// Each test opens its own database (on PostgreSQL a schema, migrated): seconds when the machine is busy.
jest.setTimeout(30_000);

const COLUMNS = `created_at, request_id, token_id, account_id, requested_model, upstream_model, channel_id, assistant_id, stream, status,
  error_code, prompt_tokens, completion_tokens, cache_read_tokens, cache_write_tokens, usage_estimated, cost, latency_ms, ttfb_ms,
  client_ip, attempts, endpoint, units`;
const values = (row: UsageLogEntry, flag: (value: boolean) => unknown): unknown[] => [
  row.createdAt,
  row.requestId,
  row.tokenId,
  row.accountId,
  row.requestedModel,
  row.upstreamModel,
  row.channelId,
  row.assistantId,
  flag(row.stream),
  row.status,
  row.errorCode,
  row.promptTokens,
  row.completionTokens,
  row.cacheReadTokens,
  row.cacheWriteTokens,
  flag(row.usageEstimated),
  row.cost,
  row.latencyMs,
  row.ttfbMs,
  row.clientIp,
  row.attempts,
  row.endpoint,
  row.units,
];

/** A database as the version before left it, holding `rows` and one reservation, then migrated. */
interface Migrated {
  usageLog: UsageLogStore;
  quota: QuotaStore;
  close(): Promise<void>;
}

async function sqliteFromVersion8(rows: readonly UsageLogEntry[]): Promise<Migrated> {
  const db = new Database(':memory:');
  db.exec('CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT, applied_at TEXT)');
  for (const migration of migrations.filter((step) => step.version <= 8)) {
    db.exec(migration.sql);
    db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)').run(migration.version, migration.name, 'then');
  }
  const insert = db.prepare(`INSERT INTO usage_log (${COLUMNS}) VALUES (${Array(23).fill('?').join(', ')})`);
  for (const row of rows) insert.run(...values(row, (flag) => (flag ? 1 : 0)));
  seedQuota((sql, params) => db.prepare(sql).run(...params));
  expect(migrate(db)).toEqual(migrations.filter((step) => step.version > 8).map((step) => step.version));
  return { usageLog: new SqliteUsageLogStore(db), quota: new SqliteQuotaStore(db, 'after-upgrade'), close: async () => {
      db.close();
    },
  };
}

async function postgresFromVersion1(url: string, rows: readonly UsageLogEntry[]): Promise<Migrated> {
  const schema = uniqueSchemaName();
  const pool: pg.Pool = createPgPool({ url, schema, maxConnections: 2 });
  const close = async () => {
    await pool.end();
    await dropSchema(url, schema);
  };
  try {
    expect(await migratePostgres(pool, schema, postgresMigrations.slice(0, 1))).toEqual([1]);
    const placeholders = Array.from({ length: 23 }, (_, i) => `$${i + 1}`).join(', ');
    for (const row of rows) await pool.query(`INSERT INTO usage_log (${COLUMNS}) VALUES (${placeholders})`, values(row, (flag) => flag));
    const seeds: Array<[string, unknown[]]> = [];
    seedQuota((sql, params) => seeds.push([numbered(sql), params]));
    for (const [sql, params] of seeds) await pool.query(sql, params);
    expect(await migratePostgres(pool, schema)).toEqual(postgresMigrations.slice(1).map((step) => step.version));
    return { usageLog: new PgUsageLogStore(pool), quota: new PgQuotaStore(pool, 'after-upgrade'), close };
  } catch (error) {
    await close();
    throw error;
  }
}

/** `?` placeholders as PostgreSQL's `$1`, `$2`, … */
function numbered(sql: string): string {
  let n = 0;
  return sql.replace(/\?/g, () => `$${++n}`);
}

/** An account and a token with 25 reserved by a request of the version before (no instance recorded). */
function seedQuota(run: (sql: string, params: unknown[]) => unknown): void {
  run("INSERT INTO accounts (id, name, role, quota_used, created_at) VALUES (1, 'a', 'user', 25, ?)", ['2026-01-01T00:00:00.000Z']);
  run("INSERT INTO tokens (id, account_id, name, key_digest, key_hint, quota_used, created_at) VALUES (1, 1, 't', 'd', 'h', 25, ?)", [
    '2026-01-01T00:00:00.000Z',
  ]);
  run("INSERT INTO quota_reservations (request_id, token_id, account_id, amount, created_at) VALUES ('before', 1, 1, 25, ?)", ['2026-01-01T00:00:00.000Z']);
}

const openers: Array<[string, (rows: readonly UsageLogEntry[]) => Promise<Migrated>]> = storeBackends().map((backend) =>
  backend.name === 'SQLite' ? ['SQLite 8 → 9', sqliteFromVersion8] : ['PostgreSQL 1 → 2', (rows) => postgresFromVersion1(TEST_DATABASE_URL!, rows)],
);

describe.each(openers)('migration to the usage rollup (%s)', (_name, open) => {
  const rows = sampleRows(300, { tokens: [1, 2], accounts: [1, 2] }, 5);
  const whole = ['2026-02-01T00:00:00.000Z', '2026-02-05T00:00:00.000Z'] as const;

  it('fills the rollup from the rows already logged: aggregates equal the rows summed, even once the rows are purged', async () => {
    const migrated = await open(rows);
    try {
      const partial = ['2026-02-01T07:13:00.000Z', '2026-02-03T18:45:00.000Z'] as const;
      for (const groupBy of ['day', 'model'] as const) {
        expect(await migrated.usageLog.aggregate({ tokenId: 2 }, ...partial, groupBy)).toEqual(bruteForceAggregate(rows, { tokenId: 2 }, ...partial, groupBy));
        expect(await migrated.usageLog.aggregate({ accountId: 1 }, ...whole, groupBy)).toEqual(bruteForceAggregate(rows, { accountId: 1 }, ...whole, groupBy));
      }
      expect(await migrated.usageLog.purgeBefore('2026-03-01T00:00:00.000Z', 1_000)).toBe(rows.length);
      expect(await migrated.usageLog.aggregate({}, ...whole, 'model')).toEqual(bruteForceAggregate(rows, {}, ...whole, 'model'));
      // New rows add to the backfilled hours.
      await migrated.usageLog.insertBatch(rows.slice(0, 10));
      expect(await migrated.usageLog.aggregate({}, ...whole, 'day')).toEqual(bruteForceAggregate([...rows, ...rows.slice(0, 10)], {}, ...whole, 'day'));
    } finally {
      await migrated.close();
    }
  }, 30_000);

  it('takes a reservation of the version before for orphaned: given back once by the first instance to look', async () => {
    const migrated = await open([]);
    try {
      await migrated.quota.heartbeat('2026-03-01T12:00:00.000Z');
      expect(await migrated.quota.releaseOrphaned('2026-03-01T11:59:30.000Z')).toEqual({ count: 1, amount: 25 });
      expect(await migrated.quota.releaseOrphaned('2026-03-01T11:59:30.000Z')).toEqual({ count: 0, amount: 0 });
    } finally {
      await migrated.close();
    }
  });
});
