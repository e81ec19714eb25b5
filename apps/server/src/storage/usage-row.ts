import type { StoredUsageLogEntry, UsageLogEntry } from './usage-types';

/**
 * A `usage_log` row as either backend reads it: the same columns, flags as SQLite's 0/1 or
 * PostgreSQL's booleans.
 */
export interface UsageRow {
  id?: number;
  created_at: string;
  request_id: string;
  token_id: number | null;
  account_id: number | null;
  requested_model: string | null;
  upstream_model: string | null;
  channel_id: number | null;
  assistant_id: string | null;
  stream: number | boolean;
  status: number;
  error_code: string | null;
  prompt_tokens: number;
  completion_tokens: number;
  cache_read_tokens: number;
  cache_write_tokens: number;
  endpoint: UsageLogEntry['endpoint'];
  units: number;
  usage_estimated: number | boolean;
  cost: number;
  latency_ms: number;
  ttfb_ms: number | null;
  client_ip: string | null;
  attempts: number;
}

/** The stored entry a row holds, on either backend. */
export const usageEntryOf = (row: UsageRow): StoredUsageLogEntry => ({
  id: row.id ?? 0,
  createdAt: row.created_at,
  requestId: row.request_id,
  tokenId: row.token_id,
  accountId: row.account_id,
  requestedModel: row.requested_model,
  upstreamModel: row.upstream_model,
  channelId: row.channel_id,
  assistantId: row.assistant_id,
  stream: row.stream === true || row.stream === 1,
  status: row.status,
  errorCode: row.error_code,
  promptTokens: row.prompt_tokens,
  completionTokens: row.completion_tokens,
  cacheReadTokens: row.cache_read_tokens,
  cacheWriteTokens: row.cache_write_tokens,
  endpoint: row.endpoint,
  units: row.units,
  usageEstimated: row.usage_estimated === true || row.usage_estimated === 1,
  cost: row.cost,
  latencyMs: row.latency_ms,
  ttfbMs: row.ttfb_ms,
  clientIp: row.client_ip,
  attempts: row.attempts,
});
