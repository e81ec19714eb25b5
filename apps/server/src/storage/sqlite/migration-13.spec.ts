import Database from 'better-sqlite3';
import { NOTHING_PASSES } from '../types';
import { migrate, migrations } from './migrations';
import { SqliteChannelStore } from './sqlite-channel-store';
import { SqlitePriceStore } from './sqlite-price-store';
import { SqliteUpstreamObjectStore } from './sqlite-upstream-object-store';

/** A database as version 11 left it — a channel and a price of its own — then migrated. */
function migratedFromVersion11(): Database.Database {
  const db = new Database(':memory:');
  db.pragma('foreign_keys = ON');
  db.exec('CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT, applied_at TEXT)');
  for (const migration of migrations.filter((step) => step.version <= 11)) {
    db.exec(migration.sql);
    db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)').run(migration.version, migration.name, 'then');
  }
  const now = '2026-01-01T00:00:00.000Z';
  db.prepare("INSERT INTO accounts (id, name, role, created_at) VALUES (1, 'a', 'user', ?)").run(now);
  db.prepare(
    `INSERT INTO channels (name, type, base_url, keys, key_states, models, timeouts, created_at, updated_at)
     VALUES ('openai', 'openai', 'http://x/v1', '["k-one-1111"]', '[]', '["*"]', '{"connectMs":1,"firstByteMs":1,"idleMs":1}', ?, ?)`,
  ).run(now, now);
  db.prepare('DELETE FROM prices').run();
  db.prepare("INSERT INTO prices (position, model, input, output, search_query) VALUES (1, 'house-*', 7, 9, 8000)").run();
  expect(migrate(db)).toContain(13);
  return db;
}

describe('migration 13: what passes through, its prices, the upstream objects of each account', () => {
  it('lets nothing through a channel made before it, keeps its prices unpriced for passthrough, and records objects', async () => {
    const db = migratedFromVersion11();
    const [channel] = await new SqliteChannelStore(db).listAll();
    expect(channel?.passthrough).toEqual(NOTHING_PASSES);
    // Later migrations (15) seed free entries after it.
    expect((await new SqlitePriceStore(db).list()).filter((price) => !price.free)).toStrictEqual([
      { model: 'house-*', input: 7, output: 9, cacheRead: null, cacheWrite: null, searchQuery: 8000 },
    ]);
    const objects = new SqliteUpstreamObjectStore(db);
    await objects.remember([{ kind: 'item', id: 'msg_1', accountId: 1, channelId: 1, createdAt: '2026-01-01T00:00:00.000Z', expiresAt: '2026-02-01T00:00:00.000Z' }]);
    expect(await objects.owned(1, 'item', ['msg_1'], '2026-01-02T00:00:00.000Z')).toEqual(['msg_1']);
    db.close();
  });
});
