import { z } from 'zod';

/*
 * The Google Gemini API wire format (generativelanguage.googleapis.com, v1beta), as far as the
 * relay uses it. Answers are parsed leniently (`passthrough`, optional fields): Google adds
 * fields often, and an unknown one must not fail a completion. Requests are typed, not parsed:
 * the relay builds them.
 */

// ---- request ------------------------------------------------------------------------------

/** The JSON-Schema subset Gemini accepts in `parameters` and `responseSchema` (OpenAPI 3.0 style). */
export type GeminiSchemaType = 'STRING' | 'NUMBER' | 'INTEGER' | 'BOOLEAN' | 'ARRAY' | 'OBJECT';

export interface GeminiSchema {
  type?: GeminiSchemaType;
  format?: string;
  description?: string;
  nullable?: boolean;
  enum?: string[];
  items?: GeminiSchema;
  minItems?: number;
  maxItems?: number;
  minimum?: number;
  maximum?: number;
  properties?: Record<string, GeminiSchema>;
  required?: string[];
  propertyOrdering?: string[];
  anyOf?: GeminiSchema[];
}

export interface GeminiFunctionCall {
  id?: string;
  name: string;
  args: Record<string, unknown>;
}

export interface GeminiFunctionResponse {
  id?: string;
  name: string;
  /** Must be a JSON object: Gemini rejects strings, arrays and numbers here. */
  response: Record<string, unknown>;
}

export type GeminiRequestPart =
  | { text: string }
  | { inlineData: { mimeType: string; data: string } }
  | { fileData: { mimeType: string; fileUri: string } }
  | { functionCall: GeminiFunctionCall; thoughtSignature?: string }
  | { functionResponse: GeminiFunctionResponse };

export interface GeminiContent {
  role: 'user' | 'model';
  parts: GeminiRequestPart[];
}

export interface GeminiFunctionDeclaration {
  name: string;
  description?: string;
  parameters?: GeminiSchema;
}

export interface GeminiToolConfig {
  functionCallingConfig: { mode: 'AUTO' | 'ANY' | 'NONE'; allowedFunctionNames?: string[] };
}

export interface GeminiGenerationConfig {
  maxOutputTokens?: number;
  stopSequences?: string[];
  temperature?: number;
  topP?: number;
  candidateCount?: number;
  seed?: number;
  presencePenalty?: number;
  frequencyPenalty?: number;
  responseMimeType?: string;
  responseSchema?: GeminiSchema;
  topK?: number;
  thinkingConfig?: GeminiThinkingConfig;
}

/** `thinkingBudget` in tokens: 0 turns thinking off where the model allows it, -1 lets it decide. */
export interface GeminiThinkingConfig {
  thinkingBudget?: number;
  /** Gemini 3's way (minimal, low, medium, high as the model offers); never sent with a budget. */
  thinkingLevel?: string;
  includeThoughts?: boolean;
}

export interface GenerateContentRequest {
  contents: GeminiContent[];
  systemInstruction?: { parts: Array<{ text: string }> };
  tools?: Array<{ functionDeclarations: GeminiFunctionDeclaration[] }>;
  toolConfig?: GeminiToolConfig;
  generationConfig?: GeminiGenerationConfig;
}

// ---- response -----------------------------------------------------------------------------

export const GeminiPartSchema = z
  .object({
    text: z.string().optional(),
    /** A thought summary (sent when thoughts are asked for): the reasoning, never part of the answer text. */
    thought: z.boolean().optional(),
    /** Opaque, base64: must be sent back on the same part in the next turn (Gemini 3). */
    thoughtSignature: z.string().optional(),
    functionCall: z
      .object({ id: z.string().optional(), name: z.string(), args: z.record(z.unknown()).nullable().optional() })
      .passthrough()
      .optional(),
  })
  .passthrough();
export type GeminiPart = z.infer<typeof GeminiPartSchema>;

export const GeminiCandidateSchema = z
  .object({
    content: z
      .object({ parts: z.array(GeminiPartSchema).optional(), role: z.string().optional() })
      .passthrough()
      .optional(),
    finishReason: z.string().optional(),
    finishMessage: z.string().optional(),
    index: z.number().int().nonnegative().optional(),
  })
  .passthrough();
export type GeminiCandidate = z.infer<typeof GeminiCandidateSchema>;

const tokenCount = z.number().int().nonnegative().optional();

export const GeminiUsageMetadataSchema = z
  .object({
    promptTokenCount: tokenCount,
    candidatesTokenCount: tokenCount,
    thoughtsTokenCount: tokenCount,
    cachedContentTokenCount: tokenCount,
    toolUsePromptTokenCount: tokenCount,
    totalTokenCount: tokenCount,
  })
  .passthrough();
export type GeminiUsageMetadata = z.infer<typeof GeminiUsageMetadataSchema>;

export const GenerateContentResponseSchema = z
  .object({
    candidates: z.array(GeminiCandidateSchema).optional(),
    promptFeedback: z
      .object({ blockReason: z.string().optional(), blockReasonMessage: z.string().optional() })
      .passthrough()
      .optional(),
    usageMetadata: GeminiUsageMetadataSchema.optional(),
    modelVersion: z.string().optional(),
    responseId: z.string().optional(),
  })
  .passthrough();
export type GenerateContentResponse = z.infer<typeof GenerateContentResponseSchema>;

// ---- errors -------------------------------------------------------------------------------

/** `{error: {code, message, status, details}}`: a google.rpc.Status, also sent inside streams. */
export const GeminiErrorSchema = z
  .object({
    code: z.number().int().optional(),
    message: z.string().optional(),
    status: z.string().optional(),
    details: z.array(z.record(z.unknown())).optional(),
  })
  .passthrough();
export type GeminiError = z.infer<typeof GeminiErrorSchema>;

export const GeminiErrorBodySchema = z.object({ error: GeminiErrorSchema }).passthrough();
