import {
  CHANNEL_TYPE_CATALOGUE,
  CHANNEL_TYPE_ENDPOINTS,
  ChannelCreateSchema,
  ChannelTypeSchema,
  ChannelUpdateSchema,
  DEFAULT_CHANNEL_ENDPOINTS,
  ENDPOINTS,
  HOSTED_TOOL_KINDS,
  type Channel,
  type ChannelCloud,
  type ChannelCreate,
  type ChannelResponsesApi,
  type ChannelType,
  type ChannelUpdate,
  type Endpoint,
  type HostedToolKind,
} from '@chat-relay/contract';
import type { ZodIssue } from 'zod';
import { formIssues, parseWholeNumber, type FormOutcome } from '../../api/form-issues';
import { parseKeys } from './channel-key-text';
import { readCloud, takesCloud } from './channel-type-fields';

/** What the channel form holds: text as typed, turned into the API's body on submit. */
export interface ChannelFormValues {
  name: string;
  type: ChannelType;
  baseUrl: string;
  /** One key per line, a JSON key over as many as it spans (parseKeys); in the edit form empty means "keep the current keys". */
  keys: string;
  models: string;
  /** Lines `public=upstream`. */
  modelMapping: string;
  priority: string;
  weight: string;
  responsesApi: ChannelResponsesApi;
  useDefaultEndpoints: boolean;
  endpoints: Endpoint[];
  enabled: boolean;
  /** What passes through beyond plain tokens (issue 26): hosted tool kinds, tiers (comma separated), audio, upstream objects. */
  hostedTools: HostedToolKind[];
  serviceTiers: string;
  audioOutput: boolean;
  upstreamObjects: boolean;
  /** `cloud.region` (bedrock, vertex) and `cloud.api_version` (azure) as typed; empty: none. */
  region: string;
  apiVersion: string;
}

export const CHANNEL_FIELD_LABELS: Readonly<Record<string, string>> = {
  name: 'Name',
  type: 'Type',
  base_url: 'Base URL',
  keys: 'Keys',
  models: 'Models',
  model_mapping: 'Model mapping',
  priority: 'Priority',
  weight: 'Weight',
  responses_api: 'Responses API',
  endpoints: 'Endpoints',
  enabled: 'Enabled',
  passthrough: 'Passthrough',
  // `cloud.region` and `cloud.api_version`: named by their own fields (toFormIssues).
  region: 'Region',
  api_version: 'API version',
};

/** A new channel starts as the catalogue's first type (the one most upstreams speak). */
const FIRST_TYPE: ChannelType = ChannelTypeSchema.options[0];

export const emptyChannelForm = (): ChannelFormValues => ({
  name: '',
  type: FIRST_TYPE,
  baseUrl: '',
  keys: '',
  models: '',
  modelMapping: '',
  priority: '0',
  weight: '1',
  responsesApi: 'auto',
  useDefaultEndpoints: true,
  endpoints: [...DEFAULT_CHANNEL_ENDPOINTS[FIRST_TYPE]],
  enabled: true,
  hostedTools: [],
  serviceTiers: '',
  audioOutput: false,
  upstreamObjects: false,
  region: '',
  apiVersion: '',
});

/** The edit form of a channel: everything but its keys, which the API never shows. */
export const channelFormFrom = (channel: Channel): ChannelFormValues => ({
  name: channel.name,
  type: channel.type,
  baseUrl: channel.base_url,
  keys: '',
  models: channel.models.join('\n'),
  modelMapping: Object.entries(channel.model_mapping)
    .map(([from, to]) => `${from}=${to}`)
    .join('\n'),
  priority: String(channel.priority),
  weight: String(channel.weight),
  responsesApi: channel.responses_api,
  useDefaultEndpoints: channel.endpoints_default,
  endpoints: [...channel.endpoints],
  enabled: channel.enabled,
  hostedTools: HOSTED_TOOL_KINDS.filter((kind) => channel.passthrough.hosted_tools.includes(kind)),
  serviceTiers: channel.passthrough.service_tiers.join(', '),
  audioOutput: channel.passthrough.audio_output,
  upstreamObjects: channel.passthrough.upstream_objects,
  region: channel.cloud.region ?? '',
  apiVersion: channel.cloud.api_version ?? '',
});

/** Each type in the form's Type field, with what to know when choosing it: the contract's catalogue rows. */
export const CHANNEL_TYPES: Readonly<Record<ChannelType, { label: string; hint: string }>> = CHANNEL_TYPE_CATALOGUE;

/** The endpoints the form offers for a type: only those it can serve at all, in the usual order. */
export const endpointsOfType = (type: ChannelType): Endpoint[] => ENDPOINTS.filter((endpoint) => CHANNEL_TYPE_ENDPOINTS[type].includes(endpoint));

/**
 * The form with another type: its default endpoints, or the chosen ones the new type can serve
 * (its defaults when none of them can) — a search engine keeps no chat ticked out of sight. The
 * cloud settings go: an AWS region means nothing to Vertex, and other types take none.
 */
export function withType(values: ChannelFormValues, type: ChannelType): ChannelFormValues {
  if (type === values.type) return values;
  const kept = values.endpoints.filter((endpoint) => CHANNEL_TYPE_ENDPOINTS[type].includes(endpoint));
  const endpoints = values.useDefaultEndpoints || kept.length === 0 ? [...DEFAULT_CHANNEL_ENDPOINTS[type]] : kept;
  return { ...values, type, endpoints, region: '', apiVersion: '' };
}

/** Names separated by commas or line breaks. */
export const splitList = (text: string): string[] =>
  text
    .split(/[\n,]/)
    .map((part) => part.trim())
    .filter((part) => part !== '');

/** Lines `public=upstream` → the mapping; a line without `=` or with an empty side is an error. */
export function parseModelMapping(text: string): { mapping: Record<string, string> } | { error: string } {
  const mapping: Record<string, string> = {};
  const lines = text.split(/\r?\n/);
  for (const [index, line] of lines.entries()) {
    if (line.trim() === '') continue;
    const at = line.indexOf('=');
    const from = at < 0 ? '' : line.slice(0, at).trim();
    const to = at < 0 ? '' : line.slice(at + 1).trim();
    if (from === '' || to === '') return { error: `Model mapping (line ${index + 1}): write public-name=upstream-name` };
    mapping[from] = to;
  }
  return { mapping };
}

/** The fields both forms send, before validation, and the keys typed; the errors of what could not be read. */
function readFields(values: ChannelFormValues): { fields: Omit<ChannelCreate, 'keys'> & { cloud: ChannelCloud }; keys: string[]; errors: string[] } {
  const errors: string[] = [];
  const priority = parseWholeNumber(values.priority, 'Priority');
  const weight = parseWholeNumber(values.weight, 'Weight');
  const mapping = parseModelMapping(values.modelMapping);
  const keys = parseKeys(values.keys);
  const cloud = readCloud(values);
  for (const parsed of [priority, weight, mapping, keys, cloud]) if ('error' in parsed) errors.push(parsed.error);
  const fields = {
    name: values.name,
    type: values.type,
    base_url: values.baseUrl.trim(),
    models: splitList(values.models),
    model_mapping: 'mapping' in mapping ? mapping.mapping : {},
    priority: 'value' in priority ? priority.value : 0,
    weight: 'value' in weight ? weight.value : 1,
    enabled: values.enabled,
    responses_api: values.responsesApi,
    endpoints: values.useDefaultEndpoints ? null : values.endpoints,
    passthrough: {
      hosted_tools: values.hostedTools,
      service_tiers: splitList(values.serviceTiers),
      audio_output: values.audioOutput,
      upstream_objects: values.upstreamObjects,
    },
    cloud: 'cloud' in cloud ? cloud.cloud : {},
  };
  return { fields, keys: 'keys' in keys ? keys.keys : [], errors };
}

/** The contract's complaints in the form's words; `cloud.region` is the Region field's, not a "cloud" one. */
const toFormIssues = (issues: readonly ZodIssue[]): string[] =>
  formIssues(
    issues.map((issue) => (issue.path[0] === 'cloud' && issue.path.length > 1 ? { ...issue, path: issue.path.slice(1) } : issue)),
    CHANNEL_FIELD_LABELS,
    'line',
  );

/** `POST /api/channels` body, checked against the contract before it is sent. */
export function toChannelCreate(values: ChannelFormValues): FormOutcome<ChannelCreate> {
  const { fields, keys, errors } = readFields(values);
  if (errors.length > 0) return { ok: false, errors };
  // Left out for the types that take no cloud settings, as the contract's default.
  const { cloud, ...rest } = fields;
  const parsed = ChannelCreateSchema.safeParse({ ...rest, ...(takesCloud(values.type) ? { cloud } : {}), keys });
  if (!parsed.success) return { ok: false, errors: toFormIssues(parsed.error.issues) };
  return { ok: true, body: parsed.data };
}

const sameJson = (left: unknown, right: unknown): boolean => JSON.stringify(left) === JSON.stringify(right);

/**
 * `PATCH /api/channels/{id}` body: only what differs from the channel as loaded, and the keys
 * only when some were typed (they replace all current keys).
 */
export function toChannelUpdate(values: ChannelFormValues, original: Channel): FormOutcome<ChannelUpdate> {
  const { fields, keys, errors } = readFields(values);
  if (errors.length > 0) return { ok: false, errors };
  const before: Record<string, unknown> = {
    name: original.name,
    type: original.type,
    base_url: original.base_url,
    models: original.models,
    model_mapping: original.model_mapping,
    priority: original.priority,
    weight: original.weight,
    enabled: original.enabled,
    responses_api: original.responses_api,
    endpoints: original.endpoints_default ? null : original.endpoints,
    passthrough: { ...original.passthrough, hosted_tools: HOSTED_TOOL_KINDS.filter((kind) => original.passthrough.hosted_tools.includes(kind)) },
    // In readCloud's key order; a type switched away from a cloud sends `{}`, which clears them.
    cloud: { ...(original.cloud.region !== undefined ? { region: original.cloud.region } : {}), ...(original.cloud.api_version !== undefined ? { api_version: original.cloud.api_version } : {}) },
  };
  const changed = Object.fromEntries(Object.entries(fields).filter(([field, value]) => !sameJson(value, before[field])));
  const body = keys.length > 0 ? { ...changed, keys } : changed;
  if (Object.keys(body).length === 0) return { ok: false, errors: ['Nothing changed.'] };
  const parsed = ChannelUpdateSchema.safeParse(body);
  if (!parsed.success) return { ok: false, errors: toFormIssues(parsed.error.issues) };
  return { ok: true, body: parsed.data };
}
