import { z } from 'zod';

/**
 * What a request asks a model for (SPEC §7a). A channel serves some of these (what each type can
 * serve and serves by default: CHANNEL_TYPE_CATALOGUE), and routing picks only channels serving
 * the endpoint asked for:
 * - `chat`: Chat Completions, Anthropic Messages, the Responses API and Gemini's generateContent;
 * - `completions`: legacy text completions (`/v1/completions`);
 * - `embeddings`, `rerank`, `moderations`;
 * - `images`: `/v1/images/generations` and `/v1/images/edits`;
 * - `audio_speech`: `/v1/audio/speech` (text to speech);
 * - `audio_transcriptions`: `/v1/audio/transcriptions` and `/v1/audio/translations`;
 * - `videos`: `/v1/videos` (an asynchronous task: submitted, polled, its content fetched);
 * - `music`: the Suno-style task routes (`/suno/submit/:action`, `/suno/fetch`);
 * - `search`: `/v1/search` (and the hosted `web_search` tool of bridged Responses requests).
 */
export const EndpointSchema = z.enum([
  'chat',
  'completions',
  'embeddings',
  'rerank',
  'moderations',
  'images',
  'audio_speech',
  'audio_transcriptions',
  'videos',
  'music',
  'search',
]);
export type Endpoint = z.infer<typeof EndpointSchema>;
export const ENDPOINTS: readonly Endpoint[] = EndpointSchema.options;

/**
 * What a usage row is of: an endpoint, or `count_tokens` — a token count (Anthropic's
 * `/v1/messages/count_tokens`), which is no model call: its rows are never chat requests nor
 * tokens in usage, the usage series or metrics (issue 28). Not something a channel serves.
 */
export const UsageEndpointSchema = z.enum([...EndpointSchema.options, 'count_tokens']);
export type UsageEndpoint = z.infer<typeof UsageEndpointSchema>;

/** The route a caller uses for an endpoint, as error messages and the README name it. */
export const ENDPOINT_ROUTES: Readonly<Record<Endpoint, string>> = {
  chat: '/v1/chat/completions',
  completions: '/v1/completions',
  embeddings: '/v1/embeddings',
  rerank: '/v1/rerank',
  moderations: '/v1/moderations',
  images: '/v1/images',
  audio_speech: '/v1/audio/speech',
  audio_transcriptions: '/v1/audio/transcriptions',
  videos: '/v1/videos',
  music: '/suno/submit/:action',
  search: '/v1/search',
};
