import { sumFields } from './sum-fields';
import type { UsageLogStore, UsageSeriesFilter, UsageTotals } from './types';

/** Every field of UsageTotals, to sum them. */
export const USAGE_TOTAL_FIELDS = ['requests', 'promptTokens', 'completionTokens', 'cacheReadTokens', 'cacheWriteTokens', 'cost'] as const;

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
  const groups = new Map<string, UsageTotals[]>();
  for (const point of points) {
    const key = groupBy === 'day' ? point.time.slice(0, 10) : (point.key ?? '');
    const group = groups.get(key);
    if (group) group.push(point);
    else groups.set(key, [point]);
  }
  return [...groups]
    .map(([key, group]) => ({ key, ...sumFields(group, USAGE_TOTAL_FIELDS) }))
    .sort((a, b) => byBytes(a.key, b.key));
}
