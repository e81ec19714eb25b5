import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { geminiCommonResponses, meta } from './common-responses';
import { GeminiCountTokensRequestSchema, GeminiCountTokensResponseSchema } from './schemas/gemini/gemini-count-tokens.schema';
import {
  GeminiBatchEmbedContentsRequestSchema,
  GeminiBatchEmbedContentsResponseSchema,
  GeminiEmbedContentRequestSchema,
  GeminiEmbedContentResponseSchema,
} from './schemas/gemini/gemini-embed-content.schema';
import { GeminiGenerateContentRequestSchema, parseGeminiTarget, type GeminiMethod } from './schemas/gemini/gemini-generate-content-request.schema';
import { GeminiGenerateContentResponseSchema } from './schemas/gemini/gemini-generate-content-response.schema';
import { GeminiModelListQuerySchema, GeminiModelListSchema, GeminiModelParamsSchema, GeminiModelSchema } from './schemas/gemini/gemini-model.schema';

const c = initContract();

/** `{model}:{method}` for one of `methods`, the last path segment of Gemini's model methods. */
const geminiTargetParams = (methods: readonly GeminiMethod[]) =>
  z.object({
    target: z.string().refine((target) => {
      const method = parseGeminiTarget(target)?.method;
      return method !== undefined && methods.includes(method);
    }, 'names no method the relay serves'),
  });

/** `{model}:generateContent` or `{model}:streamGenerateContent`. */
export const GeminiTargetParamsSchema = geminiTargetParams(['generateContent', 'streamGenerateContent']);

/**
 * `alt=sse` asks for server-sent events (what Google's SDKs send); without it Google streams a
 * JSON array. `key` is the API key, as Google's own examples pass it. Other parameters (`$fields`,
 * `prettyPrint`) are accepted and not read.
 */
export const GeminiQuerySchema = z.object({ alt: z.string().optional(), key: z.string().optional() });

/**
 * The Gemini API (generativelanguage.googleapis.com `v1beta`), inbound: `@google/genai` and
 * Google's other SDKs call the relay as they would call Google, with the relay's key in
 * `x-goog-api-key`, `?key=` or `Authorization: Bearer`. Errors answer in Google's shape
 * (`dialect: 'gemini'`).
 */
export const geminiContract = c.router(
  {
    generateContent: {
      method: 'POST',
      path: '/v1beta/models/:target',
      summary:
        'Gemini API: `{model}:generateContent`, or `{model}:streamGenerateContent` (with `alt=sse` server-sent events, else a streamed JSON array)',
      pathParams: GeminiTargetParamsSchema,
      query: GeminiQuerySchema,
      body: GeminiGenerateContentRequestSchema,
      // Declared as JSON with an explicit content type so the server may send an answer that is
      // already serialised (an upstream's bytes) as it is; the body is still a GenerateContentResponse.
      responses: { 200: c.otherResponse({ contentType: 'application/json', body: GeminiGenerateContentResponseSchema }) },
      metadata: meta({ auth: 'token', streaming: true, dialect: 'gemini', geminiMethods: ['generateContent', 'streamGenerateContent'] }),
    },
    countTokens: {
      method: 'POST',
      path: '/v1beta/models/:target',
      summary: 'Gemini API: `{model}:countTokens`, counted by a gemini channel serving the model, else by the relay; never charged',
      pathParams: geminiTargetParams(['countTokens']),
      query: GeminiQuerySchema,
      body: GeminiCountTokensRequestSchema,
      responses: { 200: GeminiCountTokensResponseSchema },
      // Never streamed: `streaming` here means "a relayed request", which gets its usage-log row.
      metadata: meta({ auth: 'token', streaming: true, dialect: 'gemini', geminiMethods: ['countTokens'] }),
    },
    embedContent: {
      method: 'POST',
      path: '/v1beta/models/:target',
      summary: 'Gemini API: `{model}:embedContent`, on any channel that embeds (priced per input token, as /v1/embeddings)',
      pathParams: geminiTargetParams(['embedContent']),
      query: GeminiQuerySchema,
      body: GeminiEmbedContentRequestSchema,
      responses: { 200: GeminiEmbedContentResponseSchema },
      metadata: meta({ auth: 'token', streaming: true, dialect: 'gemini', endpoint: 'embeddings', geminiMethods: ['embedContent'] }),
    },
    batchEmbedContents: {
      method: 'POST',
      path: '/v1beta/models/:target',
      summary: 'Gemini API: `{model}:batchEmbedContents` (what `@google/genai` models.embedContent calls), on any channel that embeds',
      pathParams: geminiTargetParams(['batchEmbedContents']),
      query: GeminiQuerySchema,
      body: GeminiBatchEmbedContentsRequestSchema,
      responses: { 200: GeminiBatchEmbedContentsResponseSchema },
      metadata: meta({ auth: 'token', streaming: true, dialect: 'gemini', endpoint: 'embeddings', geminiMethods: ['batchEmbedContents'] }),
    },
    listGeminiModels: {
      method: 'GET',
      path: '/v1beta/models',
      summary: 'Gemini API: the models this key may use through the Gemini routes, in Google’s shape, paged by pageSize and pageToken',
      query: GeminiModelListQuerySchema,
      responses: { 200: GeminiModelListSchema },
      metadata: meta({ auth: 'token', dialect: 'gemini' }),
    },
    getGeminiModel: {
      method: 'GET',
      path: '/v1beta/models/:model',
      summary: 'Gemini API: one model this key may use, in Google’s shape',
      pathParams: GeminiModelParamsSchema,
      query: GeminiQuerySchema,
      responses: { 200: GeminiModelSchema },
      metadata: meta({ auth: 'token', dialect: 'gemini' }),
    },
  },
  { commonResponses: geminiCommonResponses, strictStatusCodes: true },
);
