import type { UsageLogCursor, UsageLogFilter, UsageLogQuery } from '../types';
import { aggregateSpans } from '../usage-hours';

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

const TOTALS = 'SUM(prompt_tokens), SUM(completion_tokens), SUM(cache_read_tokens), SUM(cache_write_tokens), SUM(cost)';

/**
 * The aggregate as one statement: the rollup's whole hours of the range and the log's rows of
 * the partial hours at its ends (`aggregateSpans`), summed per key. Keys sort by their bytes
 * (COLLATE "C"), as SQLite sorts them.
 */
export function pgAggregateSql(
  scope: { tokenId?: number; accountId?: number },
  from: string,
  to: string,
  groupBy: 'day' | 'model',
): { sql: string; values: unknown[] } {
  const spans = aggregateSpans(from, to);
  const { where, values } = filters({ tokenId: scope.tokenId, accountId: scope.accountId });
  const param = (value: string) => {
    values.push(value);
    return `$${values.length}::timestamptz`;
  };
  const parts: string[] = [];
  if (spans.hours) {
    const key = groupBy === 'day' ? "to_char(hour AT TIME ZONE 'UTC', 'YYYY-MM-DD')" : 'requested_model';
    parts.push(`SELECT ${key}, SUM(requests), ${TOTALS} FROM usage_rollup
      WHERE ${where} AND hour >= ${param(spans.hours.from)} AND hour < ${param(spans.hours.to)} GROUP BY 1`);
  }
  for (const span of spans.raw) {
    const key = groupBy === 'day' ? "to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD')" : "COALESCE(requested_model, '')";
    parts.push(`SELECT ${key}, COUNT(*), ${TOTALS} FROM usage_log
      WHERE ${where} AND created_at >= ${param(span.from)} AND created_at < ${param(span.to)} GROUP BY 1`);
  }
  if (parts.length === 0) return { sql: 'SELECT NULL AS key WHERE false', values: [] };
  return {
    sql: `WITH parts (key, requests, prompt_tokens, completion_tokens, cache_read_tokens, cache_write_tokens, cost) AS (
        ${parts.join(' UNION ALL ')}
      )
      SELECT key, SUM(requests) AS requests, SUM(prompt_tokens) AS "promptTokens", SUM(completion_tokens) AS "completionTokens",
        SUM(cache_read_tokens) AS "cacheReadTokens", SUM(cache_write_tokens) AS "cacheWriteTokens", SUM(cost) AS cost
      FROM parts GROUP BY key ORDER BY key COLLATE "C"`,
    values,
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
