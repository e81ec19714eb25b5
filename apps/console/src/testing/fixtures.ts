import type { Account, Assistant, Channel, ChannelKeyStatus, FallbackRule, LimitWindow, LogEntry, Token, Webhook, WebhookDelivery } from '@chat-relay/contract';

// Contract-shaped records for the console's specs; each test overrides what it is about.
const AT = '2026-11-01T10:00:00.000Z';

export const keyStatus = (overrides: Partial<ChannelKeyStatus> = {}): ChannelKeyStatus => ({
  index: 0,
  hint: 'sk-…a1b2',
  status: 'active',
  reason: null,
  changed_at: null,
  ...overrides,
});

export const channelFixture = (overrides: Partial<Channel> = {}): Channel => ({
  id: 1,
  name: 'openai-main',
  type: 'openai',
  base_url: 'https://api.openai.com/v1',
  key_hints: ['sk-…a1b2'],
  key_status: [keyStatus()],
  has_active_key: true,
  health: { state: 'closed', attempts: 10, failures: 0, open_until: null, refused_parameters: [] },
  models: ['gpt-4o', 'gpt-4o-mini'],
  model_mapping: {},
  priority: 0,
  weight: 1,
  enabled: true,
  timeouts: { connect_ms: 10_000, first_byte_ms: 60_000, idle_ms: 60_000 },
  responses_api: 'auto',
  endpoints: ['chat', 'completions', 'embeddings', 'moderations', 'images', 'audio_speech', 'audio_transcriptions'],
  endpoints_default: true,
  passthrough: { hosted_tools: [], service_tiers: [], audio_output: false, upstream_objects: false },
  cloud: {},
  synced_models_count: null,
  models_synced_at: null,
  models_sync_error: null,
  last_check: null,
  created_at: AT,
  updated_at: AT,
  ...overrides,
});

export const tokenFixture = (overrides: Partial<Token> = {}): Token => ({
  id: 5,
  account_id: 1,
  name: 'ci',
  status: 'active',
  key_hint: 'sk-…Ab12',
  expires_at: null,
  quota_limit: null,
  quota_used: 0,
  quota_limit_usd: null,
  quota_used_usd: '0.000000',
  models: null,
  allowed_ips: null,
  rate_limit: null,
  periodic_limits: [],
  time_zone: null,
  alert_thresholds: null,
  windows: [],
  created_at: '2026-11-01T00:00:00.000Z',
  last_used_at: null,
  ...overrides,
});

export const logEntryFixture = (overrides: Partial<LogEntry> = {}): LogEntry => ({
  id: 1,
  created_at: '2026-11-01T10:00:00.000Z',
  request_id: 'req_log_1',
  token_id: 5,
  account_id: 1,
  requested_model: 'gpt-4o',
  upstream_model: 'gpt-4o-2024-08-06',
  channel_id: 3,
  assistant_id: null,
  stream: false,
  status: 200,
  error_code: null,
  prompt_tokens: 100,
  completion_tokens: 20,
  cache_read_tokens: 0,
  cache_write_tokens: 0,
  endpoint: 'chat',
  units: 0,
  usage_estimated: false,
  cost: 1_500,
  cost_usd: '0.001500',
  latency_ms: 812,
  ttfb_ms: 240,
  client_ip: '10.0.0.7',
  attempts: 1,
  priced_by: null,
  fallback_path: null,
  ...overrides,
});

export const accountFixture = (overrides: Partial<Account> = {}): Account => ({
  id: 1,
  name: 'Admin',
  role: 'admin',
  status: 'active',
  quota_limit: null,
  quota_used: 0,
  quota_limit_usd: null,
  quota_used_usd: '0.000000',
  periodic_limits: [],
  time_zone: null,
  alert_thresholds: null,
  windows: [],
  key_hint: 'ak-…abcd',
  stored_responses: { count: 0, bytes: 0, max_count: 10_000, max_bytes: 100 * 1024 * 1024 },
  created_at: AT,
  ...overrides,
});

export const assistantFixture = (overrides: Partial<Assistant> = {}): Assistant => ({
  id: 'g-abc123',
  object: 'assistant',
  account_id: 1,
  name: 'Support bot',
  description: 'Answers support questions',
  instructions: 'Be brief.',
  tools: [],
  temperature: null,
  top_p: null,
  max_tokens: null,
  response_format: null,
  models: ['gpt-4o'],
  visibility: 'private',
  created_at: AT,
  updated_at: AT,
  ...overrides,
});

/** The signed-in admin, and an account with the user role, for the session. */
export const adminAccount = accountFixture();
export const userAccount = accountFixture({ id: 7, name: 'Team A', role: 'user', key_hint: 'ak-…0007' });

/** A page of the API's list shape. */
export const pageOf = <T>(data: T[], total = data.length, page = 1, perPage = 20) => ({ data, total, page, per_page: perPage });

/**
 * A service account's JSON key file as Google hands it out: pretty-printed over many lines, the
 * private key's line breaks escaped inside its string
 * (https://cloud.google.com/iam/docs/keys-create-delete#creating). Not a real key.
 */
export const serviceAccountKeyFile = (clientEmail = 'relay@acme-prod.iam.gserviceaccount.com'): string =>
  JSON.stringify(
    {
      type: 'service_account',
      project_id: 'acme-prod',
      private_key_id: 'f3c1a2b4d5e6',
      private_key: '-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC{not-a-real-key}\n-----END PRIVATE KEY-----\n',
      client_email: clientEmail,
      client_id: '100000000000000000001',
      auth_uri: 'https://accounts.google.com/o/oauth2/auth',
      token_uri: 'https://oauth2.googleapis.com/token',
    },
    null,
    2,
  ) + '\n';

/**
 * A periodic-limit window as the relay reads it back: `used` of `limit` (micro-USD for cost), the
 * current window ending `resetsInMs` after `nowMs`.
 */
export const windowFixture = (overrides: Partial<LimitWindow> & { resetsInMs?: number; nowMs?: number } = {}): LimitWindow => {
  const { resetsInMs = 5 * 3_600_000 + 12 * 60_000 + 30_000, nowMs = Date.now(), ...rest } = overrides;
  const limit = rest.limit ?? 1_000_000;
  const used = rest.used ?? 0;
  const metric = rest.metric ?? 'cost';
  const usd = (micro: number) => `${Math.floor(micro / 1_000_000)}.${String(micro % 1_000_000).padStart(6, '0')}`;
  return {
    period: 'day',
    metric,
    limit,
    used,
    remaining: Math.max(0, limit - used),
    limit_usd: metric === 'cost' ? usd(limit) : null,
    used_usd: metric === 'cost' ? usd(used) : null,
    time_zone: 'UTC',
    starts_at: new Date(nowMs + resetsInMs - 86_400_000).toISOString(),
    resets_at: new Date(nowMs + resetsInMs).toISOString(),
    ...rest,
  };
};

export const webhookFixture = (overrides: Partial<Webhook> = {}): Webhook => ({
  id: 1,
  url: 'https://hooks.example.com/relay',
  events: null,
  enabled: true,
  secret_hint: 'whsec_…x9Y8',
  created_at: AT,
  updated_at: AT,
  ...overrides,
});

export const deliveryFixture = (overrides: Partial<WebhookDelivery> = {}): WebhookDelivery => ({
  id: 1,
  webhook_id: 1,
  event_id: 'evt_1',
  event_type: 'test',
  status: 'delivered',
  attempts: 1,
  last_status: 200,
  last_error: null,
  created_at: AT,
  next_attempt_at: null,
  delivered_at: AT,
  event: { id: overrides.event_id ?? 'evt_1', type: overrides.event_type ?? 'test', created_at: AT, data: {} },
  ...overrides,
});

export const fallbackRuleFixture = (overrides: Partial<FallbackRule> = {}): FallbackRule => ({
  id: 1,
  model: 'claude-sonnet-4*',
  fallbacks: ['gpt-4o', 'gemini-2.5-pro'],
  triggers: ['rate_limited', 'upstream_error', 'timeout', 'no_channel'],
  enabled: true,
  created_at: AT,
  updated_at: AT,
  ...overrides,
});
