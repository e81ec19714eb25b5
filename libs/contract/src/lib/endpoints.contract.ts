import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { commonResponses, meta } from './common-responses';
import { SpeechRequestSchema, TranscriptionFieldsSchema, TranscriptionSchema, TranslationFieldsSchema } from './schemas/openai-endpoints/audio.schema';
import { CompletionRequestSchema, CompletionSchema } from './schemas/openai-endpoints/completions.schema';
import { EmbeddingListSchema, EmbeddingRequestSchema } from './schemas/openai-endpoints/embeddings.schema';
import { ImageEditFieldsSchema, ImageGenerationRequestSchema, ImagesResponseSchema } from './schemas/openai-endpoints/images.schema';
import { ModerationRequestSchema, ModerationResponseSchema } from './schemas/openai-endpoints/moderations.schema';
import { RerankRequestSchema, RerankResponseSchema } from './schemas/openai-endpoints/rerank.schema';
import { SearchRequestSchema, SearchResponseSchema } from './schemas/search.schema';

const c = initContract();

/** Declared with an explicit content type so an upstream's own bytes may be sent as they are. */
const json = <T extends z.ZodTypeAny>(body: T) => c.otherResponse({ contentType: 'application/json', body });

/**
 * The OpenAI endpoints beside chat (SPEC §7a), each on the one relay pipeline: answered natively
 * by `openai` channels that serve the endpoint, translated for other providers where they have a
 * counterpart. Each has its own unit of cost in the price table.
 */
export const endpointsContract = c.router(
  {
    createCompletion: {
      method: 'POST',
      path: '/v1/completions',
      summary: 'Create a text completion (legacy; streamed as text/event-stream when `stream` is true). Priced per token.',
      body: CompletionRequestSchema,
      responses: { 200: json(CompletionSchema) },
      metadata: meta({ auth: 'token', streaming: true, endpoint: 'completions' }),
    },
    createEmbedding: {
      method: 'POST',
      path: '/v1/embeddings',
      summary: 'Create embeddings (float or base64). Priced per input token.',
      body: EmbeddingRequestSchema,
      responses: { 200: json(EmbeddingListSchema) },
      metadata: meta({ auth: 'token', streaming: true, endpoint: 'embeddings' }),
    },
    createRerank: {
      method: 'POST',
      path: '/v1/rerank',
      summary: 'Rank documents by relevance to a query (Cohere/Jina shape). Priced per search unit (a query over up to 100 documents).',
      body: RerankRequestSchema,
      responses: { 200: json(RerankResponseSchema) },
      metadata: meta({ auth: 'token', streaming: true, endpoint: 'rerank' }),
    },
    createModeration: {
      method: 'POST',
      path: '/v1/moderations',
      summary: 'Classify text and images as potentially harmful. Priced per input token.',
      body: ModerationRequestSchema,
      responses: { 200: json(ModerationResponseSchema) },
      metadata: meta({ auth: 'token', streaming: true, endpoint: 'moderations' }),
    },
    createImage: {
      method: 'POST',
      path: '/v1/images/generations',
      summary: 'Generate images from a prompt (b64_json or url). Priced per image by quality and size, plus tokens where the model reports them.',
      body: ImageGenerationRequestSchema,
      responses: { 200: json(ImagesResponseSchema) },
      metadata: meta({ auth: 'token', streaming: true, endpoint: 'images' }),
    },
    editImage: {
      method: 'POST',
      path: '/v1/images/edits',
      contentType: 'multipart/form-data',
      summary: 'Edit or extend images (multipart upload, streamed to the upstream). Priced as image generation.',
      body: ImageEditFieldsSchema,
      responses: { 200: json(ImagesResponseSchema) },
      metadata: meta({ auth: 'token', streaming: true, endpoint: 'images' }),
    },
    createSpeech: {
      method: 'POST',
      path: '/v1/audio/speech',
      summary: 'Text to speech: the audio is streamed through as the upstream sends it. Priced per million input characters.',
      body: SpeechRequestSchema,
      responses: { 200: c.otherResponse({ contentType: 'audio/mpeg', body: z.unknown() }) },
      metadata: meta({ auth: 'token', streaming: true, endpoint: 'audio_speech' }),
    },
    createTranscription: {
      method: 'POST',
      path: '/v1/audio/transcriptions',
      contentType: 'multipart/form-data',
      summary: 'Transcribe audio (multipart upload, streamed to the upstream); json, text, srt, vtt or verbose_json. Priced per minute of audio, or per token for token-priced models.',
      body: TranscriptionFieldsSchema,
      responses: { 200: json(TranscriptionSchema) },
      metadata: meta({ auth: 'token', streaming: true, endpoint: 'audio_transcriptions' }),
    },
    createTranslation: {
      method: 'POST',
      path: '/v1/audio/translations',
      contentType: 'multipart/form-data',
      summary: 'Translate audio into English text (multipart upload); priced as transcription.',
      body: TranslationFieldsSchema,
      responses: { 200: json(TranscriptionSchema) },
      metadata: meta({ auth: 'token', streaming: true, endpoint: 'audio_transcriptions' }),
    },
    search: {
      method: 'POST',
      path: '/v1/search',
      summary:
        'Search the web through a search channel (Tavily, SearXNG): `query`, `max_results`, `include_domains`, `exclude_domains`, `recency`. Priced per query.',
      body: SearchRequestSchema,
      responses: { 200: SearchResponseSchema },
      metadata: meta({ auth: 'token', streaming: true, endpoint: 'search' }),
    },
  },
  { commonResponses, strictStatusCodes: true },
);
