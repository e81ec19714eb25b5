import { accountsContract, microUsdToUsd, type LogEntry } from '@chat-relay/contract';
import { initServer } from '@ts-rest/express';
import type { StoredUsageLogEntry, UsageLogStore } from '../storage/types';
import { assertMayNameAccount, managedAccountId } from './caller-scope';
import { assertPageInRange } from './paging';
import { optionalTimeRange } from './time-range';

export interface LogRouteDeps {
  usageLog: UsageLogStore;
}

export const logView = (entry: StoredUsageLogEntry): LogEntry => ({
  id: entry.id,
  created_at: entry.createdAt,
  request_id: entry.requestId,
  token_id: entry.tokenId,
  account_id: entry.accountId,
  requested_model: entry.requestedModel,
  upstream_model: entry.upstreamModel,
  channel_id: entry.channelId,
  assistant_id: entry.assistantId,
  stream: entry.stream,
  status: entry.status,
  error_code: entry.errorCode,
  prompt_tokens: entry.promptTokens,
  completion_tokens: entry.completionTokens,
  cache_read_tokens: entry.cacheReadTokens,
  cache_write_tokens: entry.cacheWriteTokens,
  endpoint: entry.endpoint,
  units: entry.units,
  usage_estimated: entry.usageEstimated,
  cost: entry.cost,
  cost_usd: microUsdToUsd(entry.cost),
  latency_ms: entry.latencyMs,
  ttfb_ms: entry.ttfbMs,
  client_ip: entry.clientIp,
  attempts: entry.attempts,
});

/**
 * `GET /api/logs` (SPEC §8), newest first. The admin sees every entry and may filter by
 * account; an account's access key sees only its own account's entries, whatever it filters.
 */
export function logHandlers(deps: LogRouteDeps) {
  const s = initServer();
  return {
    listLogs: s.route(accountsContract.listLogs, async ({ query, res }) => {
      const scope = managedAccountId(res.locals.caller);
      assertMayNameAccount(scope, query.account_id);
      const { from, to } = optionalTimeRange(query.from, query.to);
      const { rows, total } = await deps.usageLog.query({
        page: query.page,
        perPage: query.per_page,
        tokenId: query.token_id,
        accountId: query.account_id ?? scope,
        model: query.model,
        status: query.status,
        endpoint: query.endpoint,
        from,
        to,
      });
      assertPageInRange(query.page, query.per_page, total);
      return { status: 200, body: { data: rows.map(logView), total, page: query.page, per_page: query.per_page } };
    }),
  };
}
