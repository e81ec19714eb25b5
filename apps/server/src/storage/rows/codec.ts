/**
 * A JSON column as a backend reads it: SQLite keeps the text, PostgreSQL's driver hands json and
 * jsonb parsed. The row codec turns either into the value.
 */
export type JsonColumn<T> = T | string;

/**
 * What the two backends store differently, for the row mappers both share. bigint, numeric and
 * timestamptz need nothing: the pool's type parsers read them as numbers and ISO text already.
 */
export interface RowCodec {
  /** A JSON column read back; SQL NULL stays null. */
  json<T>(stored: JsonColumn<T> | null): T | null;
  /** A flag as written: SQLite binds no booleans, only 0/1. */
  flag(value: boolean): number | boolean;
}

export const SQLITE_CODEC: RowCodec = {
  json: <T>(stored: JsonColumn<T> | null): T | null => (stored === null ? null : (JSON.parse(stored as string) as T)),
  flag: (value) => (value ? 1 : 0),
};

export const PG_CODEC: RowCodec = {
  json: <T>(stored: JsonColumn<T> | null): T | null => (stored as T | null) ?? null,
  flag: (value) => value,
};

/** A NOT NULL JSON column read back: the codec answers null only for SQL NULL, which it never holds. */
export const requiredJson = <T>(codec: RowCodec, stored: JsonColumn<T>): T => codec.json(stored) as T;

/** A flag read back: SQLite's 0/1 or PostgreSQL's boolean. */
export const flagOf = (stored: number | boolean): boolean => stored === true || stored === 1;

/**
 * A JSON column as written, on both backends: text (PostgreSQL's SQL casts it), null stays SQL
 * NULL, never the JSON `null`. Never an array as such, which `pg` would send as a PostgreSQL array.
 */
export const jsonColumn = (value: unknown): string | null => (value === null || value === undefined ? null : JSON.stringify(value));
