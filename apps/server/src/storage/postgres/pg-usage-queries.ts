import type { UsageLogCursor, UsageLogFilter, UsageLogQuery } from '../types';

/** A WHERE clause over numbered parameters, and their values. */
interface Filter {
  where: string;
  values: unknown[];
}

/** WHERE clause of a usage query; `to` is exclusive. The same filters as SQLite's. */
function filters(query: UsageLogFilter, values: unknown[] = []): Filter {
  const clauses: string[] = [];
  const add = (column: string, operator: string, value: string | number | undefined) => {
    if (value === undefined) return;
    values.push(value);
    clauses.push(`${column} ${operator} $${values.length}`);
  };
  add('token_id', '=', query.tokenId);
  add('account_id', '=', query.accountId);
  add('requested_model', '=', query.model);
  add('status', '=', query.status);
  add('endpoint', '=', query.endpoint);
  add('created_at', '>=', query.from);
  add('created_at', '<', query.to);
  return { where: clauses.length ? clauses.join(' AND ') : 'true', values };
}

/**
 * The listing's statements: the total, then one page newest first — `created_at DESC, id DESC`,
 * as on SQLite — which every filter's index (column, created_at, id) yields without a sort.
 */
export function pgListingSql(query: UsageLogQuery): { count: string; rows: string; values: unknown[]; pageValues: unknown[] } {
  const { where, values } = filters(query);
  const page = values.length;
  return {
    count: `SELECT COUNT(*) AS n FROM usage_log WHERE ${where}`,
    rows: `SELECT * FROM usage_log WHERE ${where} ORDER BY created_at DESC, id DESC LIMIT $${page + 1} OFFSET $${page + 2}`,
    values,
    pageValues: [...values, query.perPage, (query.page - 1) * query.perPage],
  };
}

/**
 * One keyset page, newest first, strictly after the cursor in `created_at DESC, id DESC` order:
 * the row comparison reads on from the filter's index (column, created_at, id), no OFFSET.
 */
export function pgKeysetSql(filter: UsageLogFilter, after: UsageLogCursor | null, limit: number): { sql: string; values: unknown[] } {
  const { where, values } = filters(filter);
  let resume = '';
  if (after) {
    values.push(after.createdAt, after.id);
    resume = ` AND (created_at, id) < ($${values.length - 1}::timestamptz, $${values.length})`;
  }
  values.push(limit);
  return { sql: `SELECT * FROM usage_log WHERE ${where}${resume} ORDER BY created_at DESC, id DESC LIMIT $${values.length}`, values };
}
