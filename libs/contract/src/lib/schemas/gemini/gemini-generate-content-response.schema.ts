import { z } from 'zod';
import { GeminiPartParamSchema } from './gemini-content.schema';

const tokenCount = z.number().int().nonnegative().optional();

/** Token counts: thinking apart from the answer (`thoughtsTokenCount`), cached tokens inside the prompt's count. */
export const GeminiUsageMetadataResponseSchema = z
  .object({
    promptTokenCount: tokenCount,
    candidatesTokenCount: tokenCount,
    thoughtsTokenCount: tokenCount,
    cachedContentTokenCount: tokenCount,
    toolUsePromptTokenCount: tokenCount,
    totalTokenCount: tokenCount,
  })
  .passthrough();
export type GeminiUsageMetadataResponse = z.infer<typeof GeminiUsageMetadataResponseSchema>;

/** One answer; `finishReason` only on the last chunk of a stream. */
export const GeminiCandidateResponseSchema = z
  .object({
    content: z.object({ role: z.string().optional(), parts: z.array(GeminiPartParamSchema).optional() }).passthrough().optional(),
    finishReason: z.string().optional(),
    finishMessage: z.string().optional(),
    index: z.number().int().nonnegative().optional(),
  })
  .passthrough();
export type GeminiCandidateResponse = z.infer<typeof GeminiCandidateResponseSchema>;

/**
 * A `generateContent` answer, and each `data:` event of a `streamGenerateContent?alt=sse`
 * stream (the answer in pieces: parts deltas, the finish reason and usage last).
 */
export const GeminiGenerateContentResponseSchema = z
  .object({
    candidates: z.array(GeminiCandidateResponseSchema).optional(),
    promptFeedback: z.object({ blockReason: z.string().optional() }).passthrough().optional(),
    usageMetadata: GeminiUsageMetadataResponseSchema.optional(),
    modelVersion: z.string().optional(),
    responseId: z.string().optional(),
  })
  .passthrough();
export type GeminiGenerateContentResponse = z.infer<typeof GeminiGenerateContentResponseSchema>;
