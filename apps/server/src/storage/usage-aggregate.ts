import type { UsageLogStore, UsageSeriesFilter, UsageTotals } from './types';

const byBytes = (a: string, b: string): number => Buffer.compare(Buffer.from(a), Buffer.from(b));

/**
 * `UsageLogStore.aggregate` for every backend, from the store's own daily series (the rollup's
 * whole hours and the raw log's partial end hours, read once by `series`): per UTC day
 * (`YYYY-MM-DD`), or per requested model over the whole range (`''` for none), ordered by key
 * as the database would sort bytes.
 */
export async function aggregateFromSeries(
  store: Pick<UsageLogStore, 'series'>,
  scope: Pick<UsageSeriesFilter, 'tokenId' | 'accountId'>,
  from: string,
  to: string,
  groupBy: 'day' | 'model',
): Promise<Array<UsageTotals & { key: string }>> {
  const points = await store.series({ tokenId: scope.tokenId, accountId: scope.accountId }, from, to, 'day', groupBy === 'day' ? 'total' : 'model');
  const totals = new Map<string, UsageTotals & { key: string }>();
  for (const point of points) {
    const key = groupBy === 'day' ? point.time.slice(0, 10) : (point.key ?? '');
    const sum = totals.get(key) ?? { key, requests: 0, promptTokens: 0, completionTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, cost: 0 };
    sum.requests += point.requests;
    sum.promptTokens += point.promptTokens;
    sum.completionTokens += point.completionTokens;
    sum.cacheReadTokens += point.cacheReadTokens;
    sum.cacheWriteTokens += point.cacheWriteTokens;
    sum.cost += point.cost;
    totals.set(key, sum);
  }
  return [...totals.values()].sort((a, b) => byBytes(a.key, b.key));
}
