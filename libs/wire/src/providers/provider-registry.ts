import type { ChannelTypeRow, Endpoint, SearchRequest } from '@chat-relay/contract';
import type { EndpointAdapter, MultipartRequest } from '../hub/endpoint-adapter';
import type { NativeAdapter } from '../hub/native-adapter';
import type { ProviderAdapter } from '../hub/provider-adapter';
import type { UpstreamTarget } from '../hub/upstream-adapter';
import type { JsonRequest } from '../openai-endpoints/endpoint-common';
import type { VideoSubmitRequest } from '../tasks/openai-videos-provider';
import type { SunoTaskRequest } from '../tasks/suno-provider';
import type { TaskProvider } from '../tasks/task-provider';
import type { ChannelProvider, HealthProbe, JsonEndpointRoute, ModelList, MultipartEndpointRoute, NativeDialect, TokenCounter } from './channel-provider';

/** What each route beyond chat is, as an endpoint of the catalogue: a provider serving the route must have its endpoint in its row. */
const JSON_ROUTE_ENDPOINTS: Readonly<Record<JsonEndpointRoute, Endpoint>> = {
  completions: 'completions',
  embeddings: 'embeddings',
  rerank: 'rerank',
  moderations: 'moderations',
  images_generations: 'images',
  audio_speech: 'audio_speech',
};
const MULTIPART_ROUTE_ENDPOINTS: Readonly<Record<MultipartEndpointRoute, Endpoint>> = {
  images_edits: 'images',
  audio_transcriptions: 'audio_transcriptions',
  audio_translations: 'audio_transcriptions',
};

/** Every lookup the relay makes into the providers, by channel type. */
export interface ProviderLookups<Type extends string> {
  types: readonly Type[];
  providerOf(type: Type): ChannelProvider;
  /** The hub adapter of a type serving chat, for the model sent upstream; throws for one serving none (routing never asks). */
  chatAdapterOf(type: Type, upstreamModel?: string): ProviderAdapter;
  jsonEndpointAdapter(route: JsonEndpointRoute, type: Type): EndpointAdapter<JsonRequest> | undefined;
  multipartEndpointAdapter(route: MultipartEndpointRoute, type: Type): EndpointAdapter<MultipartRequest> | undefined;
  searchAdapterFor(type: Type): EndpointAdapter<SearchRequest> | undefined;
  videoTaskProvider(type: Type): TaskProvider<VideoSubmitRequest> | undefined;
  musicTaskProvider(type: Type): TaskProvider<SunoTaskRequest> | undefined;
  modelListOf(type: Type): ModelList | undefined;
  healthProbeOf(type: Type): HealthProbe;
  tokenCounterOf(type: Type): TokenCounter | undefined;
  /** Whether the hub request goes to the type as it is (see ChannelProvider.sendsHubAsIs). */
  sendsHubAsIs(type: Type): boolean;
  /** The one type speaking `dialect` itself (its requests pass through to its channels). */
  nativeChannelType(dialect: NativeDialect): Type;
  nativeAdapterOf(dialect: NativeDialect): NativeAdapter;
  /** The adapter through which a channel of `type` takes `dialect` for `upstreamModel` as it is, or undefined (bridged). */
  nativeAdapterFor(type: Type, dialect: NativeDialect, upstreamModel: string, channel?: UpstreamTarget): NativeAdapter | undefined;
}

/**
 * Why `providers` do not match `catalogue`, one line each, or none: every row needs a module and
 * every module a row, and a module offers nothing its row does not say the type serves.
 */
export function providerMismatches(catalogue: Readonly<Record<string, ChannelTypeRow>>, providers: Readonly<Record<string, ChannelProvider>>): string[] {
  const problems: string[] = [];
  for (const type of Object.keys(catalogue)) if (!(type in providers)) problems.push(`${type} has a catalogue row but no provider module`);
  for (const [type, provider] of Object.entries(providers)) {
    const row = catalogue[type];
    if (!row) {
      problems.push(`${type} has a provider module but no catalogue row`);
      continue;
    }
    const offered = new Set<Endpoint>();
    if (provider.chat || provider.chatFor) offered.add('chat');
    for (const route of Object.keys(provider.json ?? {}) as JsonEndpointRoute[]) offered.add(JSON_ROUTE_ENDPOINTS[route]);
    for (const route of Object.keys(provider.multipart ?? {}) as MultipartEndpointRoute[]) offered.add(MULTIPART_ROUTE_ENDPOINTS[route]);
    if (provider.search) offered.add('search');
    if (provider.tasks?.videos) offered.add('videos');
    if (provider.tasks?.music) offered.add('music');
    for (const endpoint of offered) if (!row.endpoints.includes(endpoint)) problems.push(`${type} offers ${endpoint}, which its catalogue row does not serve`);
    for (const endpoint of row.endpoints) if (!offered.has(endpoint)) problems.push(`${type} serves ${endpoint} by its catalogue row, but its provider module has no adapter for it`);
  }
  return problems;
}

/**
 * The lookups over one catalogue and its provider modules. The relay's own are built once over
 * CHANNEL_TYPE_CATALOGUE; a spec builds them over a catalogue with one more row to show what a
 * new type gets. Throws when the two do not match, so a mismatch fails at load, not on a request.
 */
export function providerLookups<Type extends string>(
  catalogue: Readonly<Record<Type, ChannelTypeRow>>,
  providers: Readonly<Record<Type, ChannelProvider>>,
): ProviderLookups<Type> {
  const problems = providerMismatches(catalogue, providers);
  if (problems.length > 0) throw new Error(`channel providers do not match the catalogue: ${problems.join('; ')}`);
  const types = Object.keys(catalogue) as Type[];
  const providerOf = (type: Type): ChannelProvider => providers[type];
  const nativeSpeaker = (dialect: NativeDialect): { type: Type; adapter: NativeAdapter } => {
    for (const type of types) {
      const adapter = providers[type].native?.[dialect];
      if (adapter) return { type, adapter };
    }
    throw new Error(`no channel type speaks ${dialect} natively`);
  };
  return {
    types,
    providerOf,
    chatAdapterOf: (type, upstreamModel) => {
      const provider = providers[type];
      const chat = (upstreamModel !== undefined ? provider.chatFor?.(upstreamModel) : undefined) ?? provider.chat;
      // Types without chat are never routed chat (their catalogue rows serve none).
      if (!chat) throw new Error(`a ${type} channel speaks no chat`);
      return chat;
    },
    jsonEndpointAdapter: (route, type) => providers[type].json?.[route],
    multipartEndpointAdapter: (route, type) => providers[type].multipart?.[route],
    searchAdapterFor: (type) => providers[type].search,
    videoTaskProvider: (type) => providers[type].tasks?.videos,
    musicTaskProvider: (type) => providers[type].tasks?.music,
    modelListOf: (type) => providers[type].modelList,
    healthProbeOf: (type) => providers[type].probe,
    tokenCounterOf: (type) => providers[type].tokenCounter,
    sendsHubAsIs: (type) => providers[type].sendsHubAsIs === true,
    nativeChannelType: (dialect) => nativeSpeaker(dialect).type,
    nativeAdapterOf: (dialect) => nativeSpeaker(dialect).adapter,
    nativeAdapterFor: (type, dialect, upstreamModel, channel) => {
      const provider = providers[type];
      return provider.nativeFor ? provider.nativeFor(dialect, upstreamModel, channel) : provider.native?.[dialect];
    },
  };
}
