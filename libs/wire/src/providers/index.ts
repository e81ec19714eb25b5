import { CHANNEL_TYPE_CATALOGUE, type ChannelType } from '@chat-relay/contract';
import { anthropicProvider } from './anthropic';
import { azureProvider } from './azure';
import { bedrockProvider } from './bedrock';
import type { ChannelProvider } from './channel-provider';
import { geminiProvider } from './gemini';
import { openAiProvider } from './openai';
import { providerLookups } from './provider-registry';
import { searxngProvider } from './searxng';
import { sunoProvider } from './suno';
import { tavilyProvider } from './tavily';
import { vertexProvider } from './vertex';

export * from './channel-provider';
export { providerLookups, providerMismatches, type ProviderLookups } from './provider-registry';
export { geminiEndpoints } from './gemini';
export { AZURE_DEFAULT_API_VERSION, buildAzureResponsesRequest, mapAzureErrorResponse } from './azure';

/** One module per channel type, keyed like the contract's catalogue (docs/guides/adding-a-channel-type.md). */
export const CHANNEL_PROVIDERS: Readonly<Record<ChannelType, ChannelProvider>> = {
  openai: openAiProvider,
  anthropic: anthropicProvider,
  gemini: geminiProvider,
  azure: azureProvider,
  bedrock: bedrockProvider,
  vertex: vertexProvider,
  suno: sunoProvider,
  tavily: tavilyProvider,
  searxng: searxngProvider,
};

const lookups = providerLookups(CHANNEL_TYPE_CATALOGUE, CHANNEL_PROVIDERS);

export const {
  providerOf,
  chatAdapterOf,
  jsonEndpointAdapter,
  multipartEndpointAdapter,
  searchAdapterFor,
  videoTaskProvider,
  musicTaskProvider,
  modelListOf,
  healthProbeOf,
  tokenCounterOf,
  sendsHubAsIs,
  nativeChannelType,
  nativeAdapterOf,
  nativeAdapterFor,
} = lookups;
export * from './cloud-keys';
