import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openPostgresStorage } from '../../../src/storage/postgres/open-postgres';
import { quoteSchema } from '../../../src/storage/postgres/pg-pool';
import { SecretKeyring } from '../../../src/security/secret-keyring';
import { openSqliteStorage, type OpenStorageOptions } from '../../../src/storage/sqlite/open-sqlite';
import type { Storage } from '../../../src/storage/types';

/** A storage opened for one test, on its own database file or PostgreSQL schema, removed by `close`. */
export interface OpenedStorage {
  storage: Storage;
  /** Closes the storage and removes what it wrote. */
  close(): Promise<void>;
}

export interface StoreBackend {
  name: 'SQLite' | 'PostgreSQL';
  open(options?: OpenStorageOptions): Promise<OpenedStorage>;
}

/**
 * The secret PostgreSQL specs seal channel keys with: one for the whole run, so every storage a
 * spec opens on a schema reads what another wrote (SQLite ones use their data directory's).
 */
export const TEST_SECRETS = new SecretKeyring('test-secret-key-of-the-store-specs-0123456789');

/** `DATABASE_URL` when the environment gives one (CI does): PostgreSQL tests run against it. */
export const TEST_DATABASE_URL = process.env['DATABASE_URL']?.trim() || undefined;

/** A schema name no other test or run uses: `t_<time>_<random>`. */
export function uniqueSchemaName(prefix = 't'): string {
  return `${prefix}_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
}

/** Drops a test schema with everything in it. */
export async function dropSchema(url: string, schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`DROP SCHEMA IF EXISTS ${quoteSchema(schema)} CASCADE`);
  } finally {
    await client.end();
  }
}

const sqlite: StoreBackend = {
  name: 'SQLite',
  open: async (options) => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'relay-store-'));
    const storage = openSqliteStorage(dataDir, options);
    return {
      storage,
      close: async () => {
        await storage.close();
        fs.rmSync(dataDir, { recursive: true, force: true });
      },
    };
  },
};

const postgres = (url: string): StoreBackend => ({
  name: 'PostgreSQL',
  open: async (options) => {
    const schema = uniqueSchemaName();
    const storage = await openPostgresStorage({ url, schema, maxConnections: 4 }, { secrets: TEST_SECRETS, ...options });
    return {
      storage,
      close: async () => {
        await storage.close();
        await dropSchema(url, schema);
      },
    };
  },
});

let skipNoted = false;

/**
 * Every backend a store spec runs on: SQLite always, PostgreSQL when DATABASE_URL is set —
 * otherwise it says so once on stderr, so a run without it is never mistaken for a full one.
 */
export function storeBackends(): StoreBackend[] {
  if (TEST_DATABASE_URL) return [sqlite, postgres(TEST_DATABASE_URL)];
  if (!skipNoted) {
    skipNoted = true;
    process.stderr.write('PostgreSQL store specs skipped: DATABASE_URL is not set (CI sets it; e.g. postgres://postgres@127.0.0.1:5432/test)\n');
  }
  return [sqlite];
}

/**
 * `describe`s `suite` once per backend: the same tests on SQLite and PostgreSQL. Each test opens
 * its own storage (`backend.open()`), so runs never see each other's rows.
 */
export function describeEachBackend(title: string, suite: (backend: StoreBackend) => void): void {
  for (const backend of storeBackends()) {
    describe(`${title} (${backend.name})`, () => suite(backend));
  }
}

/**
 * `describe`s `suite` on PostgreSQL only; without DATABASE_URL the block is skipped and says why,
 * so the file still holds a (skipped) test rather than none, which Jest refuses.
 */
export function describeOnPostgres(title: string, suite: (backend: StoreBackend) => void): void {
  const backend = storeBackends().find((candidate) => candidate.name === 'PostgreSQL');
  if (backend) describe(title, () => suite(backend));
  else describe.skip(`${title} — skipped: DATABASE_URL is not set`, () => suite(postgres('postgres://unset')));
}
