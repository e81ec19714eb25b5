import { z } from 'zod';
import { pageOf, TimestampSchema } from './common.schema';
import { ErrorBodySchema } from './error.schema';
import { CHANNEL_TYPE_ENDPOINTS, ChannelTypeSchema, type ChannelType } from './channel-type-catalogue';
import { EndpointSchema, type Endpoint } from './endpoint.schema';
import { ChannelPassthroughInputSchema, ChannelPassthroughSchema } from './passthrough.schema';

/** A model name or a glob (`gpt-4o*`, `*-gizmo-*`): `*` any run of characters, `?` one. */
const ModelPatternSchema = z.string().trim().min(1).max(200);

export const ChannelTimeoutsSchema = z
  .object({
    connect_ms: z.number().int().min(1).max(600_000),
    first_byte_ms: z.number().int().min(1).max(3_600_000),
    idle_ms: z.number().int().min(1).max(3_600_000),
  })
  .strict();
export type ChannelTimeouts = z.infer<typeof ChannelTimeoutsSchema>;

/**
 * Whether an `openai` channel speaks the Responses API (`POST /v1/responses`) itself.
 * `auto`: try the channel's own `/responses` first, and switch the channel to `bridged` by itself
 * when that answers 404 or 405 (a chat-completions-only OpenAI-compatible server);
 * `native`: always pass Responses requests through to the channel;
 * `bridged`: always translate them through chat completions.
 * Only `openai` channels have a native Responses API: other types accept the field, but their
 * Responses requests are always bridged, whatever it says.
 */
export const ChannelResponsesApiSchema = z.enum(['auto', 'native', 'bridged']);
export type ChannelResponsesApi = z.infer<typeof ChannelResponsesApiSchema>;

/**
 * Where in its cloud a channel's requests go (issue 31): `region` — Bedrock's AWS region (signed
 * into every request; read from a `bedrock-runtime.{region}.amazonaws.com` base URL when absent),
 * Vertex's location (`us-east5`, `global`; absent: `global`); `api_version` — Azure's deployments
 * API (`{base}/openai/deployments/{model}/…?api-version=`); absent: Azure's v1 API. Other types
 * take none.
 */
export const ChannelCloudSchema = z
  .object({
    region: z
      .string()
      .trim()
      .regex(/^[a-z][a-z0-9-]{1,39}$/, 'a region is lower-case letters, digits and dashes, e.g. us-east-1 or global')
      .optional(),
    api_version: z
      .string()
      .trim()
      .regex(/^(\d{4}-\d{2}-\d{2}(-preview)?|v1|preview|latest)$/, 'an api-version is a date such as 2024-10-21 (or 2025-04-01-preview)')
      .optional(),
  })
  .strict();
export type ChannelCloud = z.infer<typeof ChannelCloudSchema>;

/**
 * The api-version offered for Azure's deployments API: the latest GA release of Azure OpenAI's
 * data-plane inference spec (https://learn.microsoft.com/en-us/azure/ai-foundry/openai/reference
 * — "the latest GA release … 2024-10-21"). Newer dated versions are previews, retired on a rolling
 * basis; what is newer than this GA (the Responses API among it) is on the v1 API, which needs no
 * version (https://learn.microsoft.com/en-us/azure/ai-foundry/openai/api-version-lifecycle).
 */
export const AZURE_DEFAULT_API_VERSION = '2024-10-21';

/** `bedrock-runtime.us-east-1.amazonaws.com`, a FIPS host, a VPC endpoint `vpce-….bedrock-runtime.us-east-1.vpce.amazonaws.com`. */
const BEDROCK_HOST_REGION = /(?:^|\.)bedrock-runtime(?:-fips)?\.([a-z]{2}(?:-[a-z]+)+-\d)\.(?:vpce\.)?amazonaws\.com(?:\.cn)?$/;

/** The AWS region a Bedrock base URL names, when it names one (a bedrock channel needs a region to sign for). */
export function regionOfBedrockUrl(baseUrl: string): string | undefined {
  try {
    return BEDROCK_HOST_REGION.exec(new URL(baseUrl).hostname)?.[1];
  } catch {
    return undefined;
  }
}

const baseUrl = z
  .string()
  .url()
  .refine((url) => /^https?:\/\//i.test(url), 'must be an http(s) URL')
  .transform((url) => url.replace(/\/+$/, ''));

const channelFields = {
  name: z.string().trim().min(1).max(200),
  type: ChannelTypeSchema,
  /** Includes the version path, as an OpenAI SDK's baseURL does: `https://api.openai.com/v1`. */
  base_url: baseUrl,
  keys: z.array(z.string().min(1).max(4096)).min(1).max(1000),
  models: z.array(ModelPatternSchema).min(1).max(1000),
  /** Public model name → the name sent upstream. */
  model_mapping: z.record(z.string().min(1), z.string().min(1)),
  priority: z.number().int().min(-1_000_000).max(1_000_000),
  weight: z.number().int().min(1).max(1_000_000),
  enabled: z.boolean(),
  timeouts: ChannelTimeoutsSchema.partial().strict(),
  responses_api: ChannelResponsesApiSchema,
  /** What the channel serves (see EndpointSchema); `null`: its type's defaults (DEFAULT_CHANNEL_ENDPOINTS). */
  endpoints: z
    .array(EndpointSchema)
    .min(1)
    .max(EndpointSchema.options.length)
    .refine((list) => new Set(list).size === list.length, 'each endpoint may appear once')
    .nullable(),
  /** What passes through to the channel beyond plain tokens (see ChannelPassthroughSchema); fields left out keep their value. */
  passthrough: ChannelPassthroughInputSchema,
  /** A cloud channel's region and API version; `{}` clears them. */
  cloud: ChannelCloudSchema,
};

/** `an openai channel`, `a tavily channel`: how messages name a channel by its type. */
export const aChannelOfType = (type: ChannelType): string => `${/^[aeiou]/.test(type) ? 'an' : 'a'} ${type} channel`;

/**
 * Why `endpoints` do not fit a channel of `type` (CHANNEL_TYPE_ENDPOINTS: a search engine answers
 * no chat), or undefined when they do; `null` endpoints are the type's defaults, which always fit.
 */
export function endpointsBeyondType(type: ChannelType, endpoints: readonly Endpoint[] | null | undefined): string | undefined {
  if (!endpoints) return undefined;
  const servable = CHANNEL_TYPE_ENDPOINTS[type];
  const beyond = endpoints.filter((endpoint) => !servable.includes(endpoint));
  if (beyond.length === 0) return undefined;
  return `${aChannelOfType(type)} can serve only ${servable.join(', ')}; ${beyond.join(', ')} ${beyond.length === 1 ? 'is' : 'are'} not among them`;
}

/** The refine both bodies share: only when the body names both, else the server checks against the stored channel. */
function checkEndpointsFitType(body: { type?: ChannelType; endpoints?: readonly Endpoint[] | null }, context: z.RefinementCtx): void {
  if (body.type === undefined) return;
  const problem = endpointsBeyondType(body.type, body.endpoints);
  if (problem) context.addIssue({ code: z.ZodIssueCode.custom, path: ['endpoints'], message: problem });
}

/**
 * The base URL of a cloud channel created without one (issue 31): Bedrock's runtime in the
 * channel's region, Vertex's global host (a region's own host is derived from its setting);
 * undefined for every other type (and for Bedrock without a region).
 */
export function defaultCloudBaseUrl(type: ChannelType, cloud: ChannelCloud | undefined): string | undefined {
  if (type === 'bedrock') return cloud?.region ? `https://bedrock-runtime.${cloud.region}.amazonaws.com` : undefined;
  if (type === 'vertex') return 'https://aiplatform.googleapis.com';
  return undefined;
}

/** Only Bedrock and Vertex channels may leave `base_url` out (their clouds' own hosts); Bedrock then needs its region. */
function checkBaseUrlGiven(body: { type: ChannelType; base_url?: string; cloud?: ChannelCloud }, context: z.RefinementCtx): void {
  if (body.base_url !== undefined) return;
  if (body.type === 'bedrock' && !body.cloud?.region) {
    context.addIssue({ code: z.ZodIssueCode.custom, path: ['cloud', 'region'], message: 'a bedrock channel without base_url needs its region (its base URL is bedrock-runtime.{region}.amazonaws.com)' });
  } else if (defaultCloudBaseUrl(body.type, body.cloud) === undefined) {
    context.addIssue({ code: z.ZodIssueCode.invalid_type, path: ['base_url'], expected: 'string', received: 'undefined', message: 'Required' });
  }
}

export const ChannelCreateSchema = z
  .object({
    ...channelFields,
    /** Left out: only for bedrock and vertex, whose clouds' hosts are known (defaultCloudBaseUrl). */
    base_url: channelFields.base_url.optional(),
    model_mapping: channelFields.model_mapping.optional(),
    priority: channelFields.priority.optional(),
    weight: channelFields.weight.optional(),
    enabled: channelFields.enabled.optional(),
    timeouts: channelFields.timeouts.optional(),
    /** Left out: `auto`. */
    responses_api: channelFields.responses_api.optional(),
    /** Left out or null: the type's defaults. */
    endpoints: channelFields.endpoints.optional(),
    /** Left out: nothing beyond plain tokens (DEFAULT_CHANNEL_PASSTHROUGH). */
    passthrough: channelFields.passthrough.optional(),
    /** Left out: none (only `azure`, `bedrock` and `vertex` channels take any). */
    cloud: channelFields.cloud.optional(),
  })
  .strict()
  .superRefine(checkEndpointsFitType)
  .superRefine(checkBaseUrlGiven);
export type ChannelCreate = z.infer<typeof ChannelCreateSchema>;

export const ChannelUpdateSchema = z
  .object({
    ...channelFields,
    /**
     * Positions (as in `key_status[].index`) of disabled keys to put back in rotation. Keys given
     * in `keys` always start active, so sending the keys again re-enables them too.
     */
    enable_keys: z.array(z.number().int().min(0).max(999)).min(1).max(1000),
  })
  .partial()
  .strict()
  .refine((update) => Object.keys(update).length > 0, 'must change at least one field')
  .superRefine(checkEndpointsFitType);
export type ChannelUpdate = z.infer<typeof ChannelUpdateSchema>;

/** One key of a channel as the API shows it: its hint and state, never the key (SPEC §6). */
export const ChannelKeyStatusSchema = z.object({
  index: z.number().int(),
  hint: z.string(),
  /** `disabled`: the upstream refused it (401/403); out of rotation until the admin re-enables it. */
  status: z.enum(['active', 'disabled']),
  reason: z.string().nullable(),
  changed_at: TimestampSchema.nullable(),
});
export type ChannelKeyStatus = z.infer<typeof ChannelKeyStatusSchema>;

/** The channel's circuit breaker as this relay instance sees it (failures in its sliding window). */
export const ChannelHealthSchema = z.object({
  state: z.enum(['closed', 'open', 'half_open']),
  attempts: z.number().int(),
  failures: z.number().int(),
  /** When an open circuit lets one trial request through. */
  open_until: TimestampSchema.nullable(),
  /**
   * Parameters the channel's upstream refused by name for a model (issue 28), left out of its
   * adapted requests since (or `at_most`: output tokens lowered to that limit). This instance's
   * memory, forgotten when the channel changes.
   */
  refused_parameters: z.array(
    z.object({
      /** The upstream model name, after the channel's mapping. */
      model: z.string(),
      /** The Chat Completions field (`max_tokens` stands for the output bound). */
      field: z.string(),
      at_most: z.number().int().nullable(),
      since: TimestampSchema,
    }),
  ),
});
export type ChannelHealth = z.infer<typeof ChannelHealthSchema>;

/** A model as the channel's upstream lists it, and what it serves when the upstream says (Gemini does). */
export const SyncedModelSchema = z.object({
  id: z.string(),
  /** `null`: the upstream does not say; the channel's endpoints apply, narrowed by the name (see EndpointSchema). */
  endpoints: z.array(EndpointSchema).nullable(),
});
export type SyncedModelView = z.infer<typeof SyncedModelSchema>;

/** Why the last model list sync of this relay instance failed (kept in memory, cleared by a sync that succeeds). */
export const ChannelModelSyncErrorSchema = z.object({
  message: z.string(),
  code: z.string().nullable(),
  at: TimestampSchema,
});
export type ChannelModelSyncError = z.infer<typeof ChannelModelSyncErrorSchema>;

/** `POST /api/channels/{id}/models/sync`: the upstream's list as stored, and what the relay now lists for the channel. */
export const ChannelModelSyncSchema = z.object({
  channel_id: z.number().int(),
  synced_at: TimestampSchema,
  models: z.array(SyncedModelSchema),
  /** Names `GET /v1/models` shows for this channel while it is enabled: plain names, mapping keys, synced names its globs take. */
  listed: z.array(z.string()),
});
export type ChannelModelSync = z.infer<typeof ChannelModelSyncSchema>;

/**
 * The last test of the channel on this relay instance: `POST /api/channels/{id}/test` (`manual`)
 * or the scheduled check of a channel with an open circuit or a key the relay disabled
 * (`scheduled`, RELAY_CHANNEL_CHECK_MS). Kept in memory; `null` until the first.
 */
export const ChannelCheckSchema = z.object({
  ok: z.boolean(),
  latency_ms: z.number().int(),
  model: z.string(),
  status: z.number().int().optional(),
  error: ErrorBodySchema.optional(),
  at: TimestampSchema,
  trigger: z.enum(['manual', 'scheduled']),
});
export type ChannelCheck = z.infer<typeof ChannelCheckSchema>;

/** What the API shows of a channel: never its keys, only their hints. */
export const ChannelSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  type: ChannelTypeSchema,
  base_url: z.string(),
  key_hints: z.array(z.string()),
  key_status: z.array(ChannelKeyStatusSchema),
  /** True while at least one key is active: with every key disabled the channel is out of rotation. */
  has_active_key: z.boolean(),
  health: ChannelHealthSchema,
  models: z.array(z.string()),
  model_mapping: z.record(z.string()),
  priority: z.number().int(),
  weight: z.number().int(),
  enabled: z.boolean(),
  timeouts: ChannelTimeoutsSchema,
  /** `auto` until the admin sets it, or until the channel answered 404/405 on `/responses` (then `bridged`). */
  responses_api: ChannelResponsesApiSchema,
  /** What the channel serves: the admin's list, or its type's defaults. */
  endpoints: z.array(EndpointSchema),
  /** Whether `endpoints` are the type's defaults (the admin set none). */
  endpoints_default: z.boolean(),
  /** What passes through to the channel beyond plain tokens. */
  passthrough: ChannelPassthroughSchema,
  /** A cloud channel's region and API version (`{}` for the others). */
  cloud: ChannelCloudSchema,
  /** Models in the upstream's list as last synced; `null`: never synced. */
  synced_models_count: z.number().int().nullable(),
  models_synced_at: TimestampSchema.nullable(),
  /** The last sync's failure on this relay instance, when the last one failed. */
  models_sync_error: ChannelModelSyncErrorSchema.nullable(),
  /** The last test on this relay instance, manual or scheduled. */
  last_check: ChannelCheckSchema.nullable(),
  created_at: TimestampSchema,
  updated_at: TimestampSchema,
});
export type Channel = z.infer<typeof ChannelSchema>;

export const ChannelPageSchema = pageOf(ChannelSchema);

/**
 * `POST /api/channels/{id}/test`: a model the channel serves (default: the first it names), and
 * optionally one key to test alone (`key_status[].index`; default: its next active key), so a
 * disabled key can be tried before it is re-enabled.
 */
export const ChannelTestRequestSchema = z
  .object({ model: ModelPatternSchema.optional(), key_index: z.number().int().min(0).max(999).optional() })
  .strict();
export type ChannelTestRequest = z.infer<typeof ChannelTestRequestSchema>;

/** One real minimal request through the channel; `error` is the upstream's, keys redacted. */
export const ChannelTestResultSchema = z.object({
  ok: z.boolean(),
  latency_ms: z.number().int(),
  model: z.string(),
  /** The upstream's HTTP status, when it answered. */
  status: z.number().int().optional(),
  error: ErrorBodySchema.optional(),
});
export type ChannelTestResult = z.infer<typeof ChannelTestResultSchema>;
