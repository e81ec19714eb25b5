import { randomBytes } from 'node:crypto';
import Redis from 'ioredis';
import pg from 'pg';
import { z } from 'zod';

/** The row name of the relay on shared stores, beside `relay` (SQLite, in-process limits). */
export const SHARED_RELAY_TARGET = 'relay (PostgreSQL + Redis)';

export interface SharedStoreUrls {
  databaseUrl: string;
  redisUrl: string;
}

const UrlsSchema = z.object({
  databaseUrl: z
    .string({ required_error: 'no PostgreSQL: set BENCH_DATABASE_URL or DATABASE_URL (e.g. postgres://postgres@127.0.0.1:5432/test)' })
    .refine((url) => /^postgres(ql)?:\/\/./.test(url), 'BENCH_DATABASE_URL / DATABASE_URL must be a postgres:// URL'),
  redisUrl: z
    .string({ required_error: 'no Redis: set BENCH_REDIS_URL or REDIS_URL (e.g. redis://127.0.0.1:6379)' })
    .refine((url) => /^rediss?:\/\/./.test(url), 'BENCH_REDIS_URL / REDIS_URL must be a redis:// or rediss:// URL'),
});

const nonEmpty = (value: string | undefined): string | undefined => (value?.trim() ? value.trim() : undefined);

/**
 * Where `--shared-stores` finds PostgreSQL and Redis: BENCH_DATABASE_URL / BENCH_REDIS_URL,
 * else DATABASE_URL / REDIS_URL. Throws, naming what is missing, before anything starts.
 */
export function sharedStoreUrls(env: NodeJS.ProcessEnv): SharedStoreUrls {
  const parsed = UrlsSchema.safeParse({
    databaseUrl: nonEmpty(env['BENCH_DATABASE_URL']) ?? nonEmpty(env['DATABASE_URL']),
    redisUrl: nonEmpty(env['BENCH_REDIS_URL']) ?? nonEmpty(env['REDIS_URL']),
  });
  if (!parsed.success) throw new Error(`--shared-stores: ${parsed.error.issues.map((issue) => issue.message).join('; ')}`);
  return parsed.data;
}

/** A URL as it may be printed: its password replaced by `***`. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return '(unreadable URL)';
  }
}

/** This run's own corner of the shared stores: a schema and a key prefix no other run uses. */
export interface SharedStoreSpace {
  schema: string;
  keyPrefix: string;
}

export function newSharedStoreSpace(): SharedStoreSpace {
  const id = `${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  return { schema: `bench_${id}`, keyPrefix: `chat-relay-bench:${id}:` };
}

/** The relay's environment for that corner (startNode blanks these unless given). */
export function sharedRelayEnv(urls: SharedStoreUrls, space: SharedStoreSpace): Record<string, string> {
  return {
    DATABASE_URL: urls.databaseUrl,
    DATABASE_SCHEMA: space.schema,
    REDIS_URL: urls.redisUrl,
    REDIS_KEY_PREFIX: space.keyPrefix,
  };
}

const quoteSchema = (schema: string): string => {
  if (!/^bench_[a-z0-9_]+$/.test(schema)) throw new Error(`not a bench schema: ${schema}`);
  return `"${schema}"`;
};

/** Both stores answer, or an error saying which does not (the URL without its password). */
export async function checkSharedStores(urls: SharedStoreUrls): Promise<void> {
  const client = new pg.Client({ connectionString: urls.databaseUrl, connectionTimeoutMillis: 5_000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
  } catch (error) {
    throw new Error(`--shared-stores: PostgreSQL at ${redactUrl(urls.databaseUrl)} does not answer: ${(error as Error).message}`);
  } finally {
    await client.end().catch(() => undefined);
  }
  const redis = new Redis(urls.redisUrl, { lazyConnect: true, connectTimeout: 5_000, maxRetriesPerRequest: 0, retryStrategy: () => null });
  // The connection's own error (ECONNREFUSED…) says more than the rejected command ("Connection is closed").
  let connectionError: Error | undefined;
  redis.on('error', (error: Error) => (connectionError = error));
  try {
    await redis.connect();
    await redis.ping();
  } catch (error) {
    const reason = (connectionError ?? (error as Error)).message;
    throw new Error(`--shared-stores: Redis at ${redactUrl(urls.redisUrl)} does not answer: ${reason}`);
  } finally {
    redis.disconnect();
  }
}

/** What the run left in the shared stores, counted as it was removed (evidence the row used them). */
export interface SharedStoreLeftovers {
  usageRows: number | undefined;
  redisKeys: number;
}

/**
 * Drops the run's schema and deletes the keys under its prefix — only those: other runs and
 * the relay's own data share the server (no FLUSHDB). Call after the relay has stopped.
 */
export async function removeSharedStoreSpace(urls: SharedStoreUrls, space: SharedStoreSpace): Promise<SharedStoreLeftovers> {
  const client = new pg.Client({ connectionString: urls.databaseUrl, connectionTimeoutMillis: 5_000 });
  let usageRows: number | undefined;
  await client.connect();
  try {
    const schema = quoteSchema(space.schema);
    const exists = await client.query('SELECT 1 FROM pg_namespace WHERE nspname = $1', [space.schema]);
    if (exists.rowCount) {
      const counted = await client.query<{ n: string }>(`SELECT COUNT(*) AS n FROM ${schema}.usage_log`).catch(() => undefined);
      usageRows = counted ? Number(counted.rows[0]?.n) : undefined;
    }
    await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  } finally {
    await client.end();
  }
  const redis = new Redis(urls.redisUrl, { maxRetriesPerRequest: 1 });
  redis.on('error', () => undefined); // A failing command rejects with the reason; the event would only repeat it.
  let redisKeys = 0;
  try {
    const pattern = `${space.keyPrefix.replace(/[*?[\]\\]/g, '\\$&')}*`;
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', 500);
      cursor = next;
      if (keys.length > 0) redisKeys += await redis.unlink(...keys);
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
  return { usageRows, redisKeys };
}
