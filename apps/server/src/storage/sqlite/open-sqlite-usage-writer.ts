import Database from 'better-sqlite3';
import path from 'node:path';
import { writeUsageBatch, type UsageSink } from '../usage-sink';
import { SQLITE_FILE_NAME } from './open-sqlite';
import { SqliteTokenStore } from './sqlite-token-store';
import { SqliteUsageLogStore } from './sqlite-usage-log-store';

/**
 * A second connection to `<dataDir>/relay.db` that only writes usage batches — what the usage
 * writer thread runs. The relay's own connection has created and migrated the file; WAL lets the
 * two write in turn and read alongside.
 */
export function openSqliteUsageWriter(dataDir: string): UsageSink {
  const db = new Database(path.join(dataDir, SQLITE_FILE_NAME), { fileMustExist: true });
  db.pragma('busy_timeout = 5000');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  const usageLog = new SqliteUsageLogStore(db);
  const tokens = new SqliteTokenStore(db);
  return {
    write: (batch) => writeUsageBatch(usageLog, tokens, batch),
    close: async () => {
      db.close();
    },
  };
}
