import type { StoredUsageLogEntry, UsageLogEntry } from '../usage-types';
import { flagOf, type RowCodec } from './codec';

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
  priced_by: string | null;
  fallback_path?: string | null;
}

/** The stored entry a row holds, on either backend. */
export const storedUsageEntryOf = (row: UsageRow): StoredUsageLogEntry => ({
  id: row.id ?? 0,
  createdAt: row.created_at,
  requestId: row.request_id,
  tokenId: row.token_id,
  accountId: row.account_id,
  requestedModel: row.requested_model,
  upstreamModel: row.upstream_model,
  channelId: row.channel_id,
  assistantId: row.assistant_id,
  stream: flagOf(row.stream),
  status: row.status,
  errorCode: row.error_code,
  promptTokens: row.prompt_tokens,
  completionTokens: row.completion_tokens,
  cacheReadTokens: row.cache_read_tokens,
  cacheWriteTokens: row.cache_write_tokens,
  endpoint: row.endpoint,
  units: row.units,
  usageEstimated: flagOf(row.usage_estimated),
  cost: row.cost,
  latencyMs: row.latency_ms,
  ttfbMs: row.ttfb_ms,
  clientIp: row.client_ip,
  attempts: row.attempts,
  pricedBy: row.priced_by ?? null,
  fallbackPath: row.fallback_path ?? null,
});

/** The columns a new row is written with, in `usageValues`' order; `id` is the database's. */
export const USAGE_WRITTEN = `created_at, request_id, token_id, account_id, requested_model, upstream_model, channel_id,
  assistant_id, stream, status, error_code, prompt_tokens, completion_tokens, cache_read_tokens, cache_write_tokens,
  usage_estimated, cost, latency_ms, ttfb_ms, client_ip, attempts, endpoint, units, priced_by, fallback_path`;

/** A new row's values in USAGE_WRITTEN's order; times in whole milliseconds. */
export const usageValues = (entry: UsageLogEntry, codec: RowCodec): Array<string | number | boolean | null> => [
  entry.createdAt,
  entry.requestId,
  entry.tokenId,
  entry.accountId,
  entry.requestedModel,
  entry.upstreamModel,
  entry.channelId,
  entry.assistantId,
  codec.flag(entry.stream),
  entry.status,
  entry.errorCode,
  entry.promptTokens,
  entry.completionTokens,
  entry.cacheReadTokens,
  entry.cacheWriteTokens,
  codec.flag(entry.usageEstimated),
  entry.cost,
  Math.round(entry.latencyMs),
  entry.ttfbMs === null ? null : Math.round(entry.ttfbMs),
  entry.clientIp,
  entry.attempts,
  entry.endpoint,
  entry.units,
  entry.pricedBy ?? null,
  entry.fallbackPath ?? null,
];
