import Database from 'better-sqlite3';
import fs from 'node:fs';
import { migrations } from '../sqlite/migrations';

/**
 * Every table the copy moves, parents before children: PostgreSQL checks each foreign key as
 * the rows arrive. `usage_rollup` is copied, not rebuilt from the log: it still holds the totals
 * of rows the retention job (RELAY_LOG_RETENTION_DAYS) deleted, which a rebuild would lose.
 */
export const COPIED_TABLES = [
  'accounts',
  'tokens',
  'channels',
  'assistants',
  'prices',
  'relay_instances',
  // Before the reservations: a task's reservation names it.
  'tasks',
  'quota_reservations',
  // What each periodic window counted (issue 32): keyed by owner, no ids of its own.
  'quota_windows',
  'usage_log',
  'usage_rollup',
  'stored_responses',
  'upstream_objects',
  'catalogue_overrides',
  'catalogue_dataset',
  // Secrets sealed with the relay's secret key, as channel keys: the copy is given that key.
  'webhooks',
  'webhook_deliveries',
  'alert_marks',
] as const;
export type CopiedTable = (typeof COPIED_TABLES)[number];

/** The target's own migration history, never copied. */
const NOT_COPIED = new Set(['schema_migrations']);

/** The SQLite version this code writes: the only one the copy reads. */
export const LATEST_SQLITE_VERSION = migrations.reduce((latest, migration) => Math.max(latest, migration.version), 0);

/** What the copy refuses before it touches PostgreSQL: the operator can fix it and run again. */
export class CopyRefusedError extends Error {}

/** A value as better-sqlite3 reads it with safe integers on: integers arrive as bigint, never rounded. */
export type SqliteValue = bigint | number | string | Buffer | null;

/** The relay's SQLite database, open read-only, in one read transaction (one snapshot for the whole copy). */
export interface SqliteSource {
  /** The table's columns in their order. */
  columns(table: CopiedTable): string[];
  count(table: CopiedTable): number;
  /** The rows as arrays in `columns` order, read one at a time (flat memory whatever the size). */
  rows(table: CopiedTable, columns: readonly string[]): IterableIterator<SqliteValue[]>;
  /** The highest id AUTOINCREMENT ever gave in `table` (deleted rows included); 0 when none. */
  highestIdGiven(table: CopiedTable): number;
  close(): void;
}

/**
 * Opens `file` read-only — the copy never changes it — and checks it is a relay database at
 * exactly the version this code writes. One behind is refused rather than migrated here: the
 * file stays as the operator left it, and starting the current relay on it once (then stopping
 * it) brings it up to date the usual way, backups and all.
 */
export function openSqliteSource(file: string): SqliteSource {
  if (!fs.existsSync(file)) throw new CopyRefusedError(`${file}: no such file (--from names the relay's database, e.g. ./data/relay.db)`);
  let db: Database.Database;
  try {
    db = new Database(file, { readonly: true, fileMustExist: true });
  } catch (error) {
    throw new CopyRefusedError(`${file}: cannot open it as a SQLite database (${(error as Error).message})`);
  }
  try {
    checkVersion(db, file);
    checkTables(db, file);
    db.exec('BEGIN');
  } catch (error) {
    db.close();
    throw error;
  }
  return sourceOver(db);
}

function checkVersion(db: Database.Database, file: string): void {
  let version: number | null;
  try {
    version = (db.prepare('SELECT MAX(version) AS version FROM schema_migrations').get() as { version: number | null }).version;
  } catch (error) {
    throw new CopyRefusedError(`${file}: not a chat-relay database (${(error as Error).message})`);
  }
  if (version === null) throw new CopyRefusedError(`${file}: not a chat-relay database (no migration recorded)`);
  if (version < LATEST_SQLITE_VERSION) {
    throw new CopyRefusedError(
      `${file} is at schema version ${version}, this tool copies version ${LATEST_SQLITE_VERSION}: start the current relay on it once ` +
        '(it migrates the database as it starts), stop it, then copy again',
    );
  }
  if (version > LATEST_SQLITE_VERSION) {
    throw new CopyRefusedError(
      `${file} is at schema version ${version}, written by a newer relay than this tool (version ${LATEST_SQLITE_VERSION}): use that release's copy tool`,
    );
  }
}

function checkTables(db: Database.Database, file: string): void {
  const present = (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'").all() as Array<{ name: string }>)
    .map((row) => row.name)
    .filter((name) => !NOT_COPIED.has(name));
  const known = new Set<string>(COPIED_TABLES);
  const unknown = present.filter((name) => !known.has(name));
  const missing = COPIED_TABLES.filter((name) => !present.includes(name));
  if (unknown.length > 0 || missing.length > 0) {
    throw new CopyRefusedError(
      `${file} does not hold the tables of version ${LATEST_SQLITE_VERSION}` +
        (unknown.length > 0 ? `; tables this tool does not know: ${unknown.join(', ')}` : '') +
        (missing.length > 0 ? `; missing: ${missing.join(', ')}` : ''),
    );
  }
}

function sourceOver(db: Database.Database): SqliteSource {
  const hasSequences = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'sqlite_sequence'").get() !== undefined;
  return {
    columns: (table) => (db.prepare(`PRAGMA table_info(${table})`).all() as Array<{ name: string }>).map((column) => column.name),
    count: (table) => (db.prepare(`SELECT COUNT(*) AS n FROM ${table}`).get() as { n: number }).n,
    rows: (table, columns) =>
      db
        .prepare(`SELECT ${columns.map((column) => `"${column}"`).join(', ')} FROM ${table}`)
        .safeIntegers(true)
        .raw(true)
        .iterate() as IterableIterator<SqliteValue[]>,
    highestIdGiven: (table) => {
      if (!hasSequences) return 0;
      const row = db.prepare('SELECT seq FROM sqlite_sequence WHERE name = ?').get(table) as { seq: number } | undefined;
      return row?.seq ?? 0;
    },
    close: () => {
      if (db.inTransaction) db.exec('COMMIT');
      db.close();
    },
  };
}
