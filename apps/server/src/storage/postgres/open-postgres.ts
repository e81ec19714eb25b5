import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import type { SecretKeyring } from '../../security/secret-keyring';
import { withAdminKeyCheck } from '../admin-key-check';
import { sealedChannelKeys } from '../sealed-channel-keys';
import { sealedWebhookSecrets } from '../sealed-webhook-secrets';
import type { OpenStorageOptions } from '../sqlite/open-sqlite';
import { guardStores } from '../store-faults';
import { withTokenKeyCache } from '../token-key-cache';
import type { Storage } from '../types';
import { migratePostgres } from './migrations';
import { PgAccountStore } from './pg-account-store';
import { PgAssistantStore } from './pg-assistant-store';
import { PgChannelStore } from './pg-channel-store';
import { PgPriceStore } from './pg-price-store';
import { PgCatalogueStore } from './pg-catalogue-store';
import { PgTokenStore } from './pg-token-store';
import { createPgPool, underAdvisoryLock, type PostgresConnection } from './pg-pool';
import { PgQuotaStore } from './pg-quota-store';
import { PgResponseStore } from './pg-response-store';
import { PgUpstreamObjectStore } from './pg-upstream-object-store';
import { PgTaskStore } from './pg-task-store';
import { PgUsageLogStore } from './pg-usage-log-store';
import { PgWebhookStore } from './pg-webhook-store';

/** The stores over one pool (what `openPostgresStorage` wraps; a test may build them on its own pool). */
export function postgresStores(pool: pg.Pool, instanceId: string, secrets: SecretKeyring): Omit<Storage, 'ping' | 'close' | 'kind' | 'exclusive'> {
  const tokens = new PgTokenStore(pool);
  return {
    accounts: withAdminKeyCheck(new PgAccountStore(pool), async (digest) => (await tokens.findByKeyDigest(digest)) !== undefined),
    tokens,
    channels: sealedChannelKeys(new PgChannelStore(pool), secrets),
    assistants: new PgAssistantStore(pool),
    quota: new PgQuotaStore(pool, instanceId),
    prices: new PgPriceStore(pool),
    usageLog: new PgUsageLogStore(pool),
    responses: new PgResponseStore(pool),
    upstreamObjects: new PgUpstreamObjectStore(pool),
    tasks: new PgTaskStore(pool, instanceId),
    catalogue: new PgCatalogueStore(pool),
    webhooks: sealedWebhookSecrets(new PgWebhookStore(pool), secrets),
  };
}

/**
 * Opens the relay's tables in PostgreSQL (DATABASE_URL, in DATABASE_SCHEMA), bringing the schema
 * up to date under an advisory lock first. Token lookups by key are served from memory, emptied
 * by the change feed when any instance changes a token. What the database cannot answer is
 * raised as StoreUnavailableError. `secrets` is required: every instance sharing the database
 * must seal and open channel keys with the same RELAY_SECRET_KEY.
 */
export async function openPostgresStorage(
  connection: PostgresConnection,
  options: OpenStorageOptions & { secrets: SecretKeyring; onPoolError?: (error: Error) => void },
): Promise<Storage> {
  const pool = createPgPool(connection, options.onPoolError);
  try {
    await migratePostgres(pool, connection.schema);
  } catch (error) {
    await pool.end().catch(() => undefined);
    throw error;
  }
  const instanceId = options.instanceId ?? randomUUID();
  const storage: Storage = {
    kind: 'postgres',
    ...postgresStores(pool, instanceId, options.secrets),
    ping: async () => {
      await pool.query('SELECT 1');
    },
    exclusive: (name, work) => underAdvisoryLock(pool, `chat-relay ${name} ${connection.schema}`, () => work()),
    close: () => pool.end(),
  };
  return guardStores(withTokenKeyCache(storage, options.keyCache, options.changes));
}
