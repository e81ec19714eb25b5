import { z } from 'zod';
import { MAX_CHOICES, MAX_OUTPUT_TOKENS } from '../chat-completion-request.schema';
import { geminiProtoObject } from './gemini-proto-object.schema';

/** `thinkingBudget` in tokens (0 off, -1 the model decides) or, on Gemini 3, a `thinkingLevel`. */
export const GeminiThinkingConfigParamSchema = geminiProtoObject({
  thinkingBudget: z.number().int().optional(),
  includeThoughts: z.boolean().optional(),
  thinkingLevel: z.string().optional(),
});
export type GeminiThinkingConfigParam = z.infer<typeof GeminiThinkingConfigParamSchema>;

/**
 * `generationConfig`. Ranges are Gemini's; `maxOutputTokens` and `candidateCount` share the chat
 * request's upper bounds, which keep a reservation an exact integer of micro-USD. Fields not
 * listed (`speechConfig`, `mediaResolution`, `imageConfig`, …) are kept as sent.
 */
export const GeminiGenerationConfigParamSchema = geminiProtoObject({
  temperature: z.number().min(0).max(2).optional(),
  topP: z.number().min(0).max(1).optional(),
  topK: z.number().int().min(0).optional(),
  candidateCount: z.number().int().min(1).max(MAX_CHOICES).optional(),
  maxOutputTokens: z.number().int().min(1).max(MAX_OUTPUT_TOKENS).optional(),
  stopSequences: z.array(z.string()).optional(),
  responseMimeType: z.string().optional(),
  /** Gemini's schema subset (upper-case types). */
  responseSchema: z.record(z.unknown()).optional(),
  /** Full JSON Schema, the newer alternative to `responseSchema`. */
  responseJsonSchema: z.unknown().optional(),
  responseModalities: z.array(z.string()).optional(),
  thinkingConfig: GeminiThinkingConfigParamSchema.optional(),
  seed: z.number().int().optional(),
  presencePenalty: z.number().optional(),
  frequencyPenalty: z.number().optional(),
  responseLogprobs: z.boolean().optional(),
  logprobs: z.number().int().optional(),
});
export type GeminiGenerationConfigParam = z.infer<typeof GeminiGenerationConfigParamSchema>;
