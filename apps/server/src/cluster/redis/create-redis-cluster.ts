import type Redis from 'ioredis';
import type { Logger } from '../../logger';
import type { Cluster } from '../cluster';
import type { FailureMode } from './limits-unavailable';
import { RedisChangeFeed } from './redis-change-feed';
import { RedisCircuitSync } from './redis-circuit-sync';
import { RedisAffinityStore } from './redis-affinity-store';
import { RedisCloudTokenStore } from './redis-cloud-token-store';
import { closeConnection, createRedisConnection } from './redis-connection';
import { RedisRateLimiter } from './redis-rate-limiter';
import { RedisSubscriber } from './redis-subscriber';
import { describeError } from '../../core/throttled-log';

export interface RedisClusterOptions {
  /** REDIS_URL; may hold a password, so it is never logged. */
  url: string;
  keyPrefix: string;
  failureMode: FailureMode;
  /** RELAY_REFRESH_MS: caches reload this often without a message; the subscriber is checked as often. */
  refreshMs: number;
  instanceId: string;
  logger: Logger;
  /** A Redis command without an answer by then fails (default 400 ms). */
  commandTimeoutMs?: number;
  /** How long a silent instance's concurrency slots still count (default 30 s). */
  slotLeaseMs?: number;
  /** How often the subscriber is PINGed to notice a silent connection (default: refreshMs, at most 5 s). */
  subscriberCheckMs?: number;
}

/** A Redis-backed cluster; its limiter is exposed as what it is, for tests and metrics. */
export type RedisCluster = Cluster & { kind: 'redis'; rateLimiter: RedisRateLimiter };

const FIRST_CONNECT_WAIT_MS = 2_500;

/**
 * The instances' shared state in Redis (issue 15): two connections — commands (limits, circuits,
 * PUBLISH) and the subscriber. Start-up waits for the first connection attempt only: a Redis
 * that is not there yet is logged and the relay runs degraded (limits per `failureMode`,
 * circuits and caches local plus the periodic refresh) until the connections come up by themselves.
 */
export async function createRedisCluster(options: RedisClusterOptions): Promise<RedisCluster> {
  const { url, keyPrefix, instanceId, logger, failureMode } = options;
  const connection = (name: string) => createRedisConnection({ url, name, logger, commandTimeoutMs: options.commandTimeoutMs });
  const commands = connection('commands');
  const subscriberConnection = connection('subscriber');
  const subscriber = new RedisSubscriber(subscriberConnection, logger, options.subscriberCheckMs ?? Math.min(options.refreshMs, 5_000));
  const rateLimiter = new RedisRateLimiter({ redis: commands, keyPrefix, instanceId, failureMode, logger, slotLeaseMs: options.slotLeaseMs });
  const changes = new RedisChangeFeed({ redis: commands, subscriber, keyPrefix, instanceId, refreshMs: options.refreshMs, logger });
  const circuits = new RedisCircuitSync({ redis: commands, subscriber, keyPrefix, instanceId, logger });

  const connected = await Promise.all([
    firstAttempt(commands, whenEmitted(commands, 'ready')),
    firstAttempt(subscriberConnection, subscriber.subscribed),
  ]);
  if (connected.every(Boolean)) logger.info({ keyPrefix }, 'redis connected: limits, circuits and cache changes shared');
  else logger.warn({ failureMode }, `redis not reachable at start; running degraded (limits fail ${failureMode}) and reconnecting`);

  return {
    kind: 'redis',
    changes,
    circuits,
    rateLimiter,
    affinities: new RedisAffinityStore({ redis: commands, keyPrefix, logger }),
    cloudTokens: new RedisCloudTokenStore({ redis: commands, keyPrefix, logger }),
    failureMode,
    ping: async () => {
      // Bounded: no offline queue (fails at once while disconnected) and the command timeout.
      try {
        await commands.ping();
      } catch (error) {
        throw new Error(`redis does not answer: ${describeError(error)}`);
      }
    },
    close: async () => {
      await changes.close();
      subscriber.close();
      await rateLimiter.close();
      await Promise.all([closeConnection(commands), closeConnection(subscriberConnection)]);
    },
  };
}

/**
 * True once `connected` resolves; false when the first connection attempt fails (or hangs past
 * the wait): the connection keeps retrying by itself.
 */
function firstAttempt(redis: Redis, connected: Promise<void>): Promise<boolean> {
  return new Promise<boolean>((resolve) => {
    const settle = (ok: boolean) => {
      clearTimeout(timer);
      redis.off('reconnecting', onFailed);
      resolve(ok);
    };
    const onFailed = () => settle(false);
    const timer = setTimeout(onFailed, FIRST_CONNECT_WAIT_MS);
    redis.once('reconnecting', onFailed);
    void connected.then(() => settle(true));
  });
}

function whenEmitted(redis: Redis, event: 'ready'): Promise<void> {
  if (redis.status === event) return Promise.resolve();
  return new Promise<void>((resolve) => redis.once(event, () => resolve()));
}
