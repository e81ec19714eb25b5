import { microUsdToUsd, type LogEntry } from '@chat-relay/contract';
import type { StoredUsageLogEntry } from '../storage/types';

/** A usage log row as the listing shows it, and as the CSV export writes it. */
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
  priced_by: entry.pricedBy,
  fallback_path: entry.fallbackPath,
});
