import { throttledWarn } from '../core/throttled-log';
import type { Config } from '../config';
import type { Logger } from '../logger';
import { loadSecretKey } from '../security/secret-key-source';
import { openPostgresStorage } from './postgres/open-postgres';
import { openSqliteStorage, type OpenStorageOptions } from './sqlite/open-sqlite';
import type { Storage } from './types';

/**
 * PostgreSQL when DATABASE_URL is set (several instances may share it), else SQLite in
 * RELAY_DATA_DIR; channel keys sealed with the secret the configuration names.
 */
export async function openStorage(config: Pick<Config, 'database' | 'dataDir' | 'secrets'>, logger: Logger, options: OpenStorageOptions = {}): Promise<Storage> {
  const secret = loadSecretKey({ ...config.secrets, dataDir: config.dataDir });
  if (secret.created) {
    logger.info({ keyFile: secret.from }, `channel keys are sealed with a new secret key in ${secret.from}`);
    // Another instance would make a secret of its own and read none of these keys.
    if (config.database) logger.warn('RELAY_SECRET_KEY is not set: instances sharing this database must all be given the same one (docs/SCALING.md)');
  }
  const secrets = secret.keyring;
  if (!config.database) return openSqliteStorage(config.dataDir, { ...options, secrets });
  const warn = throttledWarn(logger);
  const storage = await openPostgresStorage(config.database, {
    ...options,
    secrets,
    // An idle connection dropped by the server (restart, failover): the pool opens another.
    onPoolError: (error) => warn('pool', error, 'PostgreSQL connection lost; the pool reconnects'),
  });
  logger.info({ schema: config.database.schema }, 'storage: PostgreSQL');
  return storage;
}
