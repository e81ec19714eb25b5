import { z } from 'zod';
import { GeminiContentParamSchema } from './gemini-content.schema';
import { GeminiGenerateContentRequestSchema } from './gemini-generate-content-request.schema';
import { geminiProtoObject } from './gemini-proto-object.schema';

/**
 * The body of `POST /v1beta/models/{model}:countTokens` (https://ai.google.dev/api/tokens):
 * `contents`, or a whole `generateContentRequest` (system instruction and tools counted too),
 * which Google prefers when both are sent. Unknown fields are kept for a `gemini` channel.
 */
export const GeminiCountTokensRequestSchema = geminiProtoObject({
  contents: z.array(GeminiContentParamSchema).optional(),
  /** Its `model` (`models/{model}`) is kept as sent; the URL's model decides. */
  generateContentRequest: GeminiGenerateContentRequestSchema.optional(),
}).refine((body) => body.contents !== undefined || body.generateContentRequest !== undefined, {
  message: 'send contents or generateContentRequest',
  path: ['contents'],
});
export type GeminiCountTokensRequest = z.infer<typeof GeminiCountTokensRequestSchema>;

/** `{totalTokens}`, and what Google adds (`cachedContentTokenCount`, `promptTokensDetails`), kept as it answers them. */
export const GeminiCountTokensResponseSchema = z.object({ totalTokens: z.number().int().nonnegative() }).passthrough();
export type GeminiCountTokensResponse = z.infer<typeof GeminiCountTokensResponseSchema>;
