import type { UsageLogCursor, UsageLogFilter, UsageLogQuery } from '../types';

/** The usage log's statements on SQLite, one builder each, so specs can EXPLAIN them. */

/**
 * The listing's two statements (the total, then one page newest first) and their parameters.
 * Newest first is `created_at DESC, id DESC` (as on PostgreSQL): every filter's index is
 * (column, created_at), the rowid last, so a page is read off the index without sorting.
 */
export function sqliteListingSql(query: UsageLogQuery): { count: string; rows: string; params: Record<string, string | number> } {
  const { where, params } = filters(query);
  return {
    count: `SELECT COUNT(*) AS n FROM usage_log WHERE ${where}`,
    rows: `SELECT * FROM usage_log WHERE ${where} ORDER BY created_at DESC, id DESC LIMIT :limit OFFSET :offset`,
    params: { ...params, limit: query.perPage, offset: (query.page - 1) * query.perPage },
  };
}

/** WHERE clause and named parameters of a usage query; `to` is exclusive. */
function filters(query: UsageLogFilter): { where: string; params: Record<string, string | number> } {
  const clauses: string[] = [];
  const params: Record<string, string | number> = {};
  const add = (clause: string, name: string, value: string | number | undefined) => {
    if (value === undefined) return;
    clauses.push(clause);
    params[name] = value;
  };
  add('token_id = :token', 'token', query.tokenId);
  add('account_id = :account', 'account', query.accountId);
  add('requested_model = :model', 'model', query.model);
  add('status = :status', 'status', query.status);
  add('endpoint = :endpoint', 'endpoint', query.endpoint);
  add('created_at >= :from', 'from', query.from);
  add('created_at < :to', 'to', query.to);
  return { where: clauses.length ? clauses.join(' AND ') : '1 = 1', params };
}

/**
 * One keyset page, newest first, strictly after the cursor in `created_at DESC, id DESC` order:
 * the row-value comparison reads on from the filter's index without an OFFSET to skip.
 */
export function sqliteKeysetSql(
  filter: UsageLogFilter,
  after: UsageLogCursor | null,
  limit: number,
): { sql: string; params: Record<string, string | number> } {
  const { where, params } = filters(filter);
  const resume = after ? ' AND (created_at, id) < (:afterCreatedAt, :afterId)' : '';
  if (after) Object.assign(params, { afterCreatedAt: after.createdAt, afterId: after.id });
  return {
    sql: `SELECT * FROM usage_log WHERE ${where}${resume} ORDER BY created_at DESC, id DESC LIMIT :limit`,
    params: { ...params, limit },
  };
}
