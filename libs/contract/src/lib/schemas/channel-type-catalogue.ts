import { z } from 'zod';
import type { Endpoint } from './endpoint.schema';

/** What the contract knows of a channel type: how the console names it, and what it serves. */
export interface ChannelTypeRow {
  /** The console's name for the type. */
  label: string;
  /** What to know when choosing it (the console shows it under the Type field). */
  hint: string;
  /**
   * What a channel of the type can serve at all: a channel's own `endpoints` must stay within
   * it (a search engine answers no chat, and no model provider is a SearXNG).
   */
  endpoints: readonly Endpoint[];
  /**
   * What it serves when it does not say: everything its provider's API offers under the OpenAI
   * routes the relay translates to it. `rerank` is never a default — OpenAI has no such route;
   * an OpenAI-compatible server that has one (vLLM, TEI, Jina, Cohere-compatible) says so.
   */
  defaultEndpoints: readonly Endpoint[];
}

/**
 * Every channel type, one row each, in the order the console offers them. The type enum, the
 * endpoint tables and the console's labels all derive from here; libs/wire's `providerOf(type)`
 * holds how the relay talks to each (docs/guides/adding-a-channel-type.md).
 *
 * `openai`, `anthropic`, `gemini`: model providers (and whatever speaks their APIs); `azure`,
 * `bedrock`, `vertex`: the three clouds' model services (issue 31); `suno`: a
 * Suno-style music task API; `tavily`, `searxng`: web search engines (Tavily's API, a SearXNG).
 */
export const CHANNEL_TYPE_CATALOGUE = {
  openai: {
    label: 'OpenAI-compatible',
    hint: 'OpenAI or any server speaking its API (Ollama, vLLM …)',
    endpoints: ['chat', 'completions', 'embeddings', 'rerank', 'moderations', 'images', 'audio_speech', 'audio_transcriptions', 'videos'],
    defaultEndpoints: ['chat', 'completions', 'embeddings', 'moderations', 'images', 'audio_speech', 'audio_transcriptions', 'videos'],
  },
  anthropic: {
    label: 'Anthropic',
    hint: 'Anthropic Messages, base URL https://api.anthropic.com/v1',
    endpoints: ['chat', 'completions'],
    defaultEndpoints: ['chat', 'completions'],
  },
  gemini: {
    label: 'Gemini',
    hint: 'Google Gemini, base URL https://generativelanguage.googleapis.com/v1beta',
    endpoints: ['chat', 'completions', 'embeddings', 'images'],
    defaultEndpoints: ['chat', 'completions', 'embeddings', 'images'],
  },
  azure: {
    label: 'Azure OpenAI',
    hint: 'Azure OpenAI or AI Foundry, base URL https://{resource}.openai.azure.com; key: the api-key, or an Entra service principal as JSON',
    endpoints: ['chat', 'completions', 'embeddings', 'images', 'audio_speech', 'audio_transcriptions'],
    defaultEndpoints: ['chat', 'completions', 'embeddings', 'images', 'audio_speech', 'audio_transcriptions'],
  },
  bedrock: {
    label: 'Amazon Bedrock',
    hint: 'Bedrock Runtime, base URL https://bedrock-runtime.{region}.amazonaws.com; key: ACCESS_KEY_ID:SECRET_ACCESS_KEY[:SESSION_TOKEN] or a Bedrock API key',
    endpoints: ['chat', 'completions'],
    defaultEndpoints: ['chat', 'completions'],
  },
  vertex: {
    label: 'Google Vertex AI',
    hint: "Vertex AI, base URL https://aiplatform.googleapis.com, region in the channel's cloud settings; key: a service account's JSON key file",
    endpoints: ['chat', 'completions', 'embeddings'],
    defaultEndpoints: ['chat', 'completions', 'embeddings'],
  },
  suno: {
    label: 'Suno',
    hint: "Suno-style music API (new-api's /suno routes)",
    endpoints: ['music'],
    defaultEndpoints: ['music'],
  },
  tavily: {
    label: 'Tavily',
    hint: 'Tavily search API, base URL https://api.tavily.com',
    endpoints: ['search'],
    defaultEndpoints: ['search'],
  },
  searxng: {
    label: 'SearXNG',
    hint: 'your SearXNG, JSON format enabled',
    endpoints: ['search'],
    defaultEndpoints: ['search'],
  },
} as const satisfies Readonly<Record<string, ChannelTypeRow>>;

export type ChannelType = keyof typeof CHANNEL_TYPE_CATALOGUE;

/** The enum and the two endpoint tables of a catalogue: the relay's own below; a spec derives them for a catalogue with a row more. */
export function channelTypeTables<Type extends string>(catalogue: Readonly<Record<Type, ChannelTypeRow>>) {
  // `Object.keys` keeps the order the rows are written in: the console's order.
  const names = Object.keys(catalogue) as [Type, ...Type[]];
  const column = (read: (row: ChannelTypeRow) => readonly Endpoint[]): Readonly<Record<Type, readonly Endpoint[]>> =>
    Object.fromEntries(names.map((type) => [type, read(catalogue[type])])) as Record<Type, readonly Endpoint[]>;
  return {
    schema: z.enum(names),
    /** The `endpoints` column: what a channel of each type can serve at all. */
    servable: column((row) => row.endpoints),
    /** The `defaultEndpoints` column: what a channel of each type serves when it does not say. */
    defaults: column((row) => row.defaultEndpoints),
  };
}

const tables = channelTypeTables<ChannelType>(CHANNEL_TYPE_CATALOGUE);

export const ChannelTypeSchema = tables.schema;

/** The catalogue's `defaultEndpoints` column: what a channel of each type serves when it does not say. */
export const DEFAULT_CHANNEL_ENDPOINTS: Readonly<Record<ChannelType, readonly Endpoint[]>> = tables.defaults;

/** The catalogue's `endpoints` column: what a channel of each type can serve at all. */
export const CHANNEL_TYPE_ENDPOINTS: Readonly<Record<ChannelType, readonly Endpoint[]>> = tables.servable;
