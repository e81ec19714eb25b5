import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { geminiCommonResponses, meta } from './common-responses';
import { GeminiGenerateContentRequestSchema, parseGeminiTarget } from './schemas/gemini/gemini-generate-content-request.schema';
import { GeminiGenerateContentResponseSchema } from './schemas/gemini/gemini-generate-content-response.schema';

const c = initContract();

/** `{model}:{method}`, the last path segment of Gemini's model methods. */
export const GeminiTargetParamsSchema = z.object({
  target: z.string().refine((target) => parseGeminiTarget(target) !== undefined, 'names no method the relay serves'),
});

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
      metadata: meta({ auth: 'token', streaming: true, dialect: 'gemini' }),
    },
  },
  { commonResponses: geminiCommonResponses, strictStatusCodes: true },
);
