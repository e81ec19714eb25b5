import { z } from 'zod';

/** OpenAI's rule for function names: letters, digits, `_` and `-`, at most 64. */
export const FunctionNameSchema = z
  .string()
  .regex(/^[a-zA-Z0-9_-]{1,64}$/, 'must be 1-64 letters, digits, underscores or dashes');

/** A JSON Schema object describing function parameters; kept as given. */
export const JsonSchemaObjectSchema = z.record(z.unknown());
export type JsonSchemaObject = z.infer<typeof JsonSchemaObjectSchema>;

export const FunctionDefinitionSchema = z
  .object({
    name: FunctionNameSchema,
    description: z.string().optional(),
    parameters: JsonSchemaObjectSchema.optional(),
    strict: z.boolean().nullable().optional(),
  })
  .passthrough();
export type FunctionDefinition = z.infer<typeof FunctionDefinitionSchema>;

export const FunctionToolSchema = z
  .object({ type: z.literal('function'), function: FunctionDefinitionSchema })
  .passthrough();
export type FunctionTool = z.infer<typeof FunctionToolSchema>;

export const CustomToolSchema = z
  .object({
    type: z.literal('custom'),
    custom: z
      .object({ name: z.string().min(1), description: z.string().optional(), format: z.unknown().optional() })
      .passthrough(),
  })
  .passthrough();
export type CustomTool = z.infer<typeof CustomToolSchema>;

export const ToolSchema = z.discriminatedUnion('type', [FunctionToolSchema, CustomToolSchema]);
export type Tool = z.infer<typeof ToolSchema>;

export const NamedToolChoiceSchema = z
  .object({ type: z.literal('function'), function: z.object({ name: z.string().min(1) }).passthrough() })
  .passthrough();

export const ToolChoiceSchema = z.union([
  z.enum(['none', 'auto', 'required']),
  NamedToolChoiceSchema,
  z
    .object({
      type: z.literal('allowed_tools'),
      allowed_tools: z
        .object({ mode: z.enum(['auto', 'required']), tools: z.array(z.record(z.unknown())) })
        .passthrough(),
    })
    .passthrough(),
  z
    .object({ type: z.literal('custom'), custom: z.object({ name: z.string().min(1) }).passthrough() })
    .passthrough(),
]);
export type ToolChoice = z.infer<typeof ToolChoiceSchema>;

/** A completed function call as the model returns it and as callers send it back. */
export const FunctionToolCallSchema = z
  .object({
    id: z.string(),
    type: z.literal('function'),
    function: z.object({ name: z.string(), arguments: z.string() }).passthrough(),
  })
  .passthrough();
export type FunctionToolCall = z.infer<typeof FunctionToolCallSchema>;

/** A call of a custom (free-text input) tool. */
export const CustomToolCallSchema = z
  .object({
    id: z.string(),
    type: z.literal('custom'),
    custom: z.object({ name: z.string(), input: z.string() }).passthrough(),
  })
  .passthrough();

export const ToolCallSchema = z.discriminatedUnion('type', [FunctionToolCallSchema, CustomToolCallSchema]);
export type ToolCall = z.infer<typeof ToolCallSchema>;

/** A streamed fragment of a tool call: `index` ties the fragments of one call together. */
export const ToolCallDeltaSchema = z
  .object({
    index: z.number().int().nonnegative(),
    id: z.string().optional(),
    type: z.literal('function').optional(),
    function: z.object({ name: z.string().optional(), arguments: z.string().optional() }).passthrough().optional(),
  })
  .passthrough();
export type ToolCallDelta = z.infer<typeof ToolCallDeltaSchema>;

/** Legacy `functions` / `function_call` (deprecated by OpenAI, still sent by older clients). */
export const LegacyFunctionCallSchema = z.object({ name: z.string(), arguments: z.string() }).passthrough();
export const LegacyFunctionCallChoiceSchema = z.union([
  z.enum(['none', 'auto']),
  z.object({ name: z.string().min(1) }).passthrough(),
]);
