import { z } from 'zod';
import { GeminiContentParamSchema } from './gemini-content.schema';
import { GeminiGenerationConfigParamSchema } from './gemini-generation-config.schema';
import { geminiProtoObject } from './gemini-proto-object.schema';
import { GeminiToolConfigParamSchema, GeminiToolParamSchema } from './gemini-tool.schema';

export const GeminiSafetySettingParamSchema = geminiProtoObject({ category: z.string(), threshold: z.string() });

/**
 * The body of `POST /v1beta/models/{model}:generateContent` (and `:streamGenerateContent`):
 * the model is in the path, not the body. Typed fields are checked; every other field (and every
 * field Google adds) is kept, so a `gemini` channel receives the request as it was sent.
 */
export const GeminiGenerateContentRequestSchema = geminiProtoObject({
  contents: z.array(GeminiContentParamSchema).min(1, 'must contain at least one content'),
  systemInstruction: GeminiContentParamSchema.optional(),
  tools: z.array(GeminiToolParamSchema).optional(),
  toolConfig: GeminiToolConfigParamSchema.optional(),
  generationConfig: GeminiGenerationConfigParamSchema.optional(),
  safetySettings: z.array(GeminiSafetySettingParamSchema).optional(),
  /** The name of a context cache created at Google (`cachedContents/…`). */
  cachedContent: z.string().optional(),
});
export type GeminiGenerateContentRequest = z.infer<typeof GeminiGenerateContentRequestSchema>;

/** The methods the relay serves on a model, as `{model}:{method}` in the path. */
export const GEMINI_METHODS = ['generateContent', 'streamGenerateContent', 'countTokens', 'embedContent', 'batchEmbedContents'] as const;
export type GeminiMethod = (typeof GEMINI_METHODS)[number];

const isGeminiMethod = (method: string): method is GeminiMethod => (GEMINI_METHODS as readonly string[]).includes(method);

/**
 * `gemini-2.5-flash:generateContent` → the model and the method; undefined when the method is
 * none the relay serves. The last colon splits them: a model name may hold colons itself.
 */
export function parseGeminiTarget(target: string): { model: string; method: GeminiMethod } | undefined {
  const colon = target.lastIndexOf(':');
  if (colon <= 0) return undefined;
  const method = target.slice(colon + 1);
  return isGeminiMethod(method) ? { model: target.slice(0, colon), method } : undefined;
}
