import Database from 'better-sqlite3';
import fs from 'node:fs';
import path from 'node:path';
import { withTokenKeyCache, type TokenKeyCacheOptions } from '../token-key-cache';
import type { Storage } from '../types';
import { migrate } from './migrations';
import { SqliteAccountStore } from './sqlite-account-store';
import { SqliteAssistantStore } from './sqlite-assistant-store';
import { SqliteChannelStore } from './sqlite-channel-store';
import { SqlitePriceStore } from './sqlite-price-store';
import { SqliteQuotaStore } from './sqlite-quota-store';
import { SqliteTokenStore } from './sqlite-token-store';
import { SqliteUsageLogStore } from './sqlite-usage-log-store';

export const SQLITE_FILE_NAME = 'relay.db';

/**
 * Opens (creating when needed) `<dataDir>/relay.db` in WAL mode and brings its schema up to date.
 * Token lookups by key are served from memory (token-key-cache.ts).
 */
export function openSqliteStorage(dataDir: string, keyCache: TokenKeyCacheOptions = {}): Storage {
  fs.mkdirSync(dataDir, { recursive: true });
  const db = new Database(path.join(dataDir, SQLITE_FILE_NAME));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  migrate(db);
  return withTokenKeyCache({
    accounts: new SqliteAccountStore(db),
    tokens: new SqliteTokenStore(db),
    channels: new SqliteChannelStore(db),
    assistants: new SqliteAssistantStore(db),
    quota: new SqliteQuotaStore(db),
    prices: new SqlitePriceStore(db),
    usageLog: new SqliteUsageLogStore(db),
    ping: async () => {
      db.prepare('SELECT 1').get();
    },
    close: async () => {
      db.close();
    },
  }, keyCache);
}
