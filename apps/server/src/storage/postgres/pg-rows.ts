import type pg from 'pg';
import type { Page, PageRequest } from '../types';

/** Either the pool or one transaction's client: the stores' queries run on both. */
export type Queryable = Pick<pg.PoolClient, 'query'>;

/**
 * Collects positional parameters while a query is built: `param(value)` answers its `$n`.
 * Values only ever travel as parameters; the SQL text is the store's own.
 */
export class Params {
  readonly values: unknown[] = [];

  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

/**
 * One page of `table` rows matching `where` (built with `params`), ordered by `orderBy`, and how
 * many match in all — as the SQLite stores page.
 */
export async function pageOf<Row extends pg.QueryResultRow, Record>(
  db: Queryable,
  query: { columns: string; table: string; where: string; orderBy: string; params: Params },
  request: PageRequest,
  toRecord: (row: Row) => Record,
): Promise<Page<Record>> {
  const { columns, table, where, orderBy, params } = query;
  const counted = await db.query<{ n: number }>(`SELECT COUNT(*) AS n FROM ${table} WHERE ${where}`, params.values);
  const limit = params.add(request.perPage);
  const offset = params.add((request.page - 1) * request.perPage);
  const { rows } = await db.query<Row>(
    `SELECT ${columns} FROM ${table} WHERE ${where} ORDER BY ${orderBy} LIMIT ${limit} OFFSET ${offset}`,
    params.values,
  );
  return { rows: rows.map(toRecord), total: counted.rows[0]?.n ?? 0 };
}

/** PostgreSQL's unique_violation: a primary key or unique index refused the row. */
export const isUniqueViolation = (error: unknown): boolean => (error as { code?: unknown } | null)?.code === '23505';

/**
 * An id to compare with an id column (as `$n::bigint`, so that the `integer` column's index
 * serves it): ids no row can have — beyond 2^53, or not whole, which the API lets through in
 * lists — become NULL and match nothing, as on SQLite, instead of failing the cast.
 */
export const idParam = (id: number): number | null => (Number.isSafeInteger(id) ? id : null);

/** Rows of values turned into one array per column, for `unnest`. */
export const columnsOf = <T>(rows: readonly T[][]): T[][] => (rows[0] ?? []).map((_, column) => rows.map((row) => row[column] as T));
