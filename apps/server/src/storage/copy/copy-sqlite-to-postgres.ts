import type pg from 'pg';
import type { SecretKeyring } from '../../security/secret-keyring';
import { migratePostgres } from '../postgres/migrations';
import { createPgPool, inTransaction, quoteSchema } from '../postgres/pg-pool';
import { checkChannelKeys, type ChannelKeysCopy } from './channel-keys-copy';
import { converter, pgColumns, type ColumnChanges, type PgColumn, type PgValue } from './pg-values';
import { COPIED_TABLES, CopyRefusedError, openSqliteSource, type CopiedTable, type SqliteSource } from './sqlite-source';

export { CopyRefusedError } from './sqlite-source';

export interface CopyOptions {
  /** The relay's SQLite database (`<RELAY_DATA_DIR>/relay.db`), opened read-only. */
  sqliteFile: string;
  /** postgres://… */
  url: string;
  /** Where the relay's tables go (DATABASE_SCHEMA); created and migrated when needed. */
  schema: string;
  /**
   * The secret the relay sealed channel keys with (its `secret.key`, or RELAY_SECRET_KEY), read
   * once the database is open: every key must open with it — the PostgreSQL instances are started
   * with the same one — and a key stored in the clear is sealed with it.
   */
  secrets: () => SecretKeyring;
  /** Called after each table with the rows copied so far; `done` once the table is whole. */
  onProgress?: (progress: { table: CopiedTable; rows: number; done: boolean }) => void;
}

export interface CopyResult {
  tables: Array<{ table: CopiedTable; rows: number }>;
  /** Where the copy is not exact (values PostgreSQL cannot hold as they were); empty normally. */
  notes: string[];
}

/** Rows per INSERT: large enough to cost little per row, small enough to keep memory flat. */
const ROWS_PER_INSERT = 1_000;
/** PostgreSQL's limit of parameters in one statement. */
const MAX_PARAMETERS = 65_535;
/** usage_log and its like report progress every so many rows. */
const PROGRESS_EVERY = 100_000;

/** A column name as it appears in SQL: the names come from PostgreSQL's catalog, checked plain here too. */
const ident = (name: string): string => {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`not a plain column name: ${JSON.stringify(name)}`);
  return `"${name}"`;
};

/**
 * Copies the relay's SQLite database into a PostgreSQL schema, for moving a relay to several
 * instances (docs/SCALING.md). The SQLite file must be at the version this code writes (it is
 * opened read-only, never migrated here). The schema is migrated first; then, in ONE
 * transaction with every relay table locked: refused when any of them holds rows (the prices
 * the migration seeds aside — they are replaced by the copied ones), every table copied with
 * its ids, column by column in PostgreSQL's types, and each identity sequence moved past the
 * highest id SQLite ever gave (deleted rows included, so no new row takes an old row's id that
 * the usage log still names). Either everything is copied or nothing is.
 */
export async function copySqliteToPostgres(options: CopyOptions): Promise<CopyResult> {
  const source = openSqliteSource(options.sqliteFile);
  try {
    // Refused before PostgreSQL is touched when a key does not open with the secret given.
    const channelKeys = checkChannelKeys(source, options.secrets());
    const pool = createPgPool({ url: options.url, schema: options.schema, maxConnections: 1 });
    try {
      await migratePostgres(pool, options.schema);
      return await inTransaction(pool, (client) => copyAll(client, source, options, channelKeys));
    } finally {
      await pool.end();
    }
  } finally {
    source.close();
  }
}

async function copyAll(client: pg.PoolClient, source: SqliteSource, options: CopyOptions, channelKeys: ChannelKeysCopy): Promise<CopyResult> {
  const schema = quoteSchema(options.schema);
  const qualified = (table: string) => `${schema}.${table}`;
  // Nothing else writes (a relay started meanwhile waits) or reads a half-copied table.
  await client.query(`LOCK TABLE ${COPIED_TABLES.map(qualified).join(', ')} IN ACCESS EXCLUSIVE MODE`);
  await refuseNonEmpty(client, qualified);
  await client.query(`DELETE FROM ${qualified('prices')}`);

  const tables: CopyResult['tables'] = [];
  const notes: string[] = [];
  for (const table of COPIED_TABLES) {
    const columns = await matchedColumns(client, source, options.schema, table);
    const changes = new Map(columns.map((column) => [column.name, { nulReplaced: 0, timesReshaped: 0 }]));
    let rows: number;
    try {
      rows = await copyTable(client, source, qualified(table), table, columns, changes, options.onProgress, channelKeys);
    } catch (error) {
      throw new Error(`copying ${table}: ${(error as Error).message}`);
    }
    tables.push({ table, rows });
    notes.push(...describeChanges(table, changes));
    if (table === 'channels' && channelKeys.sealed > 0) {
      notes.push(`channels.keys: ${channelKeys.sealed} key(s) stored in the clear (or under RELAY_SECRET_KEY_PREVIOUS) sealed with the secret key`);
    }
    await moveSequences(client, source, options.schema, table, columns);
  }
  return { tables, notes };
}

/** Refuses a target that already holds the relay's data: the copy never merges two databases. */
async function refuseNonEmpty(client: pg.PoolClient, qualified: (table: string) => string): Promise<void> {
  const held: string[] = [];
  for (const table of COPIED_TABLES) {
    if (table === 'prices') continue;
    const { rows } = await client.query<{ n: number }>(`SELECT COUNT(*) AS n FROM ${qualified(table)}`);
    const n = Number(rows[0]?.n ?? 0);
    if (n > 0) held.push(`${table} (${n})`);
  }
  if (held.length > 0) {
    throw new CopyRefusedError(`the target schema already holds data: ${held.join(', ')}; copy into an empty database or schema (--schema)`);
  }
}

/** The PostgreSQL columns of `table` in SQLite's column order; every SQLite column must have one. */
async function matchedColumns(client: pg.PoolClient, source: SqliteSource, schema: string, table: CopiedTable): Promise<PgColumn[]> {
  const target = new Map((await pgColumns(client, schema, table)).map((column) => [column.name, column]));
  return source.columns(table).map((name) => {
    const column = target.get(name);
    if (!column) throw new Error(`${table}.${name} has no column in PostgreSQL's ${table}: the two schemas are not the same version`);
    return column;
  });
}

async function copyTable(
  client: pg.PoolClient,
  source: SqliteSource,
  target: string,
  table: CopiedTable,
  columns: readonly PgColumn[],
  changes: Map<string, ColumnChanges>,
  onProgress: CopyOptions['onProgress'],
  channelKeys: ChannelKeysCopy,
): Promise<number> {
  const convert = columns.map((column) => {
    const one = converter(column, changes.get(column.name) ?? { nulReplaced: 0, timesReshaped: 0 });
    const sealing = table === 'channels' && column.name === 'keys';
    return (value: Parameters<typeof one>[0]) => {
      if (sealing) value = channelKeys.rewrite(value);
      try {
        return one(value);
      } catch (error) {
        throw new Error(`${table}.${(error as Error).message}`);
      }
    };
  });
  const perInsert = Math.min(ROWS_PER_INSERT, Math.floor(MAX_PARAMETERS / columns.length));
  const insertOf = insertStatement(target, columns);
  let copied = 0;
  let chunk: PgValue[] = [];
  let chunkRows = 0;
  const flush = async () => {
    if (chunkRows === 0) return;
    // A whole chunk's statement is prepared once per table (named), the last one runs as it is.
    const name = chunkRows === perInsert ? `copy_${table}_${perInsert}` : undefined;
    try {
      await client.query({ name, text: insertOf(chunkRows), values: chunk });
    } catch (error) {
      throw new Error(`${(error as Error).message} (${whereInChunk(columns, chunk, chunkRows, copied)})`);
    }
    const before = copied;
    copied += chunkRows;
    chunk = [];
    chunkRows = 0;
    if (Math.floor(copied / PROGRESS_EVERY) > Math.floor(before / PROGRESS_EVERY)) onProgress?.({ table, rows: copied, done: false });
  };
  for (const row of source.rows(table, columns.map((column) => column.name))) {
    row.forEach((value, index) => chunk.push((convert[index] as (typeof convert)[number])(value)));
    chunkRows += 1;
    if (chunkRows === perInsert) await flush();
  }
  await flush();
  onProgress?.({ table, rows: copied, done: true });
  return copied;
}

/** Where a refused chunk lies: the ids it holds when the table has them, else its place in the table. */
function whereInChunk(columns: readonly PgColumn[], chunk: readonly PgValue[], rows: number, before: number): string {
  const idIndex = columns.findIndex((column) => column.name === 'id');
  if (idIndex < 0) return `in rows ${before + 1}–${before + rows} as SQLite lists them`;
  const first = chunk[idIndex];
  const last = chunk[(rows - 1) * columns.length + idIndex];
  return `in the rows with id ${String(first)}–${String(last)}`;
}

/** `INSERT … VALUES (…), (…)` for `rows` rows, each parameter cast to its column's type. */
function insertStatement(target: string, columns: readonly PgColumn[]): (rows: number) => string {
  const names = columns.map((column) => ident(column.name)).join(', ');
  return (rows) => {
    const tuples: string[] = [];
    for (let row = 0; row < rows; row++) {
      const base = row * columns.length;
      tuples.push(`(${columns.map((column, index) => `$${base + index + 1}::${column.type}`).join(', ')})`);
    }
    return `INSERT INTO ${target} (${names}) VALUES ${tuples.join(', ')}`;
  };
}

/**
 * Each identity column's sequence goes to the highest id either side knows — the copied rows',
 * and SQLite's AUTOINCREMENT counter, which remembers deleted rows — so the next row PostgreSQL
 * gives an id is numbered as SQLite would have numbered it.
 */
async function moveSequences(client: pg.PoolClient, source: SqliteSource, schema: string, table: CopiedTable, columns: readonly PgColumn[]): Promise<void> {
  for (const column of columns) {
    if (!column.identity) continue;
    const target = `${quoteSchema(schema)}.${table}`;
    const { rows } = await client.query<{ highest: number | null }>(`SELECT MAX(${ident(column.name)}) AS highest FROM ${target}`);
    const highest = Math.max(Number(rows[0]?.highest ?? 0), column.name === 'id' ? source.highestIdGiven(table) : 0);
    if (highest <= 0) continue;
    await client.query('SELECT setval(pg_get_serial_sequence($1, $2), $3::bigint, true)', [target, column.name, highest]);
  }
}

function describeChanges(table: CopiedTable, changes: ReadonlyMap<string, ColumnChanges>): string[] {
  const notes: string[] = [];
  for (const [column, counted] of changes) {
    if (counted.nulReplaced > 0) {
      notes.push(`${table}.${column}: ${counted.nulReplaced} value(s) held U+0000, which PostgreSQL cannot store; replaced by U+FFFD`);
    }
    if (counted.timesReshaped > 0) {
      notes.push(`${table}.${column}: ${counted.timesReshaped} time(s) not written as the relay writes them; the same instants copied, read back in ISO form`);
    }
  }
  return notes;
}
