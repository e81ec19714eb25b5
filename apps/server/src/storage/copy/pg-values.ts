import type pg from 'pg';
import { z } from 'zod';
import type { SqliteValue } from './sqlite-source';

/** The PostgreSQL types the relay's schema uses (format_type's names): each has its conversion below. */
const PgTypeSchema = z.enum(['integer', 'bigint', 'double precision', 'text', 'boolean', 'timestamp with time zone', 'json', 'jsonb']);
export type PgType = z.infer<typeof PgTypeSchema>;

export interface PgColumn {
  name: string;
  type: PgType;
  /** GENERATED … AS IDENTITY: its sequence is moved past the copied ids. */
  identity: boolean;
}

const ColumnRowSchema = z.object({ name: z.string(), type: z.string(), identity: z.boolean() });

/** The columns of `schema.table` in their order, with the types the copy converts to. */
export async function pgColumns(db: Pick<pg.ClientBase, 'query'>, schema: string, table: string): Promise<PgColumn[]> {
  const { rows } = await db.query(
    `SELECT a.attname AS name, format_type(a.atttypid, a.atttypmod) AS type, a.attidentity <> '' AS identity
     FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE n.nspname = $1 AND c.relname = $2 AND a.attnum > 0 AND NOT a.attisdropped ORDER BY a.attnum`,
    [schema, table],
  );
  return rows.map((row: unknown) => {
    const column = ColumnRowSchema.parse(row);
    const type = PgTypeSchema.safeParse(column.type);
    if (!type.success) throw new Error(`${table}.${column.name} is ${column.type} in PostgreSQL, a type this tool does not convert to`);
    return { name: column.name, type: type.data, identity: column.identity };
  });
}

/** A parameter as node-postgres sends it (as text, cast to the column's type in the SQL). */
export type PgValue = string | number | boolean | null;

/** What a column's values went through on the way, when not an exact copy. */
export interface ColumnChanges {
  /** Values holding U+0000, which PostgreSQL's text and jsonb cannot: replaced by U+FFFD. */
  nulReplaced: number;
  /** Times not in the relay's own form (`toISOString`): PostgreSQL holds the same instant, written as the relay writes it. */
  timesReshaped: number;
}

const NUL = '\u0000';
const REPLACEMENT = '\uFFFD';

/** Every string (keys too) of a parsed JSON value with U+0000 replaced. */
function withoutNul(value: unknown): unknown {
  if (typeof value === 'string') return value.replaceAll(NUL, REPLACEMENT);
  if (Array.isArray(value)) return value.map(withoutNul);
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key.replaceAll(NUL, REPLACEMENT), withoutNul(inner)]));
  }
  return value;
}

const wrongType = (column: PgColumn, value: SqliteValue): Error =>
  new Error(`${column.name}: a ${value instanceof Buffer ? 'blob' : typeof value} (${String(value).slice(0, 40)}) where PostgreSQL wants ${column.type}`);

/**
 * The conversion of one SQLite value to the parameter for `column`: integers as their exact
 * digits, 0/1 as booleans, text as it is. JSON text goes as it is too — `json` columns keep it
 * byte for byte (key order, `\u0000` escapes), `jsonb` ones parse it as the PostgreSQL stores
 * write it. Only what PostgreSQL cannot hold is changed, and counted in `changes`.
 */
export function converter(column: PgColumn, changes: ColumnChanges): (value: SqliteValue) => PgValue {
  const text = (value: SqliteValue): string => {
    if (typeof value === 'string') return value;
    if (typeof value === 'bigint' || typeof value === 'number') return String(value);
    throw wrongType(column, value);
  };
  switch (column.type) {
    case 'integer':
    case 'bigint':
      return (value) => {
        if (value === null) return null;
        if (typeof value === 'bigint') return value.toString();
        if (typeof value === 'number' && Number.isInteger(value)) return String(value);
        throw wrongType(column, value);
      };
    case 'double precision':
      return (value) => {
        if (value === null) return null;
        if (typeof value === 'number') return value;
        if (typeof value === 'bigint') return value.toString();
        throw wrongType(column, value);
      };
    case 'boolean':
      return (value) => {
        if (value === null) return null;
        if (typeof value === 'bigint' || typeof value === 'number') return value !== 0n && value !== 0;
        throw wrongType(column, value);
      };
    case 'timestamp with time zone':
      return (value) => {
        if (value === null) return null;
        const written = text(value);
        const time = Date.parse(written);
        if (Number.isNaN(time)) throw new Error(`${column.name}: ${JSON.stringify(written.slice(0, 40))} is not a time`);
        if (new Date(time).toISOString() !== written) changes.timesReshaped += 1;
        return written;
      };
    case 'json':
      return (value) => (value === null ? null : text(value));
    case 'jsonb':
      return (value) => {
        if (value === null) return null;
        const json = text(value);
        // JSON.stringify writes U+0000 as this escape, which jsonb refuses (a literal "\\u0000" matches too, and is left as it is).
        if (!json.includes('\\u0000')) return json;
        const cleaned = JSON.stringify(withoutNul(JSON.parse(json)));
        if (cleaned !== JSON.stringify(JSON.parse(json))) changes.nulReplaced += 1;
        return cleaned;
      };
    case 'text':
      return (value) => {
        if (value === null) return null;
        const plain = text(value);
        if (!plain.includes(NUL)) return plain;
        changes.nulReplaced += 1;
        return plain.replaceAll(NUL, REPLACEMENT);
      };
  }
}
