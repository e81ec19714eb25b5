import { startUpstreamSim, type UpstreamSim } from '@chat-relay/upstream-sim';
import Redis from 'ioredis';
import type pg from 'pg';
import { createPgPool } from '../../../src/storage/postgres/pg-pool';
import { dropSchema, TEST_DATABASE_URL, uniqueSchemaName } from '../../storage/testing/store-backends';
import { spawnRelay, type SpawnedRelay } from '../../testing/spawn-relay';
import { adminCall } from '../../testing/spawned-setup';

/** `REDIS_URL` when the environment gives one (CI does). */
export const TEST_REDIS_URL = process.env['REDIS_URL']?.trim() || undefined;

export const SKIP_LINE = 'two-instance specs skipped: DATABASE_URL and REDIS_URL must be set';

/** The only key the simulators accept: the channels', never a relay token. */
export const SIM_KEY = 'sk-sim-two-instances';

/**
 * A price that makes every request's cost known in advance: prompts free, 1,000 micro-USD per
 * completion token — a request with `max_tokens: 5` whose echo is longer than 5 tokens reserves
 * exactly 5,000 and is charged exactly 5,000.
 */
export const MICRO_USD_PER_COMPLETION_TOKEN = 1_000;
export const FLAT_PRICE = { model: 'gpt-4o', input: 0, output: MICRO_USD_PER_COMPLETION_TOKEN * 1_000_000 };

/**
 * `describe` when PostgreSQL and Redis are there; otherwise the block is skipped and says why
 * on stderr, so a run without them is never mistaken for a green one.
 */
export function describeTwoInstances(title: string, suite: () => void): void {
  if (TEST_DATABASE_URL && TEST_REDIS_URL) {
    describe(title, suite);
    return;
  }
  process.stderr.write(`${SKIP_LINE} (${title})\n`);
  describe.skip(title, suite);
}

export type InstanceName = 'a' | 'b';

export interface ClusterOptions {
  /** Environment of both relays, beside what the harness sets. */
  env?: Record<string, string>;
  /** Per-instance environment, on top of `env`. */
  envOf?: Partial<Record<InstanceName, Record<string, string>>>;
  /** What the relays dial for Redis (a proxy in front of REDIS_URL); REDIS_URL otherwise. */
  redisUrl?: string;
  /** What the relays dial for PostgreSQL (a proxy in front of DATABASE_URL); DATABASE_URL otherwise. */
  databaseUrl?: string;
  /** Simulators to start (each gets a channel when `channels` is true). Default 1. */
  sims?: number;
  /** Create one `gpt-4o` channel per simulator through A's admin API. Default true. */
  channels?: boolean;
}

/** Two relays (A and B) on one PostgreSQL schema and one Redis key prefix, and the simulators. */
export interface TwoInstances {
  schema: string;
  keyPrefix: string;
  sims: UpstreamSim[];
  /** The relay processes by name; `restart` replaces one. */
  relay(name: InstanceName): SpawnedRelay;
  /** Starts `name` anew on the same schema and prefix (killing the old process if it still runs). */
  start(name: InstanceName, env?: Record<string, string>): Promise<SpawnedRelay>;
  /** A pool on the test schema, for reading what the relays wrote. */
  db: pg.Pool;
  /** The channel ids, in the order of `sims`. */
  channelIds: number[];
  /** A token through A's admin API: its id and key. */
  createToken(body?: Record<string, unknown>): Promise<{ id: number; key: string }>;
  close(): Promise<void>;
}

function relayEnv(schema: string, keyPrefix: string, databaseUrl: string, redisUrl: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    DATABASE_URL: databaseUrl,
    DATABASE_SCHEMA: schema,
    DATABASE_POOL_MAX: '4',
    REDIS_URL: redisUrl,
    REDIS_KEY_PREFIX: keyPrefix,
    // Rows in the database soon after each answer; and changes travel by message, not by reload.
    RELAY_USAGE_FLUSH_MS: '50',
    RELAY_REFRESH_MS: '60000',
    RELAY_SHUTDOWN_GRACE_MS: '5000',
    ...extra,
  };
}

/** Deletes every key under `prefix` (SCAN, never FLUSH: other tests share this Redis). */
export async function deleteRedisPrefix(url: string, prefix: string): Promise<number> {
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  await redis.connect();
  let deleted = 0;
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
      cursor = next;
      if (keys.length > 0) deleted += await redis.del(...keys);
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
  return deleted;
}

/** Keys under `prefix` now (to show the relays really share state there). */
export async function redisKeys(url: string, prefix: string): Promise<string[]> {
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  await redis.connect();
  try {
    const found: string[] = [];
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
      cursor = next;
      found.push(...keys);
    } while (cursor !== '0');
    return found;
  } finally {
    redis.disconnect();
  }
}

/**
 * A fresh schema and key prefix, the simulators, then A and B started together (as a rolling
 * deploy or a scale-out does), the flat price and one channel per simulator set through A.
 */
export async function startTwoInstances(options: ClusterOptions = {}): Promise<TwoInstances> {
  const databaseUrl = TEST_DATABASE_URL;
  const realRedis = TEST_REDIS_URL;
  if (!databaseUrl || !realRedis) throw new Error(SKIP_LINE);
  const schema = uniqueSchemaName('two');
  const keyPrefix = `t2i:${schema}:`;
  const redisUrl = options.redisUrl ?? realRedis;
  const relayDatabaseUrl = options.databaseUrl ?? databaseUrl;
  const sims = await Promise.all(Array.from({ length: options.sims ?? 1 }, () => startUpstreamSim({ acceptedKeys: [SIM_KEY] })));
  const relays: Partial<Record<InstanceName, SpawnedRelay>> = {};
  const db = createPgPool({ url: databaseUrl, schema, maxConnections: 3 });

  const start = async (name: InstanceName, env: Record<string, string> = {}) => {
    // The process it replaces has exited (or is killed now); its data directory goes.
    await relays[name]?.close();
    const relay = await spawnRelay({ env: relayEnv(schema, keyPrefix, relayDatabaseUrl, redisUrl, { ...options.env, ...options.envOf?.[name], ...env }), startTimeoutMs: 20_000 });
    relays[name] = relay;
    return relay;
  };
  const relay = (name: InstanceName) => {
    const found = relays[name];
    if (!found) throw new Error(`relay ${name} is not running`);
    return found;
  };
  const close = async () => {
    await Promise.all(Object.values(relays).map((spawned) => spawned?.close()));
    await Promise.all(sims.map((sim) => sim.close()));
    await db.end();
    await dropSchema(databaseUrl, schema);
    await deleteRedisPrefix(realRedis, keyPrefix);
  };

  try {
    await Promise.all([start('a'), start('b')]);
    const a = relay('a');
    await adminCall(a, 'PUT', '/api/prices', { data: [FLAT_PRICE] });
    const channelIds: number[] = [];
    if (options.channels ?? true) {
      for (const [index, sim] of sims.entries()) {
        const channel = await adminCall<{ id: number }>(a, 'POST', '/api/channels', {
          name: `sim ${index}`,
          type: 'openai',
          base_url: sim.baseUrl,
          keys: [SIM_KEY],
          models: ['gpt-4o'],
        });
        channelIds.push(channel.id);
      }
    }
    return {
      schema,
      keyPrefix,
      sims,
      relay,
      start,
      db,
      channelIds,
      createToken: (body = {}) => adminCall<{ id: number; key: string }>(relay('a'), 'POST', '/api/tokens', { name: 'two-instances', ...body }),
      close,
    };
  } catch (error) {
    await close().catch(() => undefined);
    throw error;
  }
}

/** `startTwoInstances` for the enclosing describe, closed after its tests; the getter throws before it started. */
export function useTwoInstances(options: ClusterOptions | (() => ClusterOptions) = {}): () => TwoInstances {
  let cluster: TwoInstances | undefined;
  beforeAll(async () => {
    cluster = await startTwoInstances(typeof options === 'function' ? options() : options);
  }, 45_000);
  afterAll(async () => {
    await cluster?.close();
  }, 30_000);
  return () => {
    if (!cluster) throw new Error('the two instances did not start');
    return cluster;
  };
}
