import type { Endpoint } from '@chat-relay/contract';
import { usageEntry } from '../../testing/system-api';
import type { UsageLogEntry, UsageLogQuery, UsageTotals } from '../../../src/storage/types';

/** A deterministic generator (a linear congruential one): the same rows on every run and backend. */
export function seeded(seed: number): (below: number) => number {
  let state = seed >>> 0;
  return (below) => {
    state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0;
    return state % below;
  };
}

export const SAMPLE_START = Date.parse('2026-02-01T00:00:00.000Z');
const MODELS: [string | null, ...Array<string | null>] = ['gpt-4o', 'claude-sonnet-4', null, 'Zeta', 'alpha-1', 'gpt-4o-mini'];
const STATUSES: [number, ...number[]] = [200, 200, 200, 429, 500, 400];
const ENDPOINTS: [Endpoint, ...Endpoint[]] = ['chat', 'chat', 'embeddings', 'images'];

/**
 * `count` usage rows over three days, in random order of time (several at the very same
 * millisecond), spread over the given tokens and accounts (and none), models of mixed case
 * (and none), statuses, endpoints and channels. Written in the order given.
 */
export function sampleRows(count: number, ids: { tokens: number[]; accounts: number[] }, seed = 7): UsageLogEntry[] {
  const next = seeded(seed);
  const pick = <T>(values: readonly [T, ...T[]]): T => values[next(values.length)] ?? values[0];
  const rows: UsageLogEntry[] = [];
  let createdAt = '';
  for (let i = 0; i < count; i++) {
    // Every 10th row shares the previous row's time: the order written decides between them.
    if (i % 10 !== 9) createdAt = new Date(SAMPLE_START + next(3 * 86_400_000)).toISOString();
    rows.push(
      usageEntry({
        requestId: `req-${seed}-${i}`,
        createdAt,
        tokenId: pick([null, ...ids.tokens]),
        accountId: pick([null, ...ids.accounts]),
        requestedModel: pick(MODELS),
        channelId: pick([1, 2, null]),
        status: pick(STATUSES),
        endpoint: pick(ENDPOINTS),
        units: next(5) / 2,
        promptTokens: next(5000),
        completionTokens: next(2000),
        cacheReadTokens: next(300),
        cacheWriteTokens: next(100),
        cost: next(100_000),
      }),
    );
  }
  return rows;
}

/** The rows a query selects, newest first (created_at, then the order written), as the stores list them. */
export function expectedListing(rows: readonly UsageLogEntry[], query: Omit<UsageLogQuery, 'page' | 'perPage'>): UsageLogEntry[] {
  const from = query.from === undefined ? -Infinity : Date.parse(query.from);
  const to = query.to === undefined ? Infinity : Date.parse(query.to);
  return rows
    .map((row, written) => ({ row, written }))
    .filter(
      ({ row }) =>
        (query.tokenId === undefined || row.tokenId === query.tokenId) &&
        (query.accountId === undefined || row.accountId === query.accountId) &&
        (query.model === undefined || row.requestedModel === query.model) &&
        (query.status === undefined || row.status === query.status) &&
        (query.endpoint === undefined || row.endpoint === query.endpoint) &&
        Date.parse(row.createdAt) >= from &&
        Date.parse(row.createdAt) < to,
    )
    .sort((a, b) => Date.parse(b.row.createdAt) - Date.parse(a.row.createdAt) || b.written - a.written)
    .map(({ row }) => row);
}

/** What `aggregate` must answer, summed here row by row. Keys in byte order, as both stores sort them. */
export function bruteForceAggregate(
  rows: readonly UsageLogEntry[],
  scope: { tokenId?: number; accountId?: number },
  from: string,
  to: string,
  groupBy: 'day' | 'model',
): Array<UsageTotals & { key: string }> {
  const totals = new Map<string, UsageTotals & { key: string }>();
  for (const row of expectedListing(rows, { ...scope, from, to })) {
    const key = groupBy === 'day' ? row.createdAt.slice(0, 10) : (row.requestedModel ?? '');
    const sum = totals.get(key) ?? { key, requests: 0, promptTokens: 0, completionTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, cost: 0 };
    sum.requests += 1;
    sum.promptTokens += row.promptTokens;
    sum.completionTokens += row.completionTokens;
    sum.cacheReadTokens += row.cacheReadTokens;
    sum.cacheWriteTokens += row.cacheWriteTokens;
    sum.cost += row.cost;
    totals.set(key, sum);
  }
  return [...totals.values()].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}
