import { z } from 'zod';
import { geminiProtoObject } from './gemini-proto-object.schema';

/**
 * A function the model may call. `parameters` is Gemini's OpenAPI-style schema subset
 * (upper-case types), `parametersJsonSchema` full JSON Schema; Gemini takes one or the other.
 */
export const GeminiFunctionDeclarationParamSchema = geminiProtoObject({
  name: z.string().min(1, 'must not be empty'),
  description: z.string().optional(),
  parameters: z.record(z.unknown()).optional(),
  parametersJsonSchema: z.unknown().optional(),
});
export type GeminiFunctionDeclarationParam = z.infer<typeof GeminiFunctionDeclarationParamSchema>;

/**
 * One entry of `tools`: function declarations, or a tool Google runs itself (`googleSearch`,
 * `codeExecution`, `urlContext`, …), kept as sent.
 */
export const GeminiToolParamSchema = geminiProtoObject({
  functionDeclarations: z.array(GeminiFunctionDeclarationParamSchema).optional(),
});
export type GeminiToolParam = z.infer<typeof GeminiToolParamSchema>;

export const GEMINI_FUNCTION_CALLING_MODES = ['MODE_UNSPECIFIED', 'AUTO', 'ANY', 'NONE', 'VALIDATED'] as const;

export const GeminiToolConfigParamSchema = geminiProtoObject({
  functionCallingConfig: geminiProtoObject({
    mode: z.enum(GEMINI_FUNCTION_CALLING_MODES).optional(),
    allowedFunctionNames: z.array(z.string()).optional(),
  }).optional(),
});
export type GeminiToolConfigParam = z.infer<typeof GeminiToolConfigParamSchema>;
