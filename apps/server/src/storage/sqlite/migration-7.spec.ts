import Database from 'better-sqlite3';
import { migrate, migrations } from './migrations';
import { SqliteChannelStore } from './sqlite-channel-store';
import { SqliteResponseStore } from './sqlite-response-store';
import { ROOMY } from '../../../test/storage/testing/roomy-limits';

/** A database as version 6 left it — an account and two channels — then migrated. */
function migratedFromVersion6(): Database.Database {
  const db = new Database(':memory:');
  db.pragma('foreign_keys = ON');
  db.exec('CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT, applied_at TEXT)');
  for (const migration of migrations.filter((step) => step.version <= 6)) {
    db.exec(migration.sql);
    db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)').run(migration.version, migration.name, 'then');
  }
  const now = '2026-01-01T00:00:00.000Z';
  db.prepare("INSERT INTO accounts (name, role, created_at) VALUES ('admin', 'admin', ?)").run(now);
  const insertChannel = db.prepare(
    `INSERT INTO channels (name, type, base_url, keys, key_states, models, timeouts, created_at, updated_at)
     VALUES (?, ?, 'http://x/v1', '["k-one-1111"]', '[]', '["*"]', '{"connectMs":1,"firstByteMs":1,"idleMs":1}', ?, ?)`,
  );
  insertChannel.run('openai-compatible', 'openai', now, now);
  insertChannel.run('claude', 'anthropic', now, now);
  expect(migrate(db)[0]).toBe(7);
  return db;
}

describe('migration 7: stored responses, channels speaking the Responses API', () => {
  it('reads channels made before it as responses_api auto, and keeps the rest of them', async () => {
    const db = migratedFromVersion6();
    const channels = await new SqliteChannelStore(db).listAll();
    expect(channels.map((channel) => [channel.name, channel.responsesApi])).toEqual([
      ['openai-compatible', 'auto'],
      ['claude', 'auto'],
    ]);
    expect(channels[0]).toMatchObject({ type: 'openai', keys: ['k-one-1111'], updatedAt: '2026-01-01T00:00:00.000Z' });
    db.close();
  });

  it('lets the relay switch a migrated channel to bridged, touching nothing else but updated_at', async () => {
    const db = migratedFromVersion6();
    const store = new SqliteChannelStore(db);
    await store.disableKey(1, 'k-one-1111', 'refused');
    const before = await store.get(1);
    const switched = await store.setResponsesApi(1, 'bridged');
    expect(switched?.responsesApi).toBe('bridged');
    expect({ ...switched, responsesApi: undefined, updatedAt: undefined }).toEqual({ ...before, responsesApi: undefined, updatedAt: undefined });
    expect(switched?.updatedAt).not.toBe('2026-01-01T00:00:00.000Z');
    expect((await store.get(2))?.responsesApi).toBe('auto');
    expect(await store.setResponsesApi(99, 'native')).toBeUndefined();
    // An admin's change of something else leaves what the relay learned.
    expect((await store.update(1, { name: 'renamed' }))?.responsesApi).toBe('bridged');
    expect((await store.update(1, { responsesApi: 'native' }))?.responsesApi).toBe('native');
    db.close();
  });

  it('refuses a responses_api outside auto, native, bridged in the database too', () => {
    const db = migratedFromVersion6();
    expect(() => db.prepare("UPDATE channels SET responses_api = 'sometimes' WHERE id = 1").run()).toThrow(
      expect.objectContaining({ code: 'SQLITE_CONSTRAINT_CHECK' }),
    );
    db.close();
  });

  it('creates an empty stored_responses table that new responses go into', async () => {
    const db = migratedFromVersion6();
    const responses = new SqliteResponseStore(db);
    await responses.put({
      id: 'resp_first',
      accountId: 1,
      tokenId: null,
      origin: 'native',
      channelId: 1,
      keyDigest: 'b'.repeat(64),
      model: 'gpt-4o',
      previousResponseId: null,
      status: 'completed',
      response: null,
      inputItems: null,
      createdAt: '2026-01-02T00:00:00.000Z',
      expiresAt: '2026-02-01T00:00:00.000Z',
    }, ROOMY);
    expect(await responses.get('resp_first', 1, '2026-01-03T00:00:00.000Z')).toMatchObject({ origin: 'native', channelId: 1 });
    expect(db.prepare('SELECT COUNT(*) AS n FROM stored_responses').get()).toEqual({ n: 1 });
    db.close();
  });
});
