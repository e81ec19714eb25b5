import pg from 'pg';

/** Where and how the relay's PostgreSQL lives (DATABASE_URL, DATABASE_SCHEMA, DATABASE_POOL_MAX). */
export interface PostgresConnection {
  url: string;
  /** The schema holding the relay's tables; created at start when missing. */
  schema: string;
  /** Connections this instance keeps open at most. */
  maxConnections?: number;
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
    return pg.types.getTypeParser(oid, format as 'text');
  },
} as pg.CustomTypesConfig;

/**
 * A pool whose every connection works in `schema` (search_path set as it connects, so no query
 * names it) and answers in UTC. Errors of idle connections (the server restarted) are logged by
 * the owner through `onError`, never thrown into the process.
 */
export function createPgPool(connection: PostgresConnection, onError: (error: Error) => void = () => undefined): pg.Pool {
  const pool = new pg.Pool({
    connectionString: connection.url,
    max: connection.maxConnections ?? 10,
    options: `-c search_path=${quoteSchema(connection.schema)},public -c timezone=UTC`,
    types,
    connectionTimeoutMillis: 5_000,
    idleTimeoutMillis: 30_000,
    application_name: 'chat-relay',
  });
  pool.on('error', onError);
  return pool;
}

/** Runs `work` in one transaction on one connection: committed when it resolves, rolled back when it throws. */
export async function inTransaction<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

/**
 * Runs `work` holding a session advisory lock named `name` on its own connection: every instance
 * sharing the database waits its turn, so start-up work (migrations, the first admin) runs once.
 */
export async function underAdvisoryLock<T>(pool: pg.Pool, name: string, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('SELECT pg_advisory_lock(hashtext($1))', [name]);
    try {
      return await work(client);
    } finally {
      await client.query('SELECT pg_advisory_unlock(hashtext($1))', [name]).catch(() => undefined);
    }
  } finally {
    client.release();
  }
}
