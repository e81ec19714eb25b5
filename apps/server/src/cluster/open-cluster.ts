import type { Config } from '../config';
import type { Logger } from '../logger';
import { createLocalCluster, type Cluster } from './cluster';
import { createRedisCluster } from './redis/create-redis-cluster';

/**
 * Redis when REDIS_URL is set: limits, circuits and change messages shared by every instance.
 * Without it, this process's own — and when the database is shared anyway (PostgreSQL), caches
 * reload every RELAY_REFRESH_MS so other instances' changes are seen at least that late.
 */
export async function openCluster(config: Pick<Config, 'redis' | 'database' | 'refreshMs'>, instanceId: string, logger: Logger): Promise<Cluster> {
  if (config.redis) {
    const { url, keyPrefix, failureMode } = config.redis;
    return createRedisCluster({ url, keyPrefix, failureMode, refreshMs: config.refreshMs, instanceId, logger });
  }
  if (config.database) {
    logger.warn(
      { refreshMs: config.refreshMs },
      'DATABASE_URL without REDIS_URL: rate limits and circuit breakers count per instance, and changes made on another instance are seen within RELAY_REFRESH_MS',
    );
    return createLocalCluster(undefined, config.refreshMs);
  }
  return createLocalCluster();
}
