import type { Channel, Token } from '@chat-relay/contract';
import { keyHint } from '../security/keys';
import type { ChannelRecord, TokenRecord } from '../storage/types';

/** Records → what the API shows. Keys never leave the relay: only hints. */

export const channelView = (channel: ChannelRecord): Channel => ({
  id: channel.id,
  name: channel.name,
  type: channel.type,
  base_url: channel.baseUrl,
  key_hints: channel.keys.map(keyHint),
  models: channel.models,
  model_mapping: channel.modelMapping,
  priority: channel.priority,
  weight: channel.weight,
  enabled: channel.enabled,
  timeouts: {
    connect_ms: channel.timeouts.connectMs,
    first_byte_ms: channel.timeouts.firstByteMs,
    idle_ms: channel.timeouts.idleMs,
  },
  created_at: channel.createdAt,
  updated_at: channel.updatedAt,
});

export const tokenView = (token: TokenRecord, nowIso: string): Token => ({
  id: token.id,
  account_id: token.accountId,
  name: token.name,
  status: token.expiresAt !== null && token.expiresAt <= nowIso ? 'expired' : token.status,
  key_hint: token.keyHint,
  expires_at: token.expiresAt,
  quota_limit: token.quotaLimit,
  quota_used: token.quotaUsed,
  models: token.models,
  allowed_ips: token.allowedIps,
  rate_limit: token.rateLimit,
  created_at: token.createdAt,
  last_used_at: token.lastUsedAt,
});
