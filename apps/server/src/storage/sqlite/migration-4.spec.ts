import Database from 'better-sqlite3';
import { migrate, migrations } from './migrations';
import { SqliteAssistantStore } from './sqlite-assistant-store';
import { SqliteChannelStore } from './sqlite-channel-store';

/** A database as version 3 left it, with a channel and an assistant, then migrated. */
function migratedFromVersion3(): Database.Database {
  const db = new Database(':memory:');
  db.pragma('foreign_keys = ON');
  db.exec('CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT, applied_at TEXT)');
  for (const migration of migrations.filter((step) => step.version <= 3)) {
    db.exec(migration.sql);
    db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)').run(migration.version, migration.name, 'then');
  }
  const now = '2026-01-01T00:00:00.000Z';
  db.prepare("INSERT INTO accounts (name, role, created_at) VALUES ('admin', 'admin', ?)").run(now);
  db.prepare(
    `INSERT INTO channels (name, type, base_url, keys, models, timeouts, created_at, updated_at)
     VALUES ('c', 'openai', 'http://x/v1', '["k-one-1111","k-two-2222"]', '["*"]', '{"connectMs":1,"firstByteMs":1,"idleMs":1}', ?, ?)`,
  ).run(now, now);
  db.prepare("INSERT INTO assistants (id, account_id, name, visibility, created_at, updated_at) VALUES ('g-old', 1, 'Old', 'public', ?, ?)").run(now, now);
  migrate(db);
  return db;
}

describe('migration 4: channel key states, assistants keyed by owner', () => {
  it('keeps existing channels with every key active and existing assistants with their owner', async () => {
    const db = migratedFromVersion3();
    const [channel] = await new SqliteChannelStore(db).listAll();
    expect(channel?.keyStates).toEqual([
      { status: 'active', reason: null, changedAt: null },
      { status: 'active', reason: null, changedAt: null },
    ]);
    expect(await new SqliteAssistantStore(db).getOwned(1, 'g-old')).toMatchObject({ name: 'Old', visibility: 'public' });
    db.close();
  });

  it('a disabled key keeps its state across an update that does not touch the keys, and not across new keys', async () => {
    const db = migratedFromVersion3();
    const store = new SqliteChannelStore(db);
    await store.disableKey(1, 'k-two-2222', 'upstream upstream_auth_failed: refused');
    expect((await store.update(1, { name: 'renamed' }))?.keyStates[1]).toMatchObject({ status: 'disabled', reason: 'upstream upstream_auth_failed: refused' });
    expect((await store.update(1, { keys: ['k-two-2222'] }))?.keyStates).toEqual([{ status: 'active', reason: null, changedAt: null }]);
    expect(await store.disableKey(1, 'k-gone', 'x')).toBeUndefined();
    db.close();
  });
});
