import Database from 'better-sqlite3';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { openPostgresStorage } from '../../../src/storage/postgres/open-postgres';
import { quoteSchema } from '../../../src/storage/postgres/pg-pool';
import { openSqliteStorage, SQLITE_FILE_NAME } from '../../../src/storage/sqlite/open-sqlite';
import type { Storage } from '../../../src/storage/types';
import { dropSchema, TEST_DATABASE_URL, TEST_SECRETS, uniqueSchemaName, type OpenedStorage, type StoreBackend } from '../testing/store-backends';

/**
 * A storage with a second connection of its own to the same tables: what a test uses to write
 * rows the stores never write themselves (an older shape, another store's rows) and to look
 * behind the cache. SQL is written once for both backends with `$1, $2…` parameters; booleans
 * become 1/0 on SQLite.
 */
export interface StorageWithSql extends OpenedStorage {
  sql(text: string, values?: readonly unknown[]): Promise<void>;
  /** How many rows of `table` match `where`. */
  count(table: string, where?: string, values?: readonly unknown[]): Promise<number>;
  /** The first column of the first row `text` answers; undefined when none. */
  value(text: string, values?: readonly unknown[]): Promise<unknown>;
}

/** `$3` → `?3`: SQLite's numbered parameters, which better-sqlite3 binds by name (`{ 3: … }`). */
const sqliteText = (text: string): string => text.replace(/\$(\d+)/g, '?$1');
const sqliteValues = (values: readonly unknown[]): Record<number, unknown> =>
  Object.fromEntries(values.map((value, index) => [index + 1, typeof value === 'boolean' ? Number(value) : value]));

async function openSqlite(): Promise<StorageWithSql> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'relay-suite-'));
  const storage = openSqliteStorage(dataDir);
  const db = new Database(path.join(dataDir, SQLITE_FILE_NAME));
  return {
    storage,
    sql: async (text, values = []) => {
      db.prepare(sqliteText(text)).run(sqliteValues(values));
    },
    count: async (table, where = 'TRUE', values = []) =>
      (db.prepare(sqliteText(`SELECT COUNT(*) AS n FROM ${table} WHERE ${where}`)).get(sqliteValues(values)) as { n: number }).n,
    value: async (text, values = []) => {
      const row = db.prepare(sqliteText(text)).raw(true).get(sqliteValues(values)) as unknown[] | undefined;
      return row?.[0];
    },
    close: async () => {
      db.close();
      await storage.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

async function openPostgres(url: string): Promise<StorageWithSql> {
  const schema = uniqueSchemaName();
  const storage = await openPostgresStorage({ url, schema, maxConnections: 4 }, { secrets: TEST_SECRETS });
  const client = new pg.Client({ connectionString: url, options: `-c search_path=${quoteSchema(schema)}` });
  await client.connect();
  return {
    storage,
    sql: async (text, values = []) => {
      await client.query(text, [...values]);
    },
    count: async (table, where = 'TRUE', values = []) =>
      Number((await client.query<{ n: string }>(`SELECT COUNT(*) AS n FROM ${table} WHERE ${where}`, [...values])).rows[0]?.n),
    value: async (text, values = []) => (await client.query({ text, values: [...values], rowMode: 'array' })).rows[0]?.[0],
    close: async () => {
      await client.end();
      await storage.close();
      await dropSchema(url, schema);
    },
  };
}

/** Opens `backend`'s kind of storage with a second connection (see StorageWithSql). */
export function openWithSql(backend: StoreBackend): Promise<StorageWithSql> {
  if (backend.name === 'SQLite') return openSqlite();
  if (!TEST_DATABASE_URL) throw new Error('PostgreSQL suites run only with DATABASE_URL');
  return openPostgres(TEST_DATABASE_URL);
}

/** A fresh storage for every test of the enclosing `describe`, closed (and removed) after it. */
export function storageForEachTest(backend: StoreBackend): () => Storage {
  let opened: OpenedStorage | undefined;
  beforeEach(async () => {
    opened = await backend.open();
  });
  afterEach(async () => {
    await opened?.close();
    opened = undefined;
  });
  return () => {
    if (!opened) throw new Error('no storage open outside a test');
    return opened.storage;
  };
}

/** As `storageForEachTest`, with the second connection (see StorageWithSql). */
export function storageWithSqlForEachTest(backend: StoreBackend): () => StorageWithSql {
  let opened: StorageWithSql | undefined;
  beforeEach(async () => {
    opened = await openWithSql(backend);
  });
  afterEach(async () => {
    await opened?.close();
    opened = undefined;
  });
  return () => {
    if (!opened) throw new Error('no storage open outside a test');
    return opened;
  };
}

/**
 * The message `promise` fails with. Not `rejects.toThrow()`: better-sqlite3 makes its errors
 * with the Error of the first test file its worker loaded, which jest, in the next file's
 * realm, does not take for an error at all.
 */
export async function failureOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    return String((error as { message?: unknown } | null)?.message ?? error);
  }
  throw new Error('expected a failure, got none');
}
