import Database from 'better-sqlite3';
import { migratePostgres, postgresMigrations } from '../../../src/storage/postgres/migrations';
import { createPgPool } from '../../../src/storage/postgres/pg-pool';
import { PgResponseStore } from '../../../src/storage/postgres/pg-response-store';
import { migrate, migrations } from '../../../src/storage/sqlite/migrations';
import { SqliteResponseStore } from '../../../src/storage/sqlite/sqlite-response-store';
import { storedResponseBytes } from '../../../src/storage/stored-response-size';
import { dropSchema, TEST_DATABASE_URL, uniqueSchemaName } from '../testing/store-backends';
import type { ResponseStore } from '../../../src/storage/types';

const NOW = '2026-03-01T12:00:00.000Z';
const BRIDGED = {
  response: { id: 'resp_old', object: 'response', output: [{ type: 'message', content: [{ type: 'output_text', text: 'Grüße, 世界 🌍' }] }] },
  inputItems: [{ id: 'msg_old', type: 'message', role: 'user', content: 'naïve "quotes" \\ and\nlines' }],
};

/** What the migration must have counted for the rows written before it: the same bytes a put counts now. */
async function expectCounted(store: ResponseStore, accountId: number): Promise<void> {
  expect((await store.usage([accountId], NOW)).get(accountId)).toEqual({ count: 2, bytes: storedResponseBytes(BRIDGED) });
  // The bound applies to them at the next put: one of 1 response keeps only the new one.
  const next = { ...BRIDGED, id: 'resp_new', accountId, tokenId: null, origin: 'bridged' as const, channelId: null, keyDigest: null, model: 'm' };
  const put = await store.put({ ...next, previousResponseId: null, status: 'completed', createdAt: NOW, expiresAt: '2026-04-01T00:00:00.000Z' }, { now: NOW, maxBytes: 1e9, maxCount: 1 });
  expect(put).toEqual({ stored: true, evicted: 2 });
}

describe('migration of stored responses to counted bytes (SQLite 12)', () => {
  it('counts the bytes of the responses stored before it', async () => {
    const db = new Database(':memory:');
    db.pragma('foreign_keys = ON');
    db.exec('CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT, applied_at TEXT)');
    for (const migration of migrations.filter((step) => step.version <= 11)) {
      db.exec(migration.sql);
      db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)').run(migration.version, migration.name, 'then');
    }
    db.prepare("INSERT INTO accounts (name, role, created_at) VALUES ('a', 'user', ?)").run(NOW);
    const insert = db.prepare(
      `INSERT INTO stored_responses (id, account_id, origin, model, status, response, input_items, created_at, expires_at)
       VALUES (?, 1, ?, 'm', 'completed', ?, ?, '2026-03-01T00:00:00.000Z', '2026-04-01T00:00:00.000Z')`,
    );
    insert.run('resp_old', 'bridged', JSON.stringify(BRIDGED.response), JSON.stringify(BRIDGED.inputItems));
    insert.run('resp_native', 'native', null, null);
    expect(migrate(db)).toEqual(migrations.filter((step) => step.version >= 12).map((step) => step.version));
    await expectCounted(new SqliteResponseStore(db), 1);
    db.close();
  });
});

const describePostgres = TEST_DATABASE_URL ? describe : describe.skip;
if (!TEST_DATABASE_URL) process.stderr.write('PostgreSQL migration 5 spec skipped: DATABASE_URL is not set (e.g. postgres://postgres@127.0.0.1:5432/test)\n');

describePostgres('migration of stored responses to counted bytes (PostgreSQL 5)', () => {
  it('counts the bytes of the responses stored before it', async () => {
    const url = TEST_DATABASE_URL ?? '';
    const schema = uniqueSchemaName('mig5');
    const pool = createPgPool({ url, schema, maxConnections: 2 });
    try {
      await migratePostgres(pool, schema, postgresMigrations.filter((step) => step.version <= 4));
      const { rows } = await pool.query<{ id: number }>("INSERT INTO accounts (name, role, created_at) VALUES ('a', 'user', now()) RETURNING id");
      const accountId = rows[0]?.id ?? -1;
      const insert = `INSERT INTO stored_responses (id, account_id, origin, model, status, response, input_items, created_at, expires_at)
        VALUES ($1, $2, $3, 'm', 'completed', $4::json, $5::json, '2026-03-01T00:00:00.000Z', '2026-04-01T00:00:00.000Z')`;
      await pool.query(insert, ['resp_old', accountId, 'bridged', JSON.stringify(BRIDGED.response), JSON.stringify(BRIDGED.inputItems)]);
      await pool.query(insert, ['resp_native', accountId, 'native', null, null]);
      expect(await migratePostgres(pool, schema)).toEqual(postgresMigrations.filter((step) => step.version >= 5).map((step) => step.version));
      await expectCounted(new PgResponseStore(pool), accountId);
    } finally {
      await pool.end();
      await dropSchema(url, schema);
    }
  });
});
