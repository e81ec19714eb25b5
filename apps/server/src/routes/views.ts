import { microUsdToUsd, type Account, type LimitWindow, type StoredResponsesUsage, type Channel, type ChannelCheck, type ChannelModelSyncError, type Token } from '@chat-relay/contract';
import type { CircuitSnapshot } from '../channels/channel-health';
import type { RememberedRefusal } from '../channels/parameter-refusals';
import { channelEndpoints } from '../channels/channel-registry';
import { cloudKeyHint, cloudKeyOf } from '@chat-relay/wire';
import { cloudViewOf } from '../channels/cloud/cloud-channel';
import { keyHint } from '../security/keys';
import { passthroughView } from './channel-passthrough';
import type { AccountRecord, ChannelRecord, TokenRecord } from '../storage/types';
import type { OwnerLimits } from '../storage/limit-types';

/** Records → what the API shows. Keys never leave the relay: only hints. */

/** What this instance alone knows of a channel: its circuit, last model sync failure and last test. */
export interface ChannelInstanceState {
  health: CircuitSnapshot;
  /** What the channel's upstream refused by name, per upstream model (issue 28). */
  refusedParameters?: readonly RememberedRefusal[];
  syncError?: ChannelModelSyncError | null;
  lastCheck?: ChannelCheck | null;
}

/** A cloud credential by its kind and public part (a service account's e-mail, an access key id); any other key by its last four characters. */
const channelKeyHint = (channel: ChannelRecord, key: string): string => {
  const credential = cloudKeyOf(channel.type, key);
  return credential ? cloudKeyHint(credential) : keyHint(key);
};

export const channelView = (channel: ChannelRecord, { health, refusedParameters = [], syncError = null, lastCheck = null }: ChannelInstanceState): Channel => ({
  id: channel.id,
  name: channel.name,
  type: channel.type,
  base_url: channel.baseUrl,
  key_hints: channel.keys.map((key) => channelKeyHint(channel, key)),
  key_status: channel.keys.map((key, index) => {
    const state = channel.keyStates[index];
    return {
      index,
      hint: channelKeyHint(channel, key),
      status: state?.status ?? 'active',
      reason: state?.reason ?? null,
      changed_at: state?.changedAt ?? null,
    };
  }),
  has_active_key: channel.keyStates.length < channel.keys.length || channel.keyStates.some((state) => state.status === 'active'),
  health: {
    state: health.state,
    attempts: health.attempts,
    failures: health.failures,
    open_until: health.openUntil,
    refused_parameters: refusedParameters.map(({ model, field, atMost, since }) => ({ model, field, at_most: atMost ?? null, since })),
  },
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
  responses_api: channel.responsesApi,
  endpoints: [...channelEndpoints(channel)],
  endpoints_default: channel.endpoints === null,
  passthrough: passthroughView(channel.passthrough),
  cloud: cloudViewOf(channel.cloud),
  synced_models_count: channel.syncedModels?.length ?? null,
  models_synced_at: channel.modelsSyncedAt,
  models_sync_error: syncError,
  last_check: lastCheck,
  created_at: channel.createdAt,
  updated_at: channel.updatedAt,
});

/** The status a token shows: disabled, then expired, then exhausted, else active. */
export function shownTokenStatus(token: TokenRecord, nowIso: string): Token['status'] {
  if (token.status === 'disabled') return 'disabled';
  if (token.expiresAt !== null && token.expiresAt <= nowIso) return 'expired';
  if (token.quotaLimit !== null && token.quotaUsed >= token.quotaLimit) return 'exhausted';
  return 'active';
}

/**
 * The periodic limits of a token or an account as set, and their current windows (read by
 * policy/limit-readback.ts, one store call per page): none when `windows` was not read.
 */
const limitFieldsOf = (owner: OwnerLimits, windows: readonly LimitWindow[]) => ({
  periodic_limits: owner.periodicLimits,
  time_zone: owner.timeZone,
  alert_thresholds: owner.alertThresholds,
  windows: [...windows],
});

/** `windows`: the current window of each of the token's periodic limits (policy/limit-readback.ts). */
export const tokenView = (token: TokenRecord, nowIso: string, windows: readonly LimitWindow[] = []): Token => ({
  id: token.id,
  account_id: token.accountId,
  name: token.name,
  status: shownTokenStatus(token, nowIso),
  key_hint: token.keyHint,
  expires_at: token.expiresAt,
  quota_limit: token.quotaLimit,
  quota_used: token.quotaUsed,
  quota_limit_usd: token.quotaLimit === null ? null : microUsdToUsd(token.quotaLimit),
  quota_used_usd: microUsdToUsd(token.quotaUsed),
  models: token.models,
  allowed_ips: token.allowedIps,
  rate_limit: token.rateLimit,
  ...limitFieldsOf(token, windows),
  created_at: token.createdAt,
  last_used_at: token.lastUsedAt,
});

/** `storedResponses`: what the account keeps of the Responses API (storedResponsesOf). */
export const accountView = (account: AccountRecord, storedResponses: StoredResponsesUsage, windows: readonly LimitWindow[] = []): Account => ({
  id: account.id,
  name: account.name,
  role: account.role,
  status: account.status,
  quota_limit: account.quotaLimit,
  quota_used: account.quotaUsed,
  quota_limit_usd: account.quotaLimit === null ? null : microUsdToUsd(account.quotaLimit),
  quota_used_usd: microUsdToUsd(account.quotaUsed),
  ...limitFieldsOf(account, windows),
  key_hint: account.keyHint,
  stored_responses: storedResponses,
  created_at: account.createdAt,
});
