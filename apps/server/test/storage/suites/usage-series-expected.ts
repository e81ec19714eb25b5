import type { UsageSeriesBucket, UsageLogEntry, UsageSeriesFilter, UsageSeriesGroup, UsageSeriesPoint } from '../../../src/storage/types';

const BUCKET_MS: Record<UsageSeriesBucket, number> = { hour: 3_600_000, day: 86_400_000 };

const keyOf = (row: UsageLogEntry, groupBy: UsageSeriesGroup): string | null => {
  switch (groupBy) {
    case 'total':
      return null;
    case 'model':
      return row.requestedModel || null;
    case 'channel':
      return row.channelId === null ? null : String(row.channelId);
    case 'token':
      return row.tokenId === null ? null : String(row.tokenId);
  }
};

/** Keys as the stores order them: NULL first, ids as numbers, names by their bytes. */
function compareKeys(a: string | null, b: string | null, groupBy: UsageSeriesGroup): number {
  if (a === b) return 0;
  if (a === null) return -1;
  if (b === null) return 1;
  if (groupBy === 'channel' || groupBy === 'token') return Number(a) - Number(b);
  return a < b ? -1 : 1;
}

/** What `series` must answer, summed here row by row from the rows written. */
export function bruteForceSeries(
  rows: readonly UsageLogEntry[],
  filter: UsageSeriesFilter,
  from: string,
  to: string,
  bucket: UsageSeriesBucket,
  groupBy: UsageSeriesGroup,
): UsageSeriesPoint[] {
  const points = new Map<string, UsageSeriesPoint>();
  for (const row of rows) {
    const at = Date.parse(row.createdAt);
    if (at < Date.parse(from) || at >= Date.parse(to)) continue;
    if (filter.tokenId !== undefined && row.tokenId !== filter.tokenId) continue;
    if (filter.accountId !== undefined && row.accountId !== filter.accountId) continue;
    if (filter.channelId !== undefined && row.channelId !== filter.channelId) continue;
    if (filter.model !== undefined && row.requestedModel !== filter.model) continue;
    const time = new Date(Math.floor(at / BUCKET_MS[bucket]) * BUCKET_MS[bucket]).toISOString();
    const key = keyOf(row, groupBy);
    const id = `${time} ${key}`;
    const point = points.get(id) ?? { time, key, requests: 0, errors: 0, promptTokens: 0, completionTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, cost: 0 };
    point.requests += 1;
    point.errors += row.status >= 400 ? 1 : 0;
    point.promptTokens += row.promptTokens;
    point.completionTokens += row.completionTokens;
    point.cacheReadTokens += row.cacheReadTokens;
    point.cacheWriteTokens += row.cacheWriteTokens;
    point.cost += row.cost;
    points.set(id, point);
  }
  return [...points.values()].sort((a, b) => (a.time < b.time ? -1 : a.time > b.time ? 1 : compareKeys(a.key, b.key, groupBy)));
}
