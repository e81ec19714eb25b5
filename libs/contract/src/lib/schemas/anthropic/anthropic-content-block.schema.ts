import { z } from 'zod';
import { isKnownType, withUnknownTypes } from './anthropic-unknown-type.schema';

/**
 * The content blocks of an answer (`Message.content`, `content_block_start`). Blocks of types
 * not listed (code execution results, web fetch results, MCP, containers …) are kept as sent.
 */

export const AnthropicTextBlockSchema = z
  .object({
    type: z.literal('text'),
    text: z.string(),
    citations: z.array(z.object({ type: z.string() }).passthrough()).nullable().optional(),
  })
  .passthrough();
export type AnthropicTextBlock = z.infer<typeof AnthropicTextBlockSchema>;

/** `signature` lets the caller send the block back; it arrives empty in `content_block_start`. */
export const AnthropicThinkingBlockSchema = z
  .object({ type: z.literal('thinking'), thinking: z.string(), signature: z.string() })
  .passthrough();
export type AnthropicThinkingBlock = z.infer<typeof AnthropicThinkingBlockSchema>;

export const AnthropicRedactedThinkingBlockSchema = z
  .object({ type: z.literal('redacted_thinking'), data: z.string() })
  .passthrough();
export type AnthropicRedactedThinkingBlock = z.infer<typeof AnthropicRedactedThinkingBlockSchema>;

/** `input` is `{}` in `content_block_start`; the arguments follow as `input_json_delta`s. */
export const AnthropicToolUseBlockSchema = z
  .object({ type: z.literal('tool_use'), id: z.string(), name: z.string(), input: z.record(z.unknown()) })
  .passthrough();
export type AnthropicToolUseBlock = z.infer<typeof AnthropicToolUseBlockSchema>;

/** A call of a tool Anthropic runs itself (web search, code execution …). */
export const AnthropicServerToolUseBlockSchema = z
  .object({ type: z.literal('server_tool_use'), id: z.string(), name: z.string(), input: z.record(z.unknown()) })
  .passthrough();
export type AnthropicServerToolUseBlock = z.infer<typeof AnthropicServerToolUseBlockSchema>;

/** Its results, or an error object. */
export const AnthropicWebSearchToolResultBlockSchema = z
  .object({
    type: z.literal('web_search_tool_result'),
    tool_use_id: z.string(),
    content: z.union([z.array(z.record(z.unknown())), z.record(z.unknown())]),
  })
  .passthrough();
export type AnthropicWebSearchToolResultBlock = z.infer<typeof AnthropicWebSearchToolResultBlockSchema>;

/** The block types the relay models. */
export const AnthropicKnownContentBlockSchema = z.discriminatedUnion('type', [
  AnthropicTextBlockSchema,
  AnthropicThinkingBlockSchema,
  AnthropicRedactedThinkingBlockSchema,
  AnthropicToolUseBlockSchema,
  AnthropicServerToolUseBlockSchema,
  AnthropicWebSearchToolResultBlockSchema,
]);
export type AnthropicKnownContentBlock = z.infer<typeof AnthropicKnownContentBlockSchema>;

export const AnthropicContentBlockSchema = withUnknownTypes(AnthropicKnownContentBlockSchema);
export type AnthropicContentBlock = z.infer<typeof AnthropicContentBlockSchema>;
/** Narrows a parsed block to the modelled ones (then `switch (block.type)` narrows each). */
export const isKnownAnthropicContentBlock = isKnownType(AnthropicKnownContentBlockSchema);
