import type { ChannelType } from '@chat-relay/contract';
import { anthropicAdapter } from '../anthropic-messages/anthropic-adapter';
import { geminiAdapter } from '../gemini/gemini-adapter';
import { geminiEmbeddingsAdapter } from '../gemini/gemini-embeddings-adapter';
import { geminiImagesAdapter } from '../gemini/gemini-images-adapter';
import type { EndpointAdapter, MultipartRequest } from '../hub/endpoint-adapter';
import { bridgedCompletionsAdapter } from './bridged-completions-adapter';
import type { JsonRequest } from './endpoint-common';
import { openAiCompletionsAdapter } from './openai-completions-adapter';
import { openAiImageEditsAdapter, openAiImageGenerationsAdapter } from './openai-images-adapters';
import { openAiEmbeddingsAdapter, openAiModerationsAdapter, openAiSpeechAdapter } from './openai-passthrough-adapters';
import { openAiTranscriptionsAdapter } from './openai-transcriptions-adapter';
import { openAiRerankAdapter } from './rerank-adapter';

export type JsonEndpointRoute = 'completions' | 'embeddings' | 'rerank' | 'moderations' | 'images_generations' | 'audio_speech';
export type MultipartEndpointRoute = 'images_edits' | 'audio_transcriptions' | 'audio_translations';

/**
 * Who serves what beyond chat (SPEC §7a): OpenAI-compatible channels every route, passed through;
 * Anthropic and Gemini channels completions (as one chat turn); Gemini embeddings and image
 * generation in its own API. A route a channel type is missing from here it cannot serve.
 */
const JSON_ADAPTERS: Readonly<Record<JsonEndpointRoute, Partial<Record<ChannelType, EndpointAdapter<JsonRequest>>>>> = {
  completions: {
    openai: openAiCompletionsAdapter,
    anthropic: bridgedCompletionsAdapter(anthropicAdapter, 'Anthropic'),
    gemini: bridgedCompletionsAdapter(geminiAdapter, 'Gemini'),
  },
  embeddings: { openai: openAiEmbeddingsAdapter, gemini: geminiEmbeddingsAdapter },
  rerank: { openai: openAiRerankAdapter },
  moderations: { openai: openAiModerationsAdapter },
  images_generations: { openai: openAiImageGenerationsAdapter, gemini: geminiImagesAdapter },
  audio_speech: { openai: openAiSpeechAdapter },
};

const MULTIPART_ADAPTERS: Readonly<Record<MultipartEndpointRoute, Partial<Record<ChannelType, EndpointAdapter<MultipartRequest>>>>> = {
  images_edits: { openai: openAiImageEditsAdapter },
  audio_transcriptions: { openai: openAiTranscriptionsAdapter('audio/transcriptions') },
  audio_translations: { openai: openAiTranscriptionsAdapter('audio/translations') },
};

/** The adapter for a JSON route on a channel type; undefined: that channel type cannot serve the route. */
export function jsonEndpointAdapter(route: JsonEndpointRoute, channelType: ChannelType): EndpointAdapter<Readonly<Record<string, unknown>>> | undefined {
  return JSON_ADAPTERS[route][channelType];
}

/** The adapter for a multipart route on a channel type; undefined: that channel type cannot serve the route. */
export function multipartEndpointAdapter(route: MultipartEndpointRoute, channelType: ChannelType): EndpointAdapter<MultipartRequest> | undefined {
  return MULTIPART_ADAPTERS[route][channelType];
}
