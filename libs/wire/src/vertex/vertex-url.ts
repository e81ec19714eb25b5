import { upstreamError } from '../errors/relay-error';
import { trimBaseUrl } from '../hub/native-request-body';
import type { UpstreamTarget } from '../hub/upstream-adapter';
import { cloudKeyOf } from '../providers/cloud-keys';

/** The catalogue's base URL: the global host, made regional for a region other than `global`. */
export const VERTEX_GLOBAL_HOST = 'https://aiplatform.googleapis.com';

/** Vertex's location when a channel names none: the global endpoint (Claude 4.5 and Gemini 2.5+ are served there). */
export const VERTEX_DEFAULT_REGION = 'global';

/** Who publishes a model on Vertex: Google's Gemini, or Anthropic's Claude through rawPredict. */
export type VertexPublisher = 'google' | 'anthropic';

/**
 * Claude on Vertex: `claude-…` ids, dated with `@` (`claude-sonnet-4-5@20250929`) or not
 * (`claude-opus-4-6`) — https://cloud.google.com/vertex-ai/generative-ai/docs/partner-models/claude/use-claude.
 * Every other model is Gemini's API.
 */
export function isVertexClaude(upstreamModel: string): boolean {
  return /^claude-/i.test(upstreamModel.replace(/^(publishers\/anthropic\/)?models\//, ''));
}

/** The channel's location: its cloud setting's region, else `global`. */
export function vertexRegionOf(channel: UpstreamTarget): string {
  return channel.cloud?.region?.trim() || VERTEX_DEFAULT_REGION;
}

/** Vertex's multi-region locations, each with its own host (as Anthropic's Vertex SDK maps them: packages/vertex-sdk/src/client.ts). */
const MULTI_REGIONS: ReadonlySet<string> = new Set(['us', 'eu']);

/**
 * The host a channel's requests go to: on the catalogue's base URL, a region other than
 * `global` has its own host (`https://{region}-aiplatform.googleapis.com`,
 * https://cloud.google.com/vertex-ai/generative-ai/docs/learn/locations; the `us` and `eu`
 * multi-regions `https://aiplatform.{us|eu}.rep.googleapis.com`); any other base URL (a private
 * endpoint, the simulator) is used as it is.
 */
export function vertexHostOf(channel: UpstreamTarget): string {
  const base = trimBaseUrl(channel.baseUrl);
  const region = vertexRegionOf(channel);
  if (base !== VERTEX_GLOBAL_HOST || region === VERTEX_DEFAULT_REGION) return base;
  if (MULTI_REGIONS.has(region)) return `https://aiplatform.${region}.rep.googleapis.com`;
  return `https://${region}-aiplatform.googleapis.com`;
}

/** The service account's project: the key file's `project_id`. */
export function vertexProjectOf(key: string): string {
  const credential = cloudKeyOf('vertex', key);
  // A channel's keys are checked when it is saved, so this is the relay's fault, not the caller's.
  if (credential?.kind !== 'google-service-account') throw upstreamError("The vertex channel's key is not a service account's JSON key file.", 'invalid_channel_key');
  return credential.projectId;
}

export interface VertexModelCall {
  channel: UpstreamTarget;
  key: string;
  publisher: VertexPublisher;
  /** The model id as Vertex names it (`gemini-2.5-flash`, `claude-sonnet-4-5@20250929`). */
  model: string;
  /** `generateContent`, `streamGenerateContent?alt=sse`, `rawPredict`, `streamRawPredict`, `predict`. */
  method: string;
}

/**
 * `{host}/v1/projects/{project}/locations/{region}/publishers/{publisher}/models/{model}:{method}`
 * (https://cloud.google.com/vertex-ai/generative-ai/docs/model-reference/inference). The `@` of a
 * Claude id stays as it is: Vertex's own examples send it unescaped.
 */
export function vertexModelUrl({ channel, key, publisher, model, method }: VertexModelCall): string {
  const project = encodeURIComponent(vertexProjectOf(key));
  const region = encodeURIComponent(vertexRegionOf(channel));
  const id = encodeURIComponent(model.replace(/^(publishers\/[^/]+\/)?models\//, '')).replace(/%40/g, '@');
  return `${vertexHostOf(channel)}/v1/projects/${project}/locations/${region}/publishers/${publisher}/models/${id}:${method}`;
}
