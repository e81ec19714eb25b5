import { z } from 'zod';
import { optionalCacheControl } from './anthropic-cache-control.schema';
import { unknownTypedObject } from './anthropic-unknown-type.schema';

/** The JSON Schema of a custom tool's input: an object schema, kept whole. */
export const AnthropicInputSchemaSchema = z.object({ type: z.literal('object') }).passthrough();

/** A tool the caller runs (`type` absent, `"custom"` or `null`): the model answers with `tool_use`. */
export const AnthropicCustomToolSchema = z
  .object({
    type: z.literal('custom').nullable().optional(),
    name: z.string(),
    description: z.string().optional(),
    input_schema: AnthropicInputSchemaSchema,
    cache_control: optionalCacheControl(),
  })
  .passthrough();
export type AnthropicCustomTool = z.infer<typeof AnthropicCustomToolSchema>;

/**
 * A versioned Anthropic tool (`web_search_20250305`, `bash_20250124`, `text_editor_…`,
 * `code_execution_…`): every object whose `type` is not `custom`, kept as sent.
 */
export const AnthropicServerToolSchema = unknownTypedObject(['custom']);
export type AnthropicServerTool = z.infer<typeof AnthropicServerToolSchema>;

export const AnthropicToolSchema = z.union([AnthropicCustomToolSchema, AnthropicServerToolSchema]);
export type AnthropicTool = z.infer<typeof AnthropicToolSchema>;

/** A parsed tool is a custom one when its `type` is absent, `null` or `custom`. */
export const isAnthropicCustomTool = (tool: AnthropicTool): tool is AnthropicCustomTool =>
  tool.type === undefined || tool.type === null || tool.type === 'custom';

const disableParallelToolUse = z.boolean().optional();

export const AnthropicToolChoiceSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('auto'), disable_parallel_tool_use: disableParallelToolUse }).passthrough(),
  z.object({ type: z.literal('any'), disable_parallel_tool_use: disableParallelToolUse }).passthrough(),
  z.object({ type: z.literal('tool'), name: z.string(), disable_parallel_tool_use: disableParallelToolUse }).passthrough(),
  z.object({ type: z.literal('none') }).passthrough(),
]);
export type AnthropicToolChoice = z.infer<typeof AnthropicToolChoiceSchema>;
