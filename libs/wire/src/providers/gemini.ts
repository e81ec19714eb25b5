import { ENDPOINTS, type Endpoint } from '@chat-relay/contract';
import { z } from 'zod';
import { geminiAdapter } from '../gemini/upstream/gemini-adapter';
import { geminiEmbeddingsAdapter } from '../gemini/upstream/gemini-embeddings-adapter';
import { geminiImagesAdapter } from '../gemini/upstream/gemini-images-adapter';
import { geminiNativeAdapter } from '../gemini/native/gemini-native-adapter';
import { buildGeminiCountTokensRequest } from '../gemini/native/gemini-count-tokens-request';
import { bridgedCompletionsAdapter } from '../openai-endpoints/bridged-completions-adapter';
import { modelListProbe, type ChannelProvider, type EndpointsNamedBy, type ModelList } from './channel-provider';
import { geminiAuthHeaders } from './provider-auth';

export { geminiAuthHeaders };

/** Gemini leaves `models` out of an empty page. */
const GeminiModelListSchema = z.object({
  models: z.array(z.object({ name: z.string().min(1), supportedGenerationMethods: z.array(z.string()).optional() })).optional(),
  nextPageToken: z.string().optional(),
});

/** What a Gemini method name says a model serves through the relay; others (countTokens, bidiGenerateContent …) say nothing. */
const GEMINI_METHOD_ENDPOINTS: Readonly<Record<string, readonly Endpoint[]>> = {
  generateContent: ['chat', 'completions'],
  embedContent: ['embeddings'],
  batchEmbedContents: ['embeddings'],
  predict: ['images'],
};

/**
 * A Gemini model's methods → the endpoints it serves. An image-output model (its name says
 * images) makes images through generateContent, as the relay's images route asks it to.
 */
export function geminiEndpoints(name: string, methods: readonly string[], namedBy: EndpointsNamedBy): Endpoint[] {
  const served = new Set<Endpoint>();
  for (const method of methods) for (const endpoint of GEMINI_METHOD_ENDPOINTS[method] ?? []) served.add(endpoint);
  if (methods.includes('generateContent') && namedBy(name)?.includes('images')) served.add('images');
  return ENDPOINTS.filter((endpoint) => served.has(endpoint));
}

/** `GET {base}/models`, paged by `pageToken`; each model says what it serves by its methods. */
export const geminiModelList: ModelList = {
  url: (baseUrl, cursor) => `${baseUrl}/models?pageSize=1000${cursor === undefined ? '' : `&pageToken=${encodeURIComponent(cursor)}`}`,
  headers: (key) => ({ ...geminiAuthHeaders(key), accept: 'application/json' }),
  parse: (json, namedBy) =>
    GeminiModelListSchema.transform((list) => ({
      models: (list.models ?? []).flatMap((model) => {
        const id = model.name.replace(/^models\//, '');
        const endpoints = geminiEndpoints(id, model.supportedGenerationMethods ?? [], namedBy);
        // Nothing the relay can call it for (an answer-only or a video model).
        return endpoints.length > 0 ? [{ id, endpoints }] : [];
      }),
      next: list.nextPageToken || undefined,
    })).safeParse(json),
  mapErrorResponse: (status, text, secrets) => geminiAdapter.mapErrorResponse(status, text, secrets),
};

/** Google's Gemini API: chat and completions bridged through generateContent, embeddings and images in its own API, generateContent callers passed through, their countTokens counted by Google. */
export const geminiProvider: ChannelProvider = {
  chat: geminiAdapter,
  json: {
    completions: bridgedCompletionsAdapter(geminiAdapter, 'Gemini'),
    embeddings: geminiEmbeddingsAdapter,
    images_generations: geminiImagesAdapter,
  },
  native: { generate_content: geminiNativeAdapter },
  modelList: geminiModelList,
  // `{model}:countTokens`: Google's own count of a Gemini caller's request.
  tokenCounter: {
    dialect: 'generate_content',
    buildRequest: buildGeminiCountTokensRequest,
    mapErrorResponse: (status, text, secrets) => geminiNativeAdapter.mapErrorResponse(status, text, secrets),
  },
  probe: modelListProbe(geminiModelList),
};
