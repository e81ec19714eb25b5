import Database from 'better-sqlite3';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { loadConfig } from '../../../src/config';
import { createLogger } from '../../../src/logger';
import { SecretKeyring } from '../../../src/security/secret-keyring';
import { bootstrapStorage } from '../../../src/storage/bootstrap';
import { openPostgresStorage } from '../../../src/storage/postgres/open-postgres';
import { quoteSchema } from '../../../src/storage/postgres/pg-pool';
import { openSqliteStorage, SQLITE_FILE_NAME } from '../../../src/storage/sqlite/open-sqlite';
import { dropSchema, storeBackends, uniqueSchemaName, TEST_DATABASE_URL } from '../testing/store-backends';
import type { NewChannel, Storage } from '../../../src/storage/types';
import { failureOf } from './open-with-sql';

// Each test opens its own database (on PostgreSQL a schema, migrated) more than once.
jest.setTimeout(30_000);

const OLD_SECRET = 'old-secret-0123456789-0123456789-abcdef';
const NEW_SECRET = 'new-secret-9876543210-9876543210-fedcba';
const KEYS = ['sk-live-PLAINTEXT-first-0001', 'sk-live-PLAINTEXT-second-0002'];
const SEALED = /^enc:v1:[0-9a-f]{8}:[A-Za-z0-9_-]+$/;

const channel = (keys = KEYS): NewChannel => ({
  name: 'main',
  type: 'openai',
  baseUrl: 'http://127.0.0.1:9/v1',
  keys,
  models: ['*'],
  modelMapping: {},
  priority: 0,
  weight: 1,
  enabled: true,
  timeouts: { connectMs: 1000, firstByteMs: 1000, idleMs: 1000 },
});

/** One database opened again and again (with one secret or another), looked at behind the stores' backs. */
interface Place {
  open(keyring: SecretKeyring): Promise<Storage>;
  /** Every channel's `keys` as the database holds them. */
  storedKeys(): Promise<string[][]>;
  /** A channel as an earlier version wrote it: its keys in the clear. */
  insertInTheClear(keys: readonly string[]): Promise<void>;
  /** The database's files, whole, once every storage is closed (SQLite; PostgreSQL has none to read). */
  files(): Buffer | undefined;
  remove(): Promise<void>;
}

function sqlitePlace(): Place {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'relay-at-rest-'));
  const file = path.join(dataDir, SQLITE_FILE_NAME);
  const withDb = <T>(work: (db: Database.Database) => T): T => {
    const db = new Database(file);
    try {
      return work(db);
    } finally {
      db.close();
    }
  };
  return {
    open: async (keyring) => openSqliteStorage(dataDir, { secrets: keyring }),
    storedKeys: async () => withDb((db) => (db.prepare('SELECT keys FROM channels ORDER BY id').all() as Array<{ keys: string }>).map((row) => JSON.parse(row.keys) as string[])),
    insertInTheClear: async (keys) =>
      withDb((db) => {
        db.prepare(
          `INSERT INTO channels (name, type, base_url, keys, key_states, models, timeouts, created_at, updated_at)
           VALUES ('old', 'openai', 'http://127.0.0.1:9/v1', ?, '[]', '["*"]', '{"connectMs":1,"firstByteMs":1,"idleMs":1}', '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z')`,
        ).run(JSON.stringify(keys));
      }),
    files: () => Buffer.concat(['', '-wal', '-journal'].map((suffix) => (fs.existsSync(`${file}${suffix}`) ? fs.readFileSync(`${file}${suffix}`) : Buffer.alloc(0)))),
    remove: async () => fs.rmSync(dataDir, { recursive: true, force: true }),
  };
}

function postgresPlace(url: string): Place {
  const schema = uniqueSchemaName('rest');
  const query = async <T extends pg.QueryResultRow>(text: string, values: unknown[] = []): Promise<T[]> => {
    const client = new pg.Client({ connectionString: url, options: `-c search_path=${quoteSchema(schema)}` });
    await client.connect();
    try {
      return (await client.query<T>(text, values)).rows;
    } finally {
      await client.end();
    }
  };
  return {
    open: (keyring) => openPostgresStorage({ url, schema, maxConnections: 2 }, { secrets: keyring }),
    storedKeys: async () => (await query<{ keys: string[] }>('SELECT keys FROM channels ORDER BY id')).map((row) => row.keys),
    insertInTheClear: async (keys) => {
      await query(
        `INSERT INTO channels (name, type, base_url, keys, key_states, models, timeouts, created_at, updated_at)
         VALUES ('old', 'openai', 'http://127.0.0.1:9/v1', $1::jsonb, '[]', '["*"]', '{"connectMs":1,"firstByteMs":1,"idleMs":1}', now(), now())`,
        [JSON.stringify(keys)],
      );
    },
    files: () => undefined,
    remove: () => dropSchema(url, schema),
  };
}

/** What a start does: bootstrap, with the secret given (the admin key from the environment). */
async function start(storage: Storage): Promise<void> {
  await bootstrapStorage(storage, loadConfig({ RELAY_DATA_DIR: os.tmpdir(), RELAY_ADMIN_KEY: 'admin-key-0123456789abcdef' }), createLogger('silent'));
}

for (const backend of storeBackends()) {
  describe(`issue 26: channel keys are sealed at rest (${backend.name})`, () => {
    let place: Place;
    const opened: Storage[] = [];
    const open = async (keyring: SecretKeyring) => {
      const storage = await place.open(keyring);
      opened.push(storage);
      return storage;
    };
    const closeAll = async () => {
      for (const storage of opened.splice(0)) await storage.close();
    };
    beforeEach(() => {
      place = backend.name === 'SQLite' ? sqlitePlace() : postgresPlace(TEST_DATABASE_URL ?? '');
    });
    afterEach(async () => {
      await closeAll();
      await place.remove();
    });
    /** No plaintext key anywhere: not in a row, and (SQLite) not in the database's files. */
    const expectNoPlaintext = async (keys: readonly string[]) => {
      const stored = (await place.storedKeys()).flat();
      expect(stored.length).toBeGreaterThan(0);
      for (const value of stored) expect(value).toMatch(SEALED);
      await closeAll();
      const files = place.files();
      if (files) for (const key of keys) expect({ key, inFile: files.includes(Buffer.from(key)) }).toEqual({ key, inFile: false });
    };

    it('writes no channel key in the clear: the rows hold sealed values, and the stores read the keys back', async () => {
      const keyring = new SecretKeyring(NEW_SECRET);
      const storage = await open(keyring);
      const created = await storage.channels.create(channel());
      expect(created.keys).toEqual(KEYS);
      expect((await storage.channels.listAll())[0]?.keys).toEqual(KEYS);
      // Taking a key out of rotation finds it by its value, sealed or not.
      expect((await storage.channels.disableKey(created.id, KEYS[1] ?? '', '401'))?.keyStates.map((state) => state.status)).toEqual(['active', 'disabled']);
      const patched = await storage.channels.update(created.id, { keys: ['sk-live-PLAINTEXT-third-0003'], name: 'renamed' });
      expect(patched?.keys).toEqual(['sk-live-PLAINTEXT-third-0003']);
      expect((await storage.channels.update(created.id, { name: 'again' }))?.keys).toEqual(['sk-live-PLAINTEXT-third-0003']);
      const stored = (await place.storedKeys()).flat();
      expect(stored.every((value) => value.startsWith(`enc:v1:${keyring.keyId}:`))).toBe(true);
      await expectNoPlaintext([...KEYS, 'sk-live-PLAINTEXT-third-0003']);
    });

    it('seals at start the keys an earlier version stored in the clear, leaving no trace of them', async () => {
      await (await open(new SecretKeyring(NEW_SECRET))).close();
      opened.length = 0;
      // Many rows over a few pages: a value rewritten must not leave the old one in a page's free space.
      const older = Array.from({ length: 20 }, (_, index) => KEYS.map((key) => `${key}-${index}`));
      for (const keys of older) await place.insertInTheClear(keys);
      const storage = await open(new SecretKeyring(NEW_SECRET));
      // Readable as they are, even before start-up seals them.
      expect((await storage.channels.listAll()).map((record) => record.keys)).toEqual(older);
      await start(storage);
      expect((await storage.channels.listAll()).map((record) => record.keys)).toEqual(older);
      await expectNoPlaintext(older.flat());
    });

    it('rotates with RELAY_SECRET_KEY_PREVIOUS: start seals again under the new secret; the old one alone then reads nothing, and says why', async () => {
      const first = await open(new SecretKeyring(OLD_SECRET));
      const { id } = await first.channels.create(channel());
      await closeAll();

      const rotating = await open(new SecretKeyring(NEW_SECRET, OLD_SECRET));
      expect((await rotating.channels.get(id))?.keys).toEqual(KEYS);
      await start(rotating);
      const newKeyId = new SecretKeyring(NEW_SECRET).keyId;
      expect((await place.storedKeys()).flat().every((value) => value.startsWith(`enc:v1:${newKeyId}:`))).toBe(true);
      await closeAll();

      expect((await (await open(new SecretKeyring(NEW_SECRET))).channels.get(id))?.keys).toEqual(KEYS);
      const stale = await open(new SecretKeyring(OLD_SECRET));
      const message = await failureOf(stale.channels.listAll());
      expect(message).toContain(`sealed with secret key ${newKeyId}`);
      expect(message).toContain('RELAY_SECRET_KEY');
      expect(message).not.toContain(KEYS[0]);
      // And a start with the wrong secret stops, naming the channel, instead of serving without its keys.
      expect(await failureOf(start(stale))).toMatch(new RegExp(`channel ${id}: .*sealed with secret key ${newKeyId}`));
    });
  });
}
