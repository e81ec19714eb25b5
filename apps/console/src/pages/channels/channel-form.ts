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
  type ChannelCreate,
  type ChannelResponsesApi,
  type ChannelType,
  type ChannelUpdate,
  type Endpoint,
  type HostedToolKind,
} from '@chat-relay/contract';
import { formIssues, parseWholeNumber, type FormOutcome } from '../../api/form-issues';

/** What the channel form holds: text as typed, turned into the API's body on submit. */
export interface ChannelFormValues {
  name: string;
  type: ChannelType;
  baseUrl: string;
  /** One key per line; in the edit form empty means "keep the current keys". */
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
});

/** Each type in the form's Type field, with what to know when choosing it: the contract's catalogue rows. */
export const CHANNEL_TYPES: Readonly<Record<ChannelType, { label: string; hint: string }>> = CHANNEL_TYPE_CATALOGUE;

/** The endpoints the form offers for a type: only those it can serve at all, in the usual order. */
export const endpointsOfType = (type: ChannelType): Endpoint[] => ENDPOINTS.filter((endpoint) => CHANNEL_TYPE_ENDPOINTS[type].includes(endpoint));

/**
 * The form with another type: its default endpoints, or the chosen ones the new type can serve
 * (its defaults when none of them can) — a search engine keeps no chat ticked out of sight.
 */
export function withType(values: ChannelFormValues, type: ChannelType): ChannelFormValues {
  const kept = values.endpoints.filter((endpoint) => CHANNEL_TYPE_ENDPOINTS[type].includes(endpoint));
  const endpoints = values.useDefaultEndpoints || kept.length === 0 ? [...DEFAULT_CHANNEL_ENDPOINTS[type]] : kept;
  return { ...values, type, endpoints };
}

/** Names separated by commas or line breaks. */
export const splitList = (text: string): string[] =>
  text
    .split(/[\n,]/)
    .map((part) => part.trim())
    .filter((part) => part !== '');

/** One key per line; keys may contain commas, so only line breaks separate them. */
export const splitKeys = (text: string): string[] =>
  text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '');

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

/** The fields both forms send, before validation; the errors of what could not be read. */
function readFields(values: ChannelFormValues): { fields: Omit<ChannelCreate, 'keys'>; errors: string[] } {
  const errors: string[] = [];
  const priority = parseWholeNumber(values.priority, 'Priority');
  const weight = parseWholeNumber(values.weight, 'Weight');
  const mapping = parseModelMapping(values.modelMapping);
  for (const parsed of [priority, weight, mapping]) if ('error' in parsed) errors.push(parsed.error);
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
  };
  return { fields, errors };
}

/** `POST /api/channels` body, checked against the contract before it is sent. */
export function toChannelCreate(values: ChannelFormValues): FormOutcome<ChannelCreate> {
  const { fields, errors } = readFields(values);
  if (errors.length > 0) return { ok: false, errors };
  const parsed = ChannelCreateSchema.safeParse({ ...fields, keys: splitKeys(values.keys) });
  if (!parsed.success) return { ok: false, errors: formIssues(parsed.error.issues, CHANNEL_FIELD_LABELS, 'line') };
  return { ok: true, body: parsed.data };
}

const sameJson = (left: unknown, right: unknown): boolean => JSON.stringify(left) === JSON.stringify(right);

/**
 * `PATCH /api/channels/{id}` body: only what differs from the channel as loaded, and the keys
 * only when some were typed (they replace all current keys).
 */
export function toChannelUpdate(values: ChannelFormValues, original: Channel): FormOutcome<ChannelUpdate> {
  const { fields, errors } = readFields(values);
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
  };
  const changed = Object.fromEntries(Object.entries(fields).filter(([field, value]) => !sameJson(value, before[field])));
  const keys = splitKeys(values.keys);
  const body = keys.length > 0 ? { ...changed, keys } : changed;
  if (Object.keys(body).length === 0) return { ok: false, errors: ['Nothing changed.'] };
  const parsed = ChannelUpdateSchema.safeParse(body);
  if (!parsed.success) return { ok: false, errors: formIssues(parsed.error.issues, CHANNEL_FIELD_LABELS, 'line') };
  return { ok: true, body: parsed.data };
}
