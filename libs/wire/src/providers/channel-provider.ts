import type { Endpoint, SearchRequest } from '@chat-relay/contract';
import type { z } from 'zod';
import type { EndpointAdapter, MultipartRequest } from '../hub/endpoint-adapter';
import type { NativeAdapter, NativeBuildArgs } from '../hub/native-adapter';
import type { ProviderAdapter } from '../hub/provider-adapter';
import type { UpstreamCloud, UpstreamFailure, UpstreamRequest, UpstreamTarget } from '../hub/upstream-adapter';
import type { JsonRequest } from '../openai-endpoints/endpoint-common';
import type { VideoSubmitRequest } from '../tasks/openai-videos-provider';
import type { SunoTaskRequest } from '../tasks/suno-provider';
import type { TaskProvider } from '../tasks/task-provider';

export type JsonEndpointRoute = 'completions' | 'embeddings' | 'rerank' | 'moderations' | 'images_generations' | 'audio_speech';
export type MultipartEndpointRoute = 'images_edits' | 'audio_transcriptions' | 'audio_translations';

/** A caller dialect a provider may speak itself, so its requests pass through unbridged. */
export type NativeDialect = 'messages' | 'generate_content' | 'responses';

/** A non-2xx answer → a §9 error, in the provider's own error shapes. */
export type MapErrorResponse = (status: number, text: string, secrets: readonly string[]) => UpstreamFailure;

/** The endpoints a model's name says it serves, or `null` (the server's table: `endpointsNamedBy`). */
export type EndpointsNamedBy = (model: string) => readonly Endpoint[] | null;

/** A model as a provider lists it; `endpoints: null` when the provider does not say what it serves. */
export interface ListedModel {
  id: string;
  endpoints: Endpoint[] | null;
}

/** One page of a provider's model list, and the cursor of the next page when there is one. */
export interface ModelListPage {
  models: ListedModel[];
  next?: string;
}

/** How the relay reads a provider's model list: `GET` each page, with the key, parsed in its dialect. */
export interface ModelList {
  /** `cloud`: the channel's cloud settings (Azure's api-version picks its list's route). */
  url(baseUrl: string, cursor: string | undefined, cloud?: UpstreamCloud): string;
  headers(key: string): Record<string, string>;
  parse(json: unknown, namedBy: EndpointsNamedBy): z.SafeParseReturnType<unknown, ModelListPage>;
  mapErrorResponse: MapErrorResponse;
}

/**
 * The free request that tells whether a channel's base URL and key work, when it serves no chat
 * (a chat channel is tested with a minimal chat request instead).
 */
export interface HealthProbe {
  /** The request line without the base URL: the test result's `model`. */
  name: string;
  method: 'GET' | 'POST';
  /** Beside the base URL: `/search`, `/suno/fetch`, or the whole URL of a model list. */
  url(baseUrl: string, cloud?: UpstreamCloud): string;
  /** Absent: the request carries no key (a SearXNG has none), so a 401/403 refuses no key. */
  headers?(key: string): Record<string, string>;
  body?: unknown;
  /** Whether a 2xx answer's JSON is what this API answers (else the base URL points elsewhere). */
  isAnswer(json: unknown): boolean;
  /** A model provider's own error shapes; absent: the usual shapes, read by the server. */
  mapErrorResponse?: MapErrorResponse;
  /** What a status means for this upstream, beyond what it said. */
  hint?(status: number): string | undefined;
}

/** A provider's own token count of a caller's request in its native dialect (Anthropic's count_tokens). */
export interface TokenCounter {
  dialect: NativeDialect;
  /** Whether it counts for this upstream model (Vertex counts Claude only); absent: every model. */
  counts?(upstreamModel: string): boolean;
  buildRequest(args: NativeBuildArgs): UpstreamRequest;
  /**
   * The provider's parsed answer → the dialect's count answer (Bedrock's `{inputTokens}` →
   * Anthropic's `{input_tokens}`); absent: the provider answers in the dialect already.
   */
  convertResponse?(json: unknown): unknown;
  mapErrorResponse: MapErrorResponse;
}

/**
 * Everything the relay knows about talking to one channel type's provider. Each capability is
 * optional: a type offers only what its catalogue row says it serves (a spec holds the two together).
 */
export interface ChannelProvider {
  /** Chat through the hub (Chat Completions in, Chat Completions out); absent: no chat. */
  chat?: ProviderAdapter;
  /**
   * A type reaching several model families through different APIs (Vertex: Gemini's and
   * Anthropic's; Bedrock: InvokeModel for Claude, Converse for the rest): the chat adapter for
   * the model sent upstream, `chat` when it answers undefined.
   */
  chatFor?(upstreamModel: string): ProviderAdapter | undefined;
  /** The caller's requests the hub sends as they are, unknown fields and all (an OpenAI-compatible upstream), so passthrough policing applies to them. */
  sendsHubAsIs?: true;
  /** The JSON routes beyond chat it serves. */
  json?: Readonly<Partial<Record<JsonEndpointRoute, EndpointAdapter<JsonRequest>>>>;
  /** The multipart routes it serves. */
  multipart?: Readonly<Partial<Record<MultipartEndpointRoute, EndpointAdapter<MultipartRequest>>>>;
  search?: EndpointAdapter<SearchRequest>;
  tasks?: { videos?: TaskProvider<VideoSubmitRequest>; music?: TaskProvider<SunoTaskRequest> };
  /** The caller dialects it speaks itself: their requests pass through, model mapped. */
  native?: Readonly<Partial<Record<NativeDialect, NativeAdapter>>>;
  /**
   * Native dialects spoken by some of its models only (Claude on Vertex speaks Messages, Gemini
   * on Vertex generateContent): the adapter for the upstream model, or undefined when that model
   * does not speak the dialect (its requests are bridged). Absent: `native`, for every model.
   */
  nativeFor?(dialect: NativeDialect, upstreamModel: string, channel?: UpstreamTarget): NativeAdapter | undefined;
  modelList?: ModelList;
  tokenCounter?: TokenCounter;
  /** How a channel of the type serving no chat is tested. */
  probe: HealthProbe;
}

/** The probe of a type with a model list: `GET {base}/models` in its dialect — free, and it needs a key that works. */
export function modelListProbe(list: ModelList, namedBy: EndpointsNamedBy = () => null): HealthProbe {
  return {
    name: 'GET /models',
    method: 'GET',
    url: (baseUrl, cloud) => list.url(baseUrl, undefined, cloud),
    headers: (key) => list.headers(key),
    isAnswer: (json) => list.parse(json, namedBy).success,
    mapErrorResponse: list.mapErrorResponse,
  };
}

