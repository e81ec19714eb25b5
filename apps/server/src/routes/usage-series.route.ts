import { accountsContract, microUsdToUsd, USAGE_SERIES_MAX_BUCKETS, type UsagePoint, type UsageSeriesQuery } from '@chat-relay/contract';
import { initServer } from '@ts-rest/express';
import { invalidRequest } from '@chat-relay/wire';
import type { TokenStore, UsageLogStore, UsageSeriesBucket, UsageSeriesPoint } from '../storage/types';
import { assertMayNameAccount, managedAccountId, reachableToken } from './caller-scope';
import { timeRange } from './time-range';
import { sumFields } from '../storage/sum-fields';

export interface UsageSeriesDeps {
  usageLog: UsageLogStore;
  tokens: TokenStore;
}

const BUCKET_MS: Record<UsageSeriesBucket, number> = { hour: 3_600_000, day: 86_400_000 };
/** A day of hours, a month of days, when the caller gives no `from`. */
const DEFAULT_DAYS: Record<UsageSeriesBucket, number> = { hour: 1, day: 30 };

/**
 * The series' range: `to` (default now) kept as given, so the bucket holding it counts up to it;
 * `from` (default a day or 30 before) rounded down to its bucket. Longer than
 * USAGE_SERIES_MAX_BUCKETS is refused: a chart, not an export.
 */
export function seriesRange(query: Pick<UsageSeriesQuery, 'from' | 'to' | 'bucket'>): { from: string; to: string } {
  const range = timeRange(query.from, query.to, DEFAULT_DAYS[query.bucket]);
  const size = BUCKET_MS[query.bucket];
  const start = Math.floor(Date.parse(range.from) / size) * size;
  const buckets = Math.ceil((Date.parse(range.to) - start) / size);
  const max = USAGE_SERIES_MAX_BUCKETS[query.bucket];
  if (buckets > max) {
    throw invalidRequest(`A series by ${query.bucket} holds at most ${max} buckets; this range holds ${buckets}.`, 'from', 'invalid_value');
  }
  return { from: new Date(start).toISOString(), to: range.to };
}

type Totals = Omit<UsagePoint, 'time' | 'key'>;
const totalsView = (point: Pick<UsageSeriesPoint, 'requests' | 'errors' | 'promptTokens' | 'completionTokens' | 'cost'>): Totals => ({
  requests: point.requests,
  errors: point.errors,
  prompt_tokens: point.promptTokens,
  completion_tokens: point.completionTokens,
  cost: point.cost,
  cost_usd: microUsdToUsd(point.cost),
});

/**
 * `GET /api/usage`: the console's charts. Scoped as the log listing is: an account's access key
 * sees its own account only (naming another account is 403); a token it does not own is 404,
 * never revealing that it exists.
 */
export function usageSeriesHandlers(deps: UsageSeriesDeps) {
  const s = initServer();
  return {
    getUsage: s.route(accountsContract.getUsage, async ({ query, res }) => {
      const scope = managedAccountId(res.locals.caller);
      assertMayNameAccount(scope, query.account_id);
      // The admin reaches every token, deleted ones' history too: no lookup.
      if (scope !== undefined && query.token_id !== undefined) await reachableToken(deps.tokens, scope, query.token_id, 'token_id');
      const range = seriesRange(query);
      const filter = { tokenId: query.token_id, accountId: query.account_id ?? scope, channelId: query.channel_id, model: query.model };
      const points = await deps.usageLog.series(filter, range.from, range.to, query.bucket, query.group_by);
      const sum = sumFields(points, ['requests', 'errors', 'promptTokens', 'completionTokens', 'cost']);
      return {
        status: 200,
        body: {
          ...range,
          bucket: query.bucket,
          group_by: query.group_by,
          data: points.map((point) => ({ time: point.time, key: point.key, ...totalsView(point) })),
          totals: totalsView(sum),
        },
      };
    }),
  };
}
