import { z } from 'zod';

// The Gemini API wire format (v1beta, camelCase), as far as the simulator checks it: strict
// where the real API answers 400 INVALID_ARGUMENT, open (`passthrough`) elsewhere. Schema
// objects (`parameters`, `responseSchema`) are checked by gemini-schema-subset.ts.

const FunctionCallSchema = z
  .object({ name: z.string().min(1, 'Name cannot be empty.'), args: z.record(z.unknown()).optional(), id: z.string().optional() })
  .passthrough();

/** The real API wants the function's name and an object (a protobuf Struct) as `response`. */
const FunctionResponseSchema = z
  .object({
    name: z.string({ required_error: 'Name cannot be empty.' }).min(1, 'Name cannot be empty.'),
    response: z.record(z.unknown(), {
      required_error: 'Field required: the response must be an object (google.protobuf.Struct).',
      invalid_type_error: 'Invalid value (type.googleapis.com/google.protobuf.Struct): the response must be an object.',
    }),
    id: z.string().optional(),
  })
  .passthrough();

/** The fields of a Part's `data` oneof: exactly one must be set. */
const partDataFields = [
  'text',
  'inlineData',
  'fileData',
  'functionCall',
  'functionResponse',
  'executableCode',
  'codeExecutionResult',
] as const;

export const PartSchema = z
  .object({
    text: z.string().optional(),
    inlineData: z.object({ mimeType: z.string().min(1), data: z.string() }).passthrough().optional(),
    fileData: z.object({ mimeType: z.string().optional(), fileUri: z.string().min(1) }).passthrough().optional(),
    functionCall: FunctionCallSchema.optional(),
    functionResponse: FunctionResponseSchema.optional(),
    executableCode: z.record(z.unknown()).optional(),
    codeExecutionResult: z.record(z.unknown()).optional(),
    thought: z.boolean().optional(),
    thoughtSignature: z.string().optional(),
  })
  .passthrough()
  .superRefine((part, context) => {
    const set = partDataFields.filter((field) => part[field] !== undefined);
    if (set.length === 0) context.addIssue({ code: 'custom', message: "required oneof field 'data' must have one initialized field" });
    if (set.length > 1) context.addIssue({ code: 'custom', message: `oneof field 'data' is already set. Cannot set '${set[1]}'` });
  });
export type Part = z.infer<typeof PartSchema>;

export const ContentSchema = z
  .object({
    role: z.enum(['user', 'model'], { errorMap: () => ({ message: 'Please use a valid role: user, model.' }) }).optional(),
    parts: z.array(PartSchema).min(1, 'contents.parts must not be empty.'),
  })
  .passthrough();
export type Content = z.infer<typeof ContentSchema>;

export const FunctionDeclarationSchema = z
  .object({
    name: z
      .string()
      .regex(
        /^[a-zA-Z_][a-zA-Z0-9_.:-]{0,63}$/,
        'Invalid function name. Must start with a letter or an underscore. Must be alphameric (a-z, A-Z, 0-9), ' +
          'underscores (_), dots (.), colons (:), or dashes (-), with a maximum length of 64.',
      ),
    description: z.string().optional(),
    parameters: z.record(z.unknown()).optional(),
    /** Full JSON Schema, the newer alternative to `parameters` (not limited to the subset). */
    parametersJsonSchema: z.unknown().optional(),
  })
  .passthrough();
export type FunctionDeclaration = z.infer<typeof FunctionDeclarationSchema>;

export const GeminiToolSchema = z
  .object({ functionDeclarations: z.array(FunctionDeclarationSchema).optional() })
  .passthrough();

export const ToolConfigSchema = z
  .object({
    functionCallingConfig: z
      .object({
        mode: z.enum(['MODE_UNSPECIFIED', 'AUTO', 'ANY', 'NONE', 'VALIDATED']).optional(),
        allowedFunctionNames: z.array(z.string()).optional(),
      })
      .passthrough()
      .optional(),
  })
  .passthrough();

export const GenerationConfigSchema = z
  .object({
    maxOutputTokens: z.number().int().min(1).optional(),
    temperature: z.number().min(0).max(2).optional(),
    topP: z.number().min(0).max(1).optional(),
    topK: z.number().int().min(1).optional(),
    stopSequences: z.array(z.string()).max(5).optional(),
    candidateCount: z.number().int().min(1).optional(),
    responseMimeType: z.string().optional(),
    responseSchema: z.record(z.unknown()).optional(),
    responseJsonSchema: z.unknown().optional(),
    thinkingConfig: z
      .object({ thinkingBudget: z.number().int().optional(), includeThoughts: z.boolean().optional() })
      .passthrough()
      .optional(),
  })
  .passthrough();

/** POST /v1beta/models/{model}:generateContent and :streamGenerateContent */
export const GenerateContentRequestSchema = z
  .object({
    contents: z.array(ContentSchema).min(1, 'contents is not specified'),
    systemInstruction: ContentSchema.optional(),
    tools: z.array(GeminiToolSchema).optional(),
    toolConfig: ToolConfigSchema.optional(),
    generationConfig: GenerationConfigSchema.optional(),
    safetySettings: z.array(z.record(z.unknown())).optional(),
    /** The simulator's own directives (not part of the real API). */
    x_sim: z.unknown().optional(),
  })
  .passthrough();
export type GenerateContentRequest = z.infer<typeof GenerateContentRequestSchema>;

// What the simulator answers (written by it, so plain types rather than schemas).

export type ResponsePart =
  | { text: string; thought?: true }
  | { functionCall: { name: string; args: Record<string, unknown> }; thoughtSignature?: string }
  | { inlineData: { mimeType: string; data: string } };

/** Tokens of one modality (`TEXT`, `IMAGE`…), as image models detail their usage. */
export interface ModalityTokenCount {
  modality: string;
  tokenCount: number;
}

export type GeminiFinishReason = 'STOP' | 'MAX_TOKENS';

export interface UsageMetadata {
  promptTokenCount: number;
  candidatesTokenCount: number;
  totalTokenCount: number;
  thoughtsTokenCount?: number;
  promptTokensDetails?: ModalityTokenCount[];
  candidatesTokensDetails?: ModalityTokenCount[];
}

/** How an answer grounded on Google Search says so (`candidates[].groundingMetadata`). */
export interface GroundingMetadata {
  webSearchQueries: string[];
  searchEntryPoint: { renderedContent: string };
  groundingChunks: { web: { uri: string; title: string } }[];
}

export interface GenerateContentResponse {
  candidates: {
    content: { role: 'model'; parts: ResponsePart[] };
    finishReason?: GeminiFinishReason;
    groundingMetadata?: GroundingMetadata;
    index: 0;
  }[];
  usageMetadata: UsageMetadata;
  modelVersion: string;
  responseId: string;
}

export interface GeminiErrorBody {
  error: { code: number; message: string; status: string; details?: Record<string, unknown>[] };
}
