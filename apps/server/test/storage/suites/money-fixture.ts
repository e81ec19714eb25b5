import Database from 'better-sqlite3';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type pg from 'pg';
import { openPostgresStorage } from '../../../src/storage/postgres/open-postgres';
import { createPgPool } from '../../../src/storage/postgres/pg-pool';
import { openSqliteStorage, SQLITE_FILE_NAME } from '../../../src/storage/sqlite/open-sqlite';
import { dropSchema, TEST_DATABASE_URL, TEST_SECRETS, uniqueSchemaName, type StoreBackend } from '../testing/store-backends';
import type { Storage } from '../../../src/storage/types';

/** Plain SQL on the test database beside the stores, `?` for each parameter on both backends. */
export interface RawSql {
  all<T>(sql: string, params?: readonly unknown[]): Promise<T[]>;
  run(sql: string, params?: readonly unknown[]): Promise<void>;
}

/**
 * One test database (a SQLite file, or a PostgreSQL schema) with a storage open on it as
 * `instance-a`, raw SQL beside it, and as many more instances as a test opens on the same
 * database. `close` closes them all and removes the database.
 */
export interface MoneyDb {
  backend: StoreBackend['name'];
  storage: Storage;
  sql: RawSql;
  /** Another instance on the same database (its own connection or pool). */
  open(instanceId: string): Promise<Storage>;
  /**
   * A restart: `storage` closed (its connection or pool ended) and opened again on the same
   * database as `instanceId`; `storage` is the new one from then on.
   */
  restart(instanceId: string): Promise<Storage>;
  /**
   * The plan of a statement as the backend would run it, one line per node: SQLite's EXPLAIN
   * QUERY PLAN details (named parameters), PostgreSQL's EXPLAIN with sequential scans and sorts
   * disabled (positional parameters): an index able to serve the query, or give its order, is
   * chosen however few rows a test table holds; a Seq Scan or Sort left means none can.
   */
  explain(sql: string, params: Record<string, unknown> | unknown[]): Promise<string[]>;
  close(): Promise<void>;
}

export async function openMoneyDb(backend: StoreBackend['name'], instanceId = 'instance-a'): Promise<MoneyDb> {
  return backend === 'SQLite' ? openSqliteMoneyDb(instanceId) : openPostgresMoneyDb(instanceId);
}

async function openSqliteMoneyDb(instanceId: string): Promise<MoneyDb> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'relay-money-'));
  let storage = openSqliteStorage(dataDir, { instanceId });
  const raw = new Database(path.join(dataDir, SQLITE_FILE_NAME));
  raw.pragma('busy_timeout = 5000');
  const others: Storage[] = [];
  return {
    backend: 'SQLite',
    get storage() {
      return storage;
    },
    sql: {
      all: async <T>(sql: string, params: readonly unknown[] = []) => raw.prepare(sql).all(...params) as T[],
      run: async (sql, params = []) => {
        raw.prepare(sql).run(...params);
      },
    },
    explain: async (sql, params) =>
      (raw.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(params) as Array<{ detail: string }>).map((row) => row.detail),
    open: async (id) => {
      const other = openSqliteStorage(dataDir, { instanceId: id });
      others.push(other);
      return other;
    },
    restart: async (id) => {
      await storage.close();
      storage = openSqliteStorage(dataDir, { instanceId: id });
      return storage;
    },
    close: async () => {
      for (const other of others) await other.close();
      await storage.close();
      raw.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** RawSql over a PostgreSQL pool: each `?` becomes `$1`, `$2`, … */
export function pgRawSql(pool: pg.Pool): RawSql {
  const numbered = (sql: string) => {
    let n = 0;
    return sql.replace(/\?/g, () => `$${++n}`);
  };
  return {
    all: async <T>(sql: string, params: readonly unknown[] = []) => (await pool.query(numbered(sql), [...params])).rows as T[],
    run: async (sql, params = []) => {
      await pool.query(numbered(sql), [...params]);
    },
  };
}

async function openPostgresMoneyDb(instanceId: string): Promise<MoneyDb> {
  const url = TEST_DATABASE_URL;
  if (!url) throw new Error('PostgreSQL money specs need DATABASE_URL');
  const schema = uniqueSchemaName();
  const connection = { url, schema, maxConnections: 4 };
  let storage = await openPostgresStorage(connection, { instanceId, secrets: TEST_SECRETS });
  const pool: pg.Pool = createPgPool({ ...connection, maxConnections: 2 });
  const others: Storage[] = [];
  return {
    backend: 'PostgreSQL',
    get storage() {
      return storage;
    },
    sql: pgRawSql(pool),
    explain: async (sql, params) => {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        await client.query('SET LOCAL enable_seqscan = off');
        await client.query('SET LOCAL enable_sort = off');
        const { rows } = await client.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${sql}`, Array.isArray(params) ? params : Object.values(params));
        return rows.map((row) => row['QUERY PLAN']);
      } finally {
        await client.query('ROLLBACK');
        client.release();
      }
    },
    open: async (id) => {
      const other = await openPostgresStorage(connection, { instanceId: id, secrets: TEST_SECRETS });
      others.push(other);
      return other;
    },
    restart: async (id) => {
      await storage.close();
      storage = await openPostgresStorage(connection, { instanceId: id, secrets: TEST_SECRETS });
      return storage;
    },
    close: async () => {
      for (const other of others) await other.close();
      await storage.close();
      await pool.end();
      await dropSchema(url, schema);
    },
  };
}

const CREATED = '2026-01-01T00:00:00.000Z';
let fixtureCounter = 0;

/**
 * A user account with `quotaLimit` (null: none), written as plain SQL so the money specs do not
 * depend on the account store of the backend.
 */
export async function createAccount(sql: RawSql, quotaLimit: number | null): Promise<number> {
  const [row] = await sql.all<{ id: number }>("INSERT INTO accounts (name, role, quota_limit, created_at) VALUES (?, 'user', ?, ?) RETURNING id", [
    `account-${++fixtureCounter}`,
    quotaLimit,
    CREATED,
  ]);
  return idOf(row);
}

/** A token of `accountId` with `quotaLimit` (null: none), written as plain SQL. */
export async function createToken(sql: RawSql, accountId: number, quotaLimit: number | null): Promise<number> {
  const name = `token-${++fixtureCounter}`;
  const [row] = await sql.all<{ id: number }>(
    'INSERT INTO tokens (account_id, name, key_digest, key_hint, quota_limit, created_at) VALUES (?, ?, ?, ?, ?, ?) RETURNING id',
    [accountId, name, `digest-${name}-${Date.now()}`, 'sk-…abcd', quotaLimit, CREATED],
  );
  return idOf(row);
}

function idOf(row: { id: number } | undefined): number {
  if (!row) throw new Error('INSERT … RETURNING id returned no row');
  return row.id;
}

/** The token's and its account's `quota_used`. */
export async function quotaUsed(sql: RawSql, tokenId: number, accountId: number): Promise<{ token: number; account: number }> {
  const [token] = await sql.all<{ quota_used: number }>('SELECT quota_used FROM tokens WHERE id = ?', [tokenId]);
  const [account] = await sql.all<{ quota_used: number }>('SELECT quota_used FROM accounts WHERE id = ?', [accountId]);
  if (!token || !account) throw new Error(`no token ${tokenId} or account ${accountId}`);
  return { token: Number(token.quota_used), account: Number(account.quota_used) };
}

/** The reservations still recorded, oldest first. */
export async function reservations(sql: RawSql): Promise<Array<{ requestId: string; amount: number; instanceId: string | null }>> {
  const rows = await sql.all<{ request_id: string; amount: number; instance_id: string | null }>(
    'SELECT request_id, amount, instance_id FROM quota_reservations ORDER BY id',
  );
  return rows.map((row) => ({ requestId: row.request_id, amount: Number(row.amount), instanceId: row.instance_id }));
}

/** The instances recorded alive, by id. */
export async function instances(sql: RawSql): Promise<string[]> {
  return (await sql.all<{ instance_id: string }>('SELECT instance_id FROM relay_instances ORDER BY instance_id')).map((row) => row.instance_id);
}

/** Who the usage suites' rows belong to: two accounts without quota, two tokens of the first and one of the second. */
export interface UsageOwners {
  accounts: [number, number];
  tokens: [number, number, number];
}
export async function createUsageOwners(sql: RawSql): Promise<UsageOwners> {
  const accounts: [number, number] = [await createAccount(sql, null), await createAccount(sql, null)];
  const tokens: [number, number, number] = [await createToken(sql, accounts[0], null), await createToken(sql, accounts[0], null), await createToken(sql, accounts[1], null)];
  return { accounts, tokens };
}
