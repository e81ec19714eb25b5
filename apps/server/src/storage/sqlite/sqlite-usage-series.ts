import type { UsageSeriesBucket, UsageSeriesFilter, UsageSeriesGroup } from '../types';
import { aggregateSpans } from '../usage-hours';

/** Each table's bucket start: times are ISO text, their first 13 (hour) or 10 (day) characters the UTC bucket. */
const ROLLUP_TIME: Record<UsageSeriesBucket, string> = { hour: 'hour', day: "substr(hour, 1, 10) || 'T00:00:00.000Z'" };
const RAW_TIME: Record<UsageSeriesBucket, string> = {
  hour: "substr(created_at, 1, 13) || ':00:00.000Z'",
  day: "substr(created_at, 1, 10) || 'T00:00:00.000Z'",
};
/** The group of a row; the rollup's 0 and '' (its stand-ins for NULL) read as NULL again. */
const ROLLUP_KEY: Record<UsageSeriesGroup, string> = {
  total: 'NULL',
  model: "NULLIF(requested_model, '')",
  channel: 'NULLIF(channel_id, 0)',
  token: 'NULLIF(token_id, 0)',
};
const RAW_KEY: Record<UsageSeriesGroup, string> = { total: 'NULL', model: "NULLIF(requested_model, '')", channel: 'channel_id', token: 'token_id' };

const SUMS = 'SUM(prompt_tokens), SUM(completion_tokens), SUM(cache_read_tokens), SUM(cache_write_tokens), SUM(cost)';

/** The filter's clauses, the same on the rollup and on the log (both name the columns alike). */
function seriesWhere(filter: UsageSeriesFilter): { where: string; params: Record<string, string | number> } {
  // A token count is no model call: never in the series (issue 28).
  const clauses: string[] = ["endpoint <> 'count_tokens'"];
  const params: Record<string, string | number> = {};
  const add = (column: string, value: string | number | undefined) => {
    if (value === undefined) return;
    clauses.push(`${column} = :${column}`);
    params[column] = value;
  };
  add('token_id', filter.tokenId);
  add('account_id', filter.accountId);
  add('channel_id', filter.channelId);
  add('requested_model', filter.model);
  return { where: clauses.join(' AND '), params };
}

/**
 * The series as one statement: the rollup's whole hours of [from, to) and the log's rows of the
 * partial hours at its ends (`aggregateSpans`), summed per bucket and group. Ids sort as
 * numbers (the key is made text only on the way out), names by bytes, NULL first.
 */
export function sqliteSeriesSql(
  filter: UsageSeriesFilter,
  from: string,
  to: string,
  bucket: UsageSeriesBucket,
  groupBy: UsageSeriesGroup,
): { sql: string; params: Record<string, string | number> } {
  const spans = aggregateSpans(from, to);
  const { where, params } = seriesWhere(filter);
  const parts: string[] = [];
  if (spans.hours) {
    parts.push(`SELECT ${ROLLUP_TIME[bucket]}, ${ROLLUP_KEY[groupBy]}, SUM(requests), SUM(errors), ${SUMS} FROM usage_rollup
      WHERE ${where} AND hour >= :hoursFrom AND hour < :hoursTo GROUP BY 1, 2`);
    Object.assign(params, { hoursFrom: spans.hours.from, hoursTo: spans.hours.to });
  }
  spans.raw.forEach((span, index) => {
    parts.push(`SELECT ${RAW_TIME[bucket]}, ${RAW_KEY[groupBy]}, COUNT(*), SUM(status >= 400), ${SUMS} FROM usage_log
      WHERE ${where} AND created_at >= :from${index} AND created_at < :to${index} GROUP BY 1, 2`);
    Object.assign(params, { [`from${index}`]: span.from, [`to${index}`]: span.to });
  });
  if (parts.length === 0) return { sql: 'SELECT NULL AS time WHERE 0', params: {} };
  const columns = 'bucket_start, group_key, requests, errors, prompt_tokens, completion_tokens, cache_read_tokens, cache_write_tokens, cost';
  return {
    sql: `WITH parts (${columns}) AS (${parts.join(' UNION ALL ')})
      SELECT bucket_start AS time, CAST(group_key AS TEXT) AS key, SUM(requests) AS requests, SUM(errors) AS errors,
        SUM(prompt_tokens) AS promptTokens, SUM(completion_tokens) AS completionTokens,
        SUM(cache_read_tokens) AS cacheReadTokens, SUM(cache_write_tokens) AS cacheWriteTokens, SUM(cost) AS cost
      FROM parts GROUP BY bucket_start, group_key ORDER BY bucket_start, group_key NULLS FIRST`,
    params,
  };
}
