import Database from 'better-sqlite3';
import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import type { ChangeFeed } from '../../core/change-feed';
import { loadSecretKey } from '../../security/secret-key-source';
import type { SecretKeyring } from '../../security/secret-keyring';
import { withAdminKeyCheck } from '../admin-key-check';
import { sealedChannelKeys } from '../sealed-channel-keys';
import { sealedWebhookSecrets } from '../sealed-webhook-secrets';
import { guardStores } from '../store-faults';
import { withTokenKeyCache, type TokenKeyCacheOptions } from '../token-key-cache';
import type { Storage, StorageOptions } from '../types';
import { migrate } from './migrations';
import { SqliteAccountStore } from './sqlite-account-store';
import { SqliteAssistantStore } from './sqlite-assistant-store';
import { SqliteChannelStore } from './sqlite-channel-store';
import { SqlitePriceStore } from './sqlite-price-store';
import { SqliteCatalogueStore } from './sqlite-catalogue-store';
import { SqliteQuotaStore } from './sqlite-quota-store';
import { SqliteResponseStore } from './sqlite-response-store';
import { SqliteUpstreamObjectStore } from './sqlite-upstream-object-store';
import { SqliteTaskStore } from './sqlite-task-store';
import { SqliteTokenStore } from './sqlite-token-store';
import { SqliteUsageLogStore } from './sqlite-usage-log-store';
import { SqliteWebhookStore } from './sqlite-webhook-store';

export const SQLITE_FILE_NAME = 'relay.db';

/**
 * The database holds channel keys: the directory is created 0700 and the database 0600 before
 * SQLite opens it — SQLite gives its -wal and -shm files the database's mode. Files an older
 * version left readable are tightened; an existing directory is the operator's (a shared
 * volume, a backup user) and keeps its mode.
 */
function ownerOnly(dataDir: string, file: string): void {
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  fs.closeSync(fs.openSync(file, 'a', 0o600));
  for (const suffix of ['', '-wal', '-shm']) {
    try {
      fs.chmodSync(`${file}${suffix}`, 0o600);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
}

/** How any backend is opened beyond its address; every field has a default. */
export interface OpenStorageOptions extends Partial<StorageOptions> {
  keyCache?: TokenKeyCacheOptions;
  /** Where token changes are published and heard (a shared feed when several instances run). */
  changes?: ChangeFeed;
  /** SQLite: how long a write waits for another connection's lock before SQLITE_BUSY (default 5 s). */
  busyTimeoutMs?: number;
  /**
   * What seals channel keys at rest (config: RELAY_SECRET_KEY…). SQLite without it: the data
   * directory's `secret.key`, made when missing — what a relay started with no setting uses.
   */
  secrets?: SecretKeyring;
}

/**
 * Opens (creating when needed) `<dataDir>/relay.db` in WAL mode and brings its schema up to date.
 * Token lookups by key are served from memory (token-key-cache.ts). A busy, full or failing file
 * is raised as StoreUnavailableError.
 */
export function openSqliteStorage(dataDir: string, options: OpenStorageOptions = {}): Storage {
  const instanceId = options.instanceId ?? randomUUID();
  const file = path.join(dataDir, SQLITE_FILE_NAME);
  ownerOnly(dataDir, file);
  const secrets = options.secrets ?? loadSecretKey({ dataDir }).keyring;
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  db.pragma(`busy_timeout = ${Math.max(0, Math.floor(options.busyTimeoutMs ?? 5_000))}`);
  migrate(db);
  const tokens = new SqliteTokenStore(db);
  const storage: Storage = {
    kind: 'sqlite',
    accounts: withAdminKeyCheck(new SqliteAccountStore(db), async (digest) => (await tokens.findByKeyDigest(digest)) !== undefined),
    tokens,
    channels: sealedChannelKeys(new SqliteChannelStore(db), secrets),
    assistants: new SqliteAssistantStore(db),
    quota: new SqliteQuotaStore(db, instanceId),
    prices: new SqlitePriceStore(db),
    usageLog: new SqliteUsageLogStore(db),
    responses: new SqliteResponseStore(db),
    upstreamObjects: new SqliteUpstreamObjectStore(db),
    tasks: new SqliteTaskStore(db, instanceId),
    catalogue: new SqliteCatalogueStore(db),
    webhooks: sealedWebhookSecrets(new SqliteWebhookStore(db), secrets),
    ping: async () => {
      db.prepare('SELECT 1').get();
    },
    exclusive: (_name, work) => work(),
    close: async () => {
      db.close();
    },
  };
  return guardStores(withTokenKeyCache(storage, options.keyCache, options.changes));
}
