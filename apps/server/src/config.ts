import path from 'node:path';
import { z } from 'zod';
import { parseCorsOrigins, type CorsOrigins } from './core/cors-origins';
import { TrustProxyEnvSchema } from './core/trust-proxy';
import { DEFAULT_AFFINITY_TTL_MS } from './core/channel-defaults';
import { USAGE_BACKLOG_MAX, USAGE_FLUSH_INTERVAL_MS } from './core/usage-defaults';
import { DEFAULT_MAX_TOOLS, DEFAULT_MAX_TOOLS_BYTES, type ToolLimits } from './validation/tool-limits';

const MIB = 1024 * 1024;

const optionalText = z
  .string()
  .trim()
  .optional()
  .transform((value) => (value ? value : undefined));

const intFromEnv = (fallback: number, min: number, max: number) =>
  z.preprocess(
    (value) => (value === undefined || value === '' ? fallback : Number(value)),
    z.number({ invalid_type_error: 'must be a number' }).int('must be a whole number').min(min).max(max),
  );

/** `*`, or origins such as `https://chat.example.com` separated by commas; empty = none. */
const corsOriginsFromEnv = (fallback: string) =>
  z
    .string()
    .default(fallback)
    .transform((text) => parseCorsOrigins(text))
    .refine((origins) => origins === '*' || origins.every(isOrigin), {
      message: 'must be * or a comma-separated list of origins such as https://chat.example.com',
    });

function isOrigin(text: string): boolean {
  try {
    const url = new URL(text);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.origin === text;
  } catch {
    return false;
  }
}

const DAY_MS = 86_400_000;
const DURATION_UNITS_MS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: DAY_MS };

/** `30d`, `12h`, `90m`, `3600s` or a number of seconds, as milliseconds. */
const durationFromEnv = (fallback: string, minMs: number, maxMs: number) =>
  z
    .string()
    .trim()
    .default(fallback)
    .transform((text, ctx) => {
      const match = /^(\d+)\s*([smhd]?)$/i.exec(text === '' ? fallback : text);
      const ms = match ? Number(match[1]) * (DURATION_UNITS_MS[(match[2] || 's').toLowerCase()] ?? 1000) : NaN;
      if (!Number.isSafeInteger(ms) || ms < minMs || ms > maxMs) {
        ctx.addIssue({
          code: z.ZodIssueCode.custom,
          message: `must be a duration such as 30d, 12h or 90m, at least ${minMs / 1000} seconds and at most ${maxMs / DAY_MS} days`,
        });
        return z.NEVER;
      }
      return ms;
    });

const booleanFromEnv = (fallback: boolean) =>
  z
    .string()
    .trim()
    .toLowerCase()
    .optional()
    .transform((text, ctx) => {
      if (text === undefined || text === '') return fallback;
      if (['true', '1', 'yes', 'on'].includes(text)) return true;
      if (['false', '0', 'no', 'off'].includes(text)) return false;
      ctx.addIssue({ code: z.ZodIssueCode.custom, message: 'must be true or false' });
      return z.NEVER;
    });

const EnvSchema = z.object({
  PORT: intFromEnv(3000, 0, 65535),
  HOST: z.string().trim().min(1).default('0.0.0.0'),
  RELAY_DATA_DIR: z.string().trim().min(1).default('./data'),
  DATABASE_URL: optionalText.refine((value) => value === undefined || /^postgres(ql)?:\/\/./.test(value), {
    message: 'must be a PostgreSQL URL such as postgres://relay:secret@db.internal:5432/relay (unset: SQLite in RELAY_DATA_DIR)',
  }),
  DATABASE_SCHEMA: z
    .string()
    .trim()
    .default('public')
    .refine((value) => /^[a-z_][a-z0-9_]{0,62}$/.test(value), { message: 'must be a plain lower-case schema name such as public or relay' }),
  DATABASE_POOL_MAX: intFromEnv(10, 1, 1000),
  // Every database call is bounded: the server cancels a statement past the first, the relay gives
  // up on a query unanswered past the second (a partition), and on a connection past the third; 0 = none.
  RELAY_DB_STATEMENT_TIMEOUT_MS: intFromEnv(10_000, 0, 3_600_000),
  RELAY_DB_QUERY_TIMEOUT_MS: intFromEnv(12_000, 0, 3_600_000),
  RELAY_DB_CONNECT_TIMEOUT_MS: intFromEnv(5_000, 100, 600_000),
  REDIS_URL: optionalText.refine((value) => value === undefined || /^rediss?:\/\/./.test(value), {
    message: 'must be a Redis URL such as redis://cache.internal:6379 or rediss://… (unset: limits and caches in this process only)',
  }),
  REDIS_KEY_PREFIX: z.string().trim().min(1).max(100).default('chat-relay:'),
  // What a rate or concurrency limit does when Redis cannot be asked: admit (open) or refuse with 503 (closed).
  RELAY_REDIS_FAILURE_MODE: z.enum(['open', 'closed'], { errorMap: () => ({ message: 'must be open or closed' }) }).default('open'),
  // Every cache is reloaded this often even without a change message (a message lost while Redis was away).
  RELAY_REFRESH_MS: intFromEnv(5_000, 200, 600_000),
  // Prompt-cache affinity: a session unused this long is no longer pinned to its channel and key; 0 = no affinity.
  RELAY_AFFINITY_TTL_MS: intFromEnv(DEFAULT_AFFINITY_TTL_MS, 0, 7 * 86_400_000),
  // Raw usage rows older than this many days are deleted (the hourly totals stay); 0 keeps them all.
  RELAY_LOG_RETENTION_DAYS: intFromEnv(0, 0, 36_500),
  RELAY_ADMIN_KEY: optionalText.refine((value) => value === undefined || value.length >= 16, {
    message: 'must be at least 16 characters',
  }),
  // A bearer secret for Prometheus scrapers of GET /metrics, so they need not hold the admin key.
  RELAY_METRICS_TOKEN: optionalText.refine((value) => value === undefined || value.length >= 16, {
    message: 'must be at least 16 characters',
  }),
  // Seals channel keys at rest (AES-256-GCM); unset: RELAY_SECRET_KEY_FILE, else <RELAY_DATA_DIR>/secret.key (made when missing).
  RELAY_SECRET_KEY: optionalText.refine((value) => value === undefined || value.length >= 32, {
    message: 'must be at least 32 characters (e.g. openssl rand -base64 32)',
  }),
  RELAY_SECRET_KEY_FILE: optionalText,
  // The secret being rotated away from: what it sealed is read, and sealed again under RELAY_SECRET_KEY at start.
  RELAY_SECRET_KEY_PREVIOUS: optionalText.refine((value) => value === undefined || value.length >= 32, {
    message: 'must be at least 32 characters',
  }),
  RELAY_LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  RELAY_MAX_BODY_BYTES: intFromEnv(20 * MIB, 1024, 1024 * MIB),
  // Audio uploads (transcriptions, translations): OpenAI takes files up to 25 MB.
  RELAY_MAX_UPLOAD_BYTES: intFromEnv(25 * MIB, 1024, 4096 * MIB),
  RELAY_MAX_RETRIES: intFromEnv(2, 0, 10),
  // Tools one request may define, and bytes their definitions may take (validation/tool-limits.ts).
  RELAY_MAX_TOOLS: intFromEnv(DEFAULT_MAX_TOOLS, 1, 1_000_000),
  RELAY_MAX_TOOLS_BYTES: intFromEnv(DEFAULT_MAX_TOOLS_BYTES, 1024, 1024 * MIB),
  RELAY_TRUST_PROXY: TrustProxyEnvSchema,
  RELAY_CORS_ORIGINS: corsOriginsFromEnv('*'),
  RELAY_CORS_API_ORIGINS: corsOriginsFromEnv(''),
  RELAY_QUOTA_DEFAULT_COMPLETION_TOKENS: intFromEnv(1024, 1, 10_000_000),
  // Completion tokens a quota reservation counts at most per choice: past it, a request may overspend (README, quota).
  RELAY_QUOTA_OUTPUT_RESERVATION_TOKENS: intFromEnv(8192, 1, 10_000_000),
  // A model with no price: refused before any upstream call (refuse), or served for nothing (free, for self-hosted installs).
  RELAY_UNPRICED_MODELS: z.enum(['refuse', 'free'], { errorMap: () => ({ message: 'must be refuse or free' }) }).default('refuse'),
  RELAY_USAGE_FLUSH_MS: intFromEnv(USAGE_FLUSH_INTERVAL_MS, 10, 60_000),
  // Usage rows kept in memory while the database cannot take them; past it, new requests get 503.
  RELAY_USAGE_BACKLOG_MAX: intFromEnv(USAGE_BACKLOG_MAX, 100, 10_000_000),
  RELAY_RESPONSES_STORE: booleanFromEnv(true),
  // At most 100 years: expiry is stored as an ISO date compared as text, which past year 9999 ('+010000-…') sorts before today.
  RELAY_RESPONSES_TTL: durationFromEnv('30d', 60_000, 36_500 * DAY_MS),
  // What one account keeps of the Responses API at most; storing past it removes that account's oldest first.
  RELAY_RESPONSES_MAX_BYTES_PER_ACCOUNT: intFromEnv(100 * MIB, 64 * 1024, Number.MAX_SAFE_INTEGER),
  RELAY_RESPONSES_MAX_PER_ACCOUNT: intFromEnv(10_000, 1, 100_000_000),
  // Web searches one bridged Response may run when the model calls the hosted web_search; past it the model must answer.
  RELAY_WEB_SEARCH_MAX_CALLS: intFromEnv(5, 1, 50),
  OPENAI_API_KEY: optionalText,
  OPENAI_BASE_URL: z
    .string()
    .trim()
    .url('must be a URL such as https://api.openai.com/v1')
    .default('https://api.openai.com/v1'),
  ANTHROPIC_API_KEY: optionalText,
  ANTHROPIC_BASE_URL: z.string().trim().url('must be a URL such as https://api.anthropic.com/v1').default('https://api.anthropic.com/v1'),
  GEMINI_API_KEY: optionalText,
  GEMINI_BASE_URL: z
    .string()
    .trim()
    .url('must be a URL such as https://generativelanguage.googleapis.com/v1beta')
    .default('https://generativelanguage.googleapis.com/v1beta'),
  // Scheduled channel check: open circuits and keys disabled after a 401/403 are tested this often (5 min); 0 = off.
  RELAY_CHANNEL_CHECK_MS: intFromEnv(300_000, 0, 7 * DAY_MS).refine((ms) => ms === 0 || ms >= 1000, {
    message: 'must be 0 (off) or at least 1000 (milliseconds)',
  }),
  // Long-running tasks (videos, songs): first poll after a submit, the longest wait between polls, when to give up.
  RELAY_TASK_POLL_MS: intFromEnv(2_000, 100, 3_600_000),
  RELAY_TASK_POLL_MAX_MS: intFromEnv(60_000, 100, DAY_MS),
  RELAY_TASK_TIMEOUT_MS: intFromEnv(DAY_MS, 1_000, 30 * DAY_MS),
  // Alerts (issue 32): percent of any limit an owner without thresholds of its own is alerted at ("" or none: never).
  RELAY_ALERT_THRESHOLDS: z
    .string()
    .trim()
    .default('80,100')
    .transform((text, ctx) => {
      if (text === '' || text.toLowerCase() === 'none') return [];
      const percents = text.split(',').map((part) => Number(part.trim()));
      if (percents.length > 10 || !percents.every((percent) => Number.isInteger(percent) && percent >= 1 && percent <= 100)) {
        ctx.addIssue({ code: z.ZodIssueCode.custom, message: 'must be up to 10 whole percents from 1 to 100 separated by commas, e.g. 50,80,100 (or none)' });
        return z.NEVER;
      }
      return [...new Set(percents)].sort((a, b) => a - b);
    }),
  // Webhooks: a receiver's time to answer, attempts in all, the first retry's wait (later ones grow from it), days deliveries are kept.
  RELAY_WEBHOOK_TIMEOUT_MS: intFromEnv(10_000, 100, 120_000),
  RELAY_WEBHOOK_MAX_ATTEMPTS: intFromEnv(8, 1, 50),
  RELAY_WEBHOOK_RETRY_MS: intFromEnv(5_000, 10, 3_600_000),
  RELAY_WEBHOOK_RETENTION_DAYS: intFromEnv(7, 1, 3_650),
  RELAY_SHUTDOWN_GRACE_MS: intFromEnv(30_000, 0, 3_600_000),
  RELAY_HEADERS_TIMEOUT_MS: intFromEnv(20_000, 100, 3_600_000),
  RELAY_REQUEST_TIMEOUT_MS: intFromEnv(60_000, 100, 3_600_000),
  // Responses over WebSocket: a socket with no frame and no response under way is closed after
  // the idle time; any socket after the age (OpenAI's own limit is 60 minutes).
  RELAY_RESPONSES_WS_IDLE_TIMEOUT_MS: intFromEnv(15 * 60_000, 1_000, DAY_MS),
  RELAY_RESPONSES_WS_MAX_AGE_MS: intFromEnv(60 * 60_000, 1_000, DAY_MS),
});

/** A channel created from the environment on first start (SPEC §3). */
export interface EnvChannel {
  type: 'openai' | 'anthropic' | 'gemini';
  apiKey: string;
  baseUrl: string;
  models: string[];
}

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  adminKey: string | undefined;
  /**
   * What seals channel keys at rest (security/secret-key-source.ts): RELAY_SECRET_KEY, else the
   * file RELAY_SECRET_KEY_FILE, else `<dataDir>/secret.key`; RELAY_SECRET_KEY_PREVIOUS while
   * rotating. Never logged.
   */
  secrets: { secretKey: string | undefined; secretKeyFile: string | undefined; previousSecretKey: string | undefined };
  /** Also admits `GET /metrics` besides the admin key (RELAY_METRICS_TOKEN); never logged. */
  metricsToken: string | undefined;
  logLevel: z.infer<typeof EnvSchema>['RELAY_LOG_LEVEL'];
  maxBodyBytes: number;
  /** Multipart audio uploads: a larger limit than JSON bodies (RELAY_MAX_UPLOAD_BYTES). */
  maxUploadBytes: number;
  maxRetries: number;
  /** Tools a request may define and bytes their definitions may take (RELAY_MAX_TOOLS, RELAY_MAX_TOOLS_BYTES). */
  toolLimits: ToolLimits;
  /** Express `trust proxy`: the proxies whose X-Forwarded-For is believed; undefined = none. */
  trustProxy: string[] | undefined;
  /** Origins browsers may call `/v1/*` and `/api/*` from. */
  cors: { v1: CorsOrigins; api: CorsOrigins };
  envChannels: EnvChannel[];
  /** SIGTERM: how long requests under way may still finish before open streams are ended. */
  shutdownGraceMs: number;
  /** Time to receive a request's headers, and its whole request (headers and body). */
  headersTimeoutMs: number;
  requestTimeoutMs: number;
  /** `GET /v1/responses` upgraded to a WebSocket: RELAY_RESPONSES_WS_IDLE_TIMEOUT_MS, RELAY_RESPONSES_WS_MAX_AGE_MS. */
  responsesWebSocket: { idleTimeoutMs: number; maxAgeMs: number };
  /** Completion tokens a quota reservation counts for a request that sets no max_tokens. */
  quotaDefaultCompletionTokens: number;
  /** Completion tokens a quota reservation counts at most per choice (RELAY_QUOTA_OUTPUT_RESERVATION_TOKENS). */
  quotaOutputReservationTokens: number;
  /** RELAY_UNPRICED_MODELS: refuse a model with no price (default), or serve it for nothing. */
  unpricedModels: 'refuse' | 'free';
  /** How often usage rows are written: the most a crash can lose (RELAY_USAGE_FLUSH_MS). */
  usageFlushMs: number;
  /** Usage rows held while the database cannot take them, at most (RELAY_USAGE_BACKLOG_MAX): past it, requests get 503. */
  usageBacklogMax: number;
  /**
   * Shared PostgreSQL (DATABASE_URL) instead of SQLite in `dataDir`; undefined = SQLite. Every
   * call bounded: RELAY_DB_STATEMENT_TIMEOUT_MS, RELAY_DB_QUERY_TIMEOUT_MS, RELAY_DB_CONNECT_TIMEOUT_MS.
   */
  database:
    | { url: string; schema: string; maxConnections: number; statementTimeoutMs: number; queryTimeoutMs: number; connectTimeoutMs: number }
    | undefined;
  /** Shared Redis (REDIS_URL) for limits, circuits and change messages; undefined = this process only. */
  redis: { url: string; keyPrefix: string; failureMode: 'open' | 'closed' } | undefined;
  /** How often every cache is reloaded without a change message (RELAY_REFRESH_MS). */
  refreshMs: number;
  /** How long a session stays pinned to the channel and key that last served it (RELAY_AFFINITY_TTL_MS); 0 = no affinity. */
  affinityTtlMs: number;
  /** Raw usage rows are kept this many days (0 = for ever); the hourly rollup stays. */
  logRetentionDays: number;
  /**
   * Responses API state (SPEC §8): whether `store` requests keep the response and its input
   * items on bridged channels (RELAY_RESPONSES_STORE), for how long (RELAY_RESPONSES_TTL), and
   * how much per account (RELAY_RESPONSES_MAX_BYTES_PER_ACCOUNT, RELAY_RESPONSES_MAX_PER_ACCOUNT).
   */
  responses: { store: boolean; ttlMs: number; maxBytesPerAccount: number; maxPerAccount: number };
  /** Web searches one bridged Response runs at most (RELAY_WEB_SEARCH_MAX_CALLS). */
  webSearchMaxCalls: number;
  /** How often the scheduled channel check runs (RELAY_CHANNEL_CHECK_MS); 0 = never. */
  channelCheckMs: number;
  /** Long-running tasks: RELAY_TASK_POLL_MS, RELAY_TASK_POLL_MAX_MS, RELAY_TASK_TIMEOUT_MS. */
  tasks: { firstDelayMs: number; maxDelayMs: number; giveUpAfterMs: number };
  /** Threshold alerts and webhooks: RELAY_ALERT_THRESHOLDS, RELAY_WEBHOOK_*, and RELAY_LIMITS_TIME_ZONE for windows. */
  alerts: { thresholds: number[]; defaultTimeZone: string; timeoutMs: number; maxAttempts: number; firstDelayMs: number; retentionDays: number };
}

export class ConfigError extends Error {}

/** Environment → typed Config. A bad value throws a ConfigError naming the variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const values = parsed.data;
  return {
    port: values.PORT,
    host: values.HOST,
    dataDir: path.resolve(values.RELAY_DATA_DIR),
    adminKey: values.RELAY_ADMIN_KEY,
    secrets: {
      secretKey: values.RELAY_SECRET_KEY,
      secretKeyFile: values.RELAY_SECRET_KEY_FILE === undefined ? undefined : path.resolve(values.RELAY_SECRET_KEY_FILE),
      previousSecretKey: values.RELAY_SECRET_KEY_PREVIOUS,
    },
    metricsToken: values.RELAY_METRICS_TOKEN,
    logLevel: values.RELAY_LOG_LEVEL,
    maxBodyBytes: values.RELAY_MAX_BODY_BYTES,
    maxUploadBytes: values.RELAY_MAX_UPLOAD_BYTES,
    maxRetries: values.RELAY_MAX_RETRIES,
    toolLimits: { maxTools: values.RELAY_MAX_TOOLS, maxToolsBytes: values.RELAY_MAX_TOOLS_BYTES },
    trustProxy: values.RELAY_TRUST_PROXY,
    cors: { v1: values.RELAY_CORS_ORIGINS, api: values.RELAY_CORS_API_ORIGINS },
    envChannels: envChannels(values),
    shutdownGraceMs: values.RELAY_SHUTDOWN_GRACE_MS,
    // Node refuses a headers timeout longer than the request timeout; the shorter one bounds both.
    headersTimeoutMs: Math.min(values.RELAY_HEADERS_TIMEOUT_MS, values.RELAY_REQUEST_TIMEOUT_MS),
    requestTimeoutMs: values.RELAY_REQUEST_TIMEOUT_MS,
    responsesWebSocket: { idleTimeoutMs: values.RELAY_RESPONSES_WS_IDLE_TIMEOUT_MS, maxAgeMs: values.RELAY_RESPONSES_WS_MAX_AGE_MS },
    quotaDefaultCompletionTokens: values.RELAY_QUOTA_DEFAULT_COMPLETION_TOKENS,
    quotaOutputReservationTokens: values.RELAY_QUOTA_OUTPUT_RESERVATION_TOKENS,
    unpricedModels: values.RELAY_UNPRICED_MODELS,
    usageFlushMs: values.RELAY_USAGE_FLUSH_MS,
    usageBacklogMax: values.RELAY_USAGE_BACKLOG_MAX,
    responses: {
      store: values.RELAY_RESPONSES_STORE,
      ttlMs: values.RELAY_RESPONSES_TTL,
      maxBytesPerAccount: values.RELAY_RESPONSES_MAX_BYTES_PER_ACCOUNT,
      maxPerAccount: values.RELAY_RESPONSES_MAX_PER_ACCOUNT,
    },
    webSearchMaxCalls: values.RELAY_WEB_SEARCH_MAX_CALLS,
    database: values.DATABASE_URL
      ? {
          url: values.DATABASE_URL,
          schema: values.DATABASE_SCHEMA,
          maxConnections: values.DATABASE_POOL_MAX,
          statementTimeoutMs: values.RELAY_DB_STATEMENT_TIMEOUT_MS,
          queryTimeoutMs: values.RELAY_DB_QUERY_TIMEOUT_MS,
          connectTimeoutMs: values.RELAY_DB_CONNECT_TIMEOUT_MS,
        }
      : undefined,
    redis: values.REDIS_URL ? { url: values.REDIS_URL, keyPrefix: values.REDIS_KEY_PREFIX, failureMode: values.RELAY_REDIS_FAILURE_MODE } : undefined,
    refreshMs: values.RELAY_REFRESH_MS,
    affinityTtlMs: values.RELAY_AFFINITY_TTL_MS,
    logRetentionDays: values.RELAY_LOG_RETENTION_DAYS,
    channelCheckMs: values.RELAY_CHANNEL_CHECK_MS,
    tasks: {
      firstDelayMs: values.RELAY_TASK_POLL_MS,
      maxDelayMs: Math.max(values.RELAY_TASK_POLL_MS, values.RELAY_TASK_POLL_MAX_MS),
      giveUpAfterMs: values.RELAY_TASK_TIMEOUT_MS,
    },
    alerts: {
      thresholds: values.RELAY_ALERT_THRESHOLDS,
      // RELAY_LIMITS_TIME_ZONE is the periodic limits' setting (validated there); the alerts count windows in it too.
      defaultTimeZone: env['RELAY_LIMITS_TIME_ZONE']?.trim() || 'UTC',
      timeoutMs: values.RELAY_WEBHOOK_TIMEOUT_MS,
      maxAttempts: values.RELAY_WEBHOOK_MAX_ATTEMPTS,
      firstDelayMs: values.RELAY_WEBHOOK_RETRY_MS,
      retentionDays: values.RELAY_WEBHOOK_RETENTION_DAYS,
    },
  };
}

const trimSlash = (url: string): string => url.replace(/\/+$/, '');

function envChannels(values: z.infer<typeof EnvSchema>): EnvChannel[] {
  const channels: EnvChannel[] = [];
  if (values.OPENAI_API_KEY) {
    // Any model: an OpenAI-compatible server (OpenAI, Ollama, vLLM) knows its own names.
    channels.push({ type: 'openai', apiKey: values.OPENAI_API_KEY, baseUrl: trimSlash(values.OPENAI_BASE_URL), models: ['*'] });
  }
  if (values.ANTHROPIC_API_KEY) {
    channels.push({ type: 'anthropic', apiKey: values.ANTHROPIC_API_KEY, baseUrl: trimSlash(values.ANTHROPIC_BASE_URL), models: ['claude-*'] });
  }
  if (values.GEMINI_API_KEY) {
    channels.push({ type: 'gemini', apiKey: values.GEMINI_API_KEY, baseUrl: trimSlash(values.GEMINI_BASE_URL), models: ['gemini-*'] });
  }
  return channels;
}
