import { z } from 'zod';
import { geminiProtoObject } from './gemini-proto-object.schema';

/** A function call of a model turn; `id` only when the model (or the relay) gave one. */
export const GeminiFunctionCallParamSchema = geminiProtoObject({
  id: z.string().optional(),
  name: z.string().min(1, 'must not be empty'),
  /** A google.protobuf.Struct: the arguments as an object. */
  args: z.record(z.unknown()).optional(),
});
export type GeminiFunctionCallParam = z.infer<typeof GeminiFunctionCallParamSchema>;

/** The caller's result for a function call: `response` must be an object, as Gemini requires. */
export const GeminiFunctionResponseParamSchema = geminiProtoObject({
  id: z.string().optional(),
  name: z.string().min(1, 'must not be empty'),
  response: z.record(z.unknown()),
});
export type GeminiFunctionResponseParam = z.infer<typeof GeminiFunctionResponseParamSchema>;

export const GeminiBlobSchema = geminiProtoObject({ mimeType: z.string().min(1, 'must not be empty'), data: z.string() });
export const GeminiFileDataSchema = geminiProtoObject({ mimeType: z.string().optional(), fileUri: z.string().min(1, 'must not be empty') });

/**
 * One part of a content: text (a thought summary when `thought`), inline bytes, a file by URI,
 * a function call or response, code Gemini ran. Parts of kinds newer than these are kept as
 * sent; a bridged request names them in a 400.
 */
export const GeminiPartParamSchema = geminiProtoObject({
  text: z.string().optional(),
  thought: z.boolean().optional(),
  /** Opaque; must come back on the same part in the next turn (Gemini 3). */
  thoughtSignature: z.string().optional(),
  inlineData: GeminiBlobSchema.optional(),
  fileData: GeminiFileDataSchema.optional(),
  functionCall: GeminiFunctionCallParamSchema.optional(),
  functionResponse: GeminiFunctionResponseParamSchema.optional(),
  executableCode: z.record(z.unknown()).optional(),
  codeExecutionResult: z.record(z.unknown()).optional(),
});
export type GeminiPartParam = z.infer<typeof GeminiPartParamSchema>;

/** A turn: `user` (the default) or `model`, Gemini's only roles. */
export const GeminiContentParamSchema = geminiProtoObject({
  role: z.enum(['user', 'model'], { errorMap: () => ({ message: "must be 'user' or 'model'" }) }).optional(),
  parts: z.array(GeminiPartParamSchema).min(1, 'must contain at least one part'),
});
export type GeminiContentParam = z.infer<typeof GeminiContentParamSchema>;
