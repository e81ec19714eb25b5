import type { ProviderAdapter } from '../../hub/provider-adapter';
import { convertGeminiResponse } from './convert-gemini-response';
import { convertToGeminiRequest } from './convert-to-gemini-request';
import { mapGeminiErrorResponse } from './gemini-error';
import { GeminiStreamTransformer } from './gemini-stream-transformer';
import { geminiAuthHeaders } from '../../providers/provider-auth';

const nowInSeconds = () => Math.floor(Date.now() / 1000);

/**
 * The Google Gemini API (`base_url` like https://generativelanguage.googleapis.com/v1beta):
 * `POST {base_url}/models/{model}:generateContent`, or `:streamGenerateContent?alt=sse` for a
 * stream, with the key in `x-goog-api-key` (never in the URL, where logs would keep it).
 */
export const geminiAdapter: ProviderAdapter = {
  buildRequest: ({ channel, key, request, upstreamModel, model: facts }) => {
    const model = encodeURIComponent(upstreamModel.replace(/^models\//, ''));
    const method = request.stream ? 'streamGenerateContent?alt=sse' : 'generateContent';
    return {
      url: `${channel.baseUrl}/models/${model}:${method}`,
      headers: {
        ...geminiAuthHeaders(key),
        'content-type': 'application/json',
        accept: request.stream ? 'text/event-stream' : 'application/json',
      },
      body: JSON.stringify(convertToGeminiRequest(request, facts)),
    };
  },
  convertResponse: (text, publicModel) => convertGeminiResponse({ text, publicModel, created: nowInSeconds() }),
  createStreamTransformer: (options) => new GeminiStreamTransformer({ ...options, created: nowInSeconds() }),
  mapErrorResponse: mapGeminiErrorResponse,
};
