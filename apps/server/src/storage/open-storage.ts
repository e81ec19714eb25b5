import { throttledWarn } from '../cluster/redis/throttled-log';
import type { Config } from '../config';
import type { Logger } from '../logger';
import { openPostgresStorage } from './postgres/open-postgres';
import { openSqliteStorage, type OpenStorageOptions } from './sqlite/open-sqlite';
import type { Storage } from './types';

/** PostgreSQL when DATABASE_URL is set (several instances may share it), else SQLite in RELAY_DATA_DIR. */
export async function openStorage(config: Pick<Config, 'database' | 'dataDir'>, logger: Logger, options: OpenStorageOptions = {}): Promise<Storage> {
  if (!config.database) return openSqliteStorage(config.dataDir, options);
  const warn = throttledWarn(logger);
  const storage = await openPostgresStorage(config.database, {
    ...options,
    // An idle connection dropped by the server (restart, failover): the pool opens another.
    onPoolError: (error) => warn('pool', error, 'PostgreSQL connection lost; the pool reconnects'),
  });
  logger.info({ schema: config.database.schema }, 'storage: PostgreSQL');
  return storage;
}
