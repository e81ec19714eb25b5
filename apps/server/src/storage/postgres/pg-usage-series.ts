import type { UsageSeriesBucket, UsageSeriesFilter, UsageSeriesGroup } from '../types';
import { aggregateSpans } from '../usage-hours';

/** Each table's bucket start, a UTC hour or day (timestamptz, read back as ISO text). */
const ROLLUP_TIME: Record<UsageSeriesBucket, string> = { hour: 'hour', day: "date_trunc('day', hour, 'UTC')" };
const RAW_TIME: Record<UsageSeriesBucket, string> = { hour: "date_trunc('hour', created_at, 'UTC')", day: "date_trunc('day', created_at, 'UTC')" };
/** The group of a row; the rollup's 0 and '' (its stand-ins for NULL) read as NULL again. */
const ROLLUP_KEY: Record<UsageSeriesGroup, string> = {
  total: 'NULL::text',
  model: "NULLIF(requested_model, '')",
  channel: 'NULLIF(channel_id, 0)',
  token: 'NULLIF(token_id, 0)',
};
const RAW_KEY: Record<UsageSeriesGroup, string> = { total: 'NULL::text', model: "NULLIF(requested_model, '')", channel: 'channel_id', token: 'token_id' };
/** Names sort by their bytes (COLLATE "C"), as SQLite sorts them; ids as numbers. */
const ORDER_KEY: Record<UsageSeriesGroup, string> = { total: 'group_key', model: 'group_key COLLATE "C"', channel: 'group_key', token: 'group_key' };

const SUMS = 'SUM(prompt_tokens), SUM(completion_tokens), SUM(cache_read_tokens), SUM(cache_write_tokens), SUM(cost)';

/**
 * The series as one statement: the rollup's whole hours of [from, to) and the log's rows of the
 * partial hours at its ends (`aggregateSpans`), summed per bucket and group, NULL key first.
 * The same answer as SQLite's `sqliteSeriesSql`.
 */
export function pgSeriesSql(
  filter: UsageSeriesFilter,
  from: string,
  to: string,
  bucket: UsageSeriesBucket,
  groupBy: UsageSeriesGroup,
): { sql: string; values: unknown[] } {
  const spans = aggregateSpans(from, to);
  const values: unknown[] = [];
  const param = (value: unknown, type = '') => {
    values.push(value);
    return `$${values.length}${type}`;
  };
  // A token count is no model call: never in the series (issue 28).
  const clauses: string[] = ["endpoint <> 'count_tokens'"];
  if (filter.tokenId !== undefined) clauses.push(`token_id = ${param(filter.tokenId)}`);
  if (filter.accountId !== undefined) clauses.push(`account_id = ${param(filter.accountId)}`);
  if (filter.channelId !== undefined) clauses.push(`channel_id = ${param(filter.channelId)}`);
  if (filter.model !== undefined) clauses.push(`requested_model = ${param(filter.model)}`);
  const where = clauses.join(' AND ');
  const parts: string[] = [];
  if (spans.hours) {
    parts.push(`SELECT ${ROLLUP_TIME[bucket]}, ${ROLLUP_KEY[groupBy]}, SUM(requests), SUM(errors), ${SUMS} FROM usage_rollup
      WHERE ${where} AND hour >= ${param(spans.hours.from, '::timestamptz')} AND hour < ${param(spans.hours.to, '::timestamptz')} GROUP BY 1, 2`);
  }
  for (const span of spans.raw) {
    parts.push(`SELECT ${RAW_TIME[bucket]}, ${RAW_KEY[groupBy]}, COUNT(*), COUNT(*) FILTER (WHERE status >= 400), ${SUMS} FROM usage_log
      WHERE ${where} AND created_at >= ${param(span.from, '::timestamptz')} AND created_at < ${param(span.to, '::timestamptz')} GROUP BY 1, 2`);
  }
  if (parts.length === 0) return { sql: 'SELECT NULL AS time WHERE false', values: [] };
  return {
    sql: `WITH parts (bucket_start, group_key, requests, errors, prompt_tokens, completion_tokens, cache_read_tokens, cache_write_tokens, cost) AS (
        ${parts.join(' UNION ALL ')}
      )
      SELECT bucket_start AS time, group_key::text AS key, SUM(requests) AS requests, SUM(errors) AS errors,
        SUM(prompt_tokens) AS "promptTokens", SUM(completion_tokens) AS "completionTokens",
        SUM(cache_read_tokens) AS "cacheReadTokens", SUM(cache_write_tokens) AS "cacheWriteTokens", SUM(cost) AS cost
      FROM parts GROUP BY bucket_start, group_key ORDER BY bucket_start, ${ORDER_KEY[groupBy]} NULLS FIRST`,
    values,
  };
}
