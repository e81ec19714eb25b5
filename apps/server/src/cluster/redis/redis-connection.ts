import type Redis from 'ioredis';
import type { Logger } from '../../logger';
import { throttledWarn } from '../../core/throttled-log';

export interface RedisConnectionOptions {
  /** `redis://` or `rediss://`; may hold a password, so it is never logged. */
  url: string;
  /** What the logs and `CLIENT LIST` call this connection (`commands`, `subscriber`). */
  name: string;
  logger: Logger;
  /** A command without an answer by then fails (default 400 ms): a request never waits longer. */
  commandTimeoutMs?: number;
  /** A connection attempt that takes longer is given up and retried (default 2 s). */
  connectTimeoutMs?: number;
}

export const DEFAULT_COMMAND_TIMEOUT_MS = 400;
const DEFAULT_CONNECT_TIMEOUT_MS = 2_000;
/** Reconnection backoff: 100 ms, 200 ms, 400 ms … capped here. */
const MAX_RECONNECT_DELAY_MS = 2_000;

/** The delay before reconnection attempt `attempt` (1, 2, …): never gives up. */
export function reconnectDelay(attempt: number): number {
  return Math.min(MAX_RECONNECT_DELAY_MS, 100 * 2 ** Math.min(attempt - 1, 10));
}

/**
 * An ioredis client tuned never to hold a request up: commands fail at once while disconnected
 * (no offline queue) and after `commandTimeoutMs` when Redis does not answer; it reconnects by
 * itself with a capped backoff. Its errors go to the logger (throttled), never into the process.
 */
export function createRedisConnection(options: RedisConnectionOptions): Redis {
  const { name, logger } = options;
  // Required here, not imported: ioredis costs ~7 MB of RSS that a relay without REDIS_URL never uses.
  const { default: RedisClient } = require('ioredis') as typeof import('ioredis');
  const redis = new RedisClient(options.url, {
    connectionName: `chat-relay-${name}`,
    // Nothing waits for a connection: while Redis is away every command fails at once.
    enableOfflineQueue: false,
    commandTimeout: options.commandTimeoutMs ?? DEFAULT_COMMAND_TIMEOUT_MS,
    connectTimeout: options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS,
    maxRetriesPerRequest: 1,
    retryStrategy: reconnectDelay,
    // Subscriptions are renewed by their owner, which then knows messages may have been lost.
    autoResubscribe: false,
    // Commands cut off by a lost connection fail; they are not sent twice.
    autoResendUnfulfilledCommands: false,
    // A half-open connection (the peer vanished) is noticed in seconds, not the OS's two hours.
    keepAlive: 10_000,
    // A socket that does not close when asked is destroyed after this (its timer keeps a
    // process that is shutting down alive until then).
    disconnectTimeout: 500,
  });
  const warn = throttledWarn(logger);
  redis.on('error', (error: unknown) => warn('error', error, `redis ${name} connection: error`));
  let lost = false;
  // Not 'close': that also ends a connection closed on purpose, which does not reconnect.
  redis.on('reconnecting', () => {
    if (!lost) logger.warn({ connection: name }, `redis ${name} connection: not connected, retrying`);
    lost = true;
  });
  redis.on('ready', () => {
    if (lost) logger.info({ connection: name }, `redis ${name} connection back`);
    lost = false;
  });
  return redis;
}

/**
 * True once the connection is ready (at once when it is); false when it ends (closed on purpose)
 * or after `timeoutMs`. Never rejects, and its timer does not keep the process alive.
 */
export function untilReady(redis: Redis, timeoutMs: number): Promise<boolean> {
  if (redis.status === 'ready') return Promise.resolve(true);
  if (redis.status === 'end') return Promise.resolve(false);
  return new Promise<boolean>((resolve) => {
    const settle = (ready: boolean) => {
      clearTimeout(timer);
      redis.off('ready', onReady);
      redis.off('end', onEnd);
      resolve(ready);
    };
    const onReady = () => settle(true);
    const onEnd = () => settle(false);
    const timer = setTimeout(onEnd, timeoutMs);
    timer.unref();
    redis.once('ready', onReady);
    redis.once('end', onEnd);
  });
}

/**
 * Ends a connection so the process can exit: QUIT when connected (what was sent is answered
 * first), else a plain disconnect that also stops reconnecting. Resolves once it has ended.
 */
export async function closeConnection(redis: Redis): Promise<void> {
  if (hasEnded(redis)) return;
  const ended = new Promise<void>((resolve) => redis.once('end', () => resolve()));
  if (redis.status === 'ready') await redis.quit().catch(() => redis.disconnect());
  else redis.disconnect();
  await Promise.race([ended, new Promise<void>((resolve) => setTimeout(resolve, 1_000).unref())]);
  if (!hasEnded(redis)) redis.disconnect();
}

/** A function, not an inline comparison: the status changes while `closeConnection` awaits. */
function hasEnded(redis: Redis): boolean {
  return redis.status === 'end';
}
