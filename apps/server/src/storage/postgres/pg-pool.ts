import type pg from 'pg';
import { knowDatabaseError } from './pg-database-error';
import { backendPidOf, CommitInDoubt, commitOutcome, connectionFailed, outcomeUnknown, type TransactionDoubt } from './pg-doubt';

/** Where and how the relay's PostgreSQL lives (DATABASE_URL, DATABASE_SCHEMA, DATABASE_POOL_MAX, RELAY_DB_*). */
export interface PostgresConnection {
  url: string;
  /** The schema holding the relay's tables; created at start when missing. */
  schema: string;
  /** Connections this instance keeps open at most. */
  maxConnections?: number;
  /** The server cancels a statement running longer (its session's statement_timeout); none when 0 or unset. */
  statementTimeoutMs?: number;
  /** A query without an answer this long fails here and its connection is dropped (a partition); none when 0 or unset. */
  queryTimeoutMs?: number;
  /** Waiting for a connection — a new one, or a free one of a full pool — fails after this (default 5 s). */
  connectTimeoutMs?: number;
}

/** What the relay's sessions are called in `pg_stat_activity`: an operator (or a test) finds them by it. */
export const APPLICATION_NAME = 'chat-relay';
const DEFAULT_CONNECT_TIMEOUT_MS = 5_000;
let loaded: typeof pg | undefined;

/**
 * pg, required on the first pool rather than imported: a relay on SQLite never loads it
 * (~1.5 MB of RSS). A require of an external package, not an import() of our own modules,
 * which would make the bundler wrap every module they share with the hot path in lazy init.
 */
function pgModule(): typeof pg {
  if (!loaded) {
    loaded = require('pg') as typeof pg;
    // The classifiers of store faults and doubts recognise the server's errors from here on.
    knowDatabaseError(loaded.DatabaseError);
  }
  return loaded;
}

/** A schema name used as it is in SQL (the config checks it; this guards every other caller). */
export function quoteSchema(schema: string): string {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(schema)) throw new Error(`not a plain schema name: ${JSON.stringify(schema)}`);
  return `"${schema}"`;
}

const INT8 = 20;
const NUMERIC = 1700;
const TIMESTAMPTZ = 1184;

/**
 * Columns read back as the stores' TypeScript types without per-row conversion: bigint and
 * numeric (money in micro-USD, counts, sums) as numbers — every stored amount is a safe integer,
 * the stores cap them below 2^53 — and timestamptz as the ISO text the rest of the relay uses.
 */
const types = {
  getTypeParser(oid: number, format?: string) {
    if (oid === INT8 || oid === NUMERIC) return (text: string) => Number(text);
    if (oid === TIMESTAMPTZ) return (text: string) => new Date(text).toISOString();
    return pgModule().types.getTypeParser(oid, format as 'text');
  },
} as pg.CustomTypesConfig;

/**
 * A pool whose every connection works in `schema` (search_path set as it connects, so no query
 * names it), answers in UTC, and bounds every call (statement, query and connect timeouts).
 * Errors of idle connections (the server restarted) go to the owner's `onError`, never into the
 * process; a checked-out client's are handled by `withClient`.
 */
export function createPgPool(connection: PostgresConnection, onError: (error: Error) => void = () => undefined): pg.Pool {
  const pool = new (pgModule().Pool)({
    connectionString: connection.url,
    max: connection.maxConnections ?? 10,
    options: `-c search_path=${quoteSchema(connection.schema)},public -c timezone=UTC`,
    types,
    connectionTimeoutMillis: connection.connectTimeoutMs || DEFAULT_CONNECT_TIMEOUT_MS,
    statement_timeout: connection.statementTimeoutMs || undefined,
    query_timeout: connection.queryTimeoutMs || undefined,
    // A peer that vanished without a word (a partition) is noticed by the OS, not after hours.
    keepAlive: true,
    keepAliveInitialDelayMillis: 10_000,
    idleTimeoutMillis: 30_000,
    application_name: APPLICATION_NAME,
  });
  pool.on('error', onError);
  return pool;
}

/** A checked-out session: `discard()` has it closed on release instead of going back to the pool. */
export interface Session {
  discard(): void;
}

/**
 * Runs `work` on one checked-out client. The client carries an 'error' listener all the while (a
 * connection lost between two statements is an error of `work`, never an unhandled event that
 * ends the process), and a client whose connection failed or timed out is closed on release
 * rather than handed to the next caller.
 */
export async function withClient<T>(pool: pg.Pool, work: (client: pg.PoolClient, session: Session) => Promise<T>): Promise<T> {
  const { client, connectionError, stopListening } = await checkOut(pool);
  let broken: Error | undefined;
  const session: Session = { discard: () => (broken ??= new Error('session discarded')) };
  try {
    return await work(client, session);
  } catch (error) {
    if (connectionFailed(error)) broken ??= error instanceof Error ? error : new Error('connection failed');
    throw error;
  } finally {
    stopListening();
    client.release(connectionError() ?? broken);
  }
}

interface CheckedOut {
  client: pg.PoolClient;
  /** The first 'error' the connection emitted while checked out. */
  connectionError(): Error | undefined;
  stopListening(): void;
}

/**
 * `pool.connect`, with the client's 'error' listener attached in the very callback that hands it
 * over: the same read that brings a new connection's ReadyForQuery may bring a FATAL right after
 * it (the session terminated), before an `await` could resume and attach one.
 */
function checkOut(pool: pg.Pool): Promise<CheckedOut> {
  return new Promise((resolve, reject) => {
    pool.connect((error, client) => {
      if (error || !client) {
        reject(error ?? new Error('no client'));
        return;
      }
      let first: Error | undefined;
      const listener = (failure: Error) => (first ??= failure);
      client.on('error', listener);
      resolve({ client, connectionError: () => first, stopListening: () => client.off('error', listener) });
    });
  });
}

type TransactionEnd<T> = { committed: true; result: T } | { committed: false; doubt: TransactionDoubt; error: unknown; result: T };

/**
 * Runs `work` in one transaction on one connection: committed when it resolves, rolled back when
 * it throws. A COMMIT whose answer was lost (the connection dropped under it) is not guessed at:
 * its session is fenced and the server asked whether the transaction committed (`commitOutcome`).
 * When the server cannot be asked now, it throws `CommitInDoubt`, carrying what to ask later.
 */
export async function inTransaction<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const end = await withClient(pool, async (client, session): Promise<TransactionEnd<T>> => {
    const xid = await begin(client);
    let result: T;
    try {
      result = await work(client);
    } catch (error) {
      await client.query('ROLLBACK').catch(() => session.discard());
      throw error;
    }
    try {
      await client.query('COMMIT');
      return { committed: true, result };
    } catch (error) {
      const backendPid = backendPidOf(client);
      if (!outcomeUnknown(error) || backendPid === undefined) throw error;
      session.discard();
      return { committed: false, doubt: { backendPid, xid }, error, result };
    }
  });
  if (end.committed) return end.result;
  // Asked on another connection, this one given back first: a full pool must not wait on itself.
  let outcome: 'committed' | 'aborted';
  try {
    outcome = await commitOutcome(pool, end.doubt);
  } catch {
    throw new CommitInDoubt(end.doubt, end.error);
  }
  if (outcome === 'committed') return end.result;
  throw end.error;
}

/** BEGIN, and the transaction's id, in one round trip (a simple query may hold several statements). */
async function begin(client: pg.PoolClient): Promise<string> {
  const answers: unknown = await client.query('BEGIN; SELECT txid_current()::text AS xid');
  const last = Array.isArray(answers) ? (answers.at(-1) as pg.QueryResult<{ xid: string }>) : undefined;
  const xid = last?.rows[0]?.xid;
  if (typeof xid !== 'string') throw new Error('BEGIN gave no transaction id');
  return xid;
}

/**
 * Runs `work` holding a session advisory lock named `name` on a connection of its own: every
 * instance sharing the database waits its turn, so start-up work (migrations, the first admin)
 * runs once. That session has no statement or query timeout — waiting for another instance's
 * migration, or running one, may take long — and it is closed afterwards, never pooled.
 */
export async function underAdvisoryLock<T>(pool: pg.Pool, name: string, work: (client: pg.ClientBase) => Promise<T>): Promise<T> {
  const client = new (pgModule().Client)({ ...pool.options, statement_timeout: undefined, query_timeout: undefined });
  let broken: Error | undefined;
  client.on('error', (error: Error) => (broken ??= error));
  await client.connect();
  try {
    await client.query('SET statement_timeout = 0');
    await client.query('SELECT pg_advisory_lock(hashtext($1))', [name]);
    try {
      const result = await work(client);
      if (broken) throw broken;
      return result;
    } finally {
      await client.query('SELECT pg_advisory_unlock(hashtext($1))', [name]).catch(() => undefined);
    }
  } finally {
    await client.end().catch(() => undefined);
  }
}
