import { z } from 'zod';
import { optionalCacheControl } from './anthropic-cache-control.schema';
import { isKnownType, withUnknownTypes } from './anthropic-unknown-type.schema';

/**
 * The content blocks a caller sends in `messages[].content` (Messages API, request side). Every
 * object keeps its unknown fields; block types the relay does not model are kept too.
 */

/** A citation the caller sends back (char, page, content-block, web or search-result location). */
const CitationParamSchema = z.object({ type: z.string() }).passthrough();

/**
 * Text is not required to be non-empty: Anthropic decides what it refuses, and the relay must
 * not refuse more. (What the relay itself emits is never an empty block.)
 */
export const AnthropicTextBlockParamSchema = z
  .object({
    type: z.literal('text'),
    text: z.string(),
    cache_control: optionalCacheControl(),
    citations: z.array(CitationParamSchema).nullable().optional(),
  })
  .passthrough();
export type AnthropicTextBlockParam = z.infer<typeof AnthropicTextBlockParamSchema>;

export const AnthropicBase64SourceSchema = z
  .object({ type: z.literal('base64'), media_type: z.string(), data: z.string() })
  .passthrough();
export const AnthropicUrlSourceSchema = z.object({ type: z.literal('url'), url: z.string() }).passthrough();
export const AnthropicFileSourceSchema = z.object({ type: z.literal('file'), file_id: z.string() }).passthrough();

export const AnthropicImageBlockParamSchema = z
  .object({
    type: z.literal('image'),
    source: z.discriminatedUnion('type', [AnthropicBase64SourceSchema, AnthropicUrlSourceSchema, AnthropicFileSourceSchema]),
    cache_control: optionalCacheControl(),
  })
  .passthrough();
export type AnthropicImageBlockParam = z.infer<typeof AnthropicImageBlockParamSchema>;

/** A document given as blocks of its own (`source.type: "content"`): text and images. */
export const AnthropicContentSourceSchema = z
  .object({
    type: z.literal('content'),
    content: z.union([
      z.string(),
      z.array(z.discriminatedUnion('type', [AnthropicTextBlockParamSchema, AnthropicImageBlockParamSchema])),
    ]),
  })
  .passthrough();

export const AnthropicDocumentBlockParamSchema = z
  .object({
    type: z.literal('document'),
    source: z.discriminatedUnion('type', [
      AnthropicBase64SourceSchema.extend({ media_type: z.literal('application/pdf') }),
      z.object({ type: z.literal('text'), media_type: z.literal('text/plain'), data: z.string() }).passthrough(),
      AnthropicUrlSourceSchema,
      AnthropicContentSourceSchema,
      AnthropicFileSourceSchema,
    ]),
    title: z.string().nullable().optional(),
    context: z.string().nullable().optional(),
    citations: z.object({ enabled: z.boolean().optional() }).passthrough().nullable().optional(),
    cache_control: optionalCacheControl(),
  })
  .passthrough();
export type AnthropicDocumentBlockParam = z.infer<typeof AnthropicDocumentBlockParamSchema>;

/** Tool input is a JSON object (Anthropic refuses other JSON values). */
const ToolInputSchema = z.record(z.unknown());

export const AnthropicToolUseBlockParamSchema = z
  .object({
    type: z.literal('tool_use'),
    id: z.string(),
    name: z.string(),
    input: ToolInputSchema,
    cache_control: optionalCacheControl(),
  })
  .passthrough();
export type AnthropicToolUseBlockParam = z.infer<typeof AnthropicToolUseBlockParamSchema>;

/** What a tool result may hold: text, images, documents, and (kept as sent) other block types. */
export const AnthropicKnownToolResultContentBlockParamSchema = z.discriminatedUnion('type', [
  AnthropicTextBlockParamSchema,
  AnthropicImageBlockParamSchema,
  AnthropicDocumentBlockParamSchema,
]);
export const AnthropicToolResultContentBlockParamSchema = withUnknownTypes(AnthropicKnownToolResultContentBlockParamSchema);
export type AnthropicToolResultContentBlockParam = z.infer<typeof AnthropicToolResultContentBlockParamSchema>;
export const isKnownAnthropicToolResultContentBlockParam = isKnownType(AnthropicKnownToolResultContentBlockParamSchema);

export const AnthropicToolResultBlockParamSchema = z
  .object({
    type: z.literal('tool_result'),
    tool_use_id: z.string(),
    content: z.union([z.string(), z.array(AnthropicToolResultContentBlockParamSchema)]).optional(),
    is_error: z.boolean().optional(),
    cache_control: optionalCacheControl(),
  })
  .passthrough();
export type AnthropicToolResultBlockParam = z.infer<typeof AnthropicToolResultBlockParamSchema>;

/** A thinking block sent back with its `signature`, exactly as Anthropic returned it. */
export const AnthropicThinkingBlockParamSchema = z
  .object({ type: z.literal('thinking'), thinking: z.string(), signature: z.string() })
  .passthrough();
export type AnthropicThinkingBlockParam = z.infer<typeof AnthropicThinkingBlockParamSchema>;

export const AnthropicRedactedThinkingBlockParamSchema = z
  .object({ type: z.literal('redacted_thinking'), data: z.string() })
  .passthrough();
export type AnthropicRedactedThinkingBlockParam = z.infer<typeof AnthropicRedactedThinkingBlockParamSchema>;

/** A server tool call (web search, web fetch, code execution …) sent back in a later turn. */
export const AnthropicServerToolUseBlockParamSchema = z
  .object({
    type: z.literal('server_tool_use'),
    id: z.string(),
    name: z.string(),
    input: ToolInputSchema,
    cache_control: optionalCacheControl(),
  })
  .passthrough();

/** Results (or an error object) of a web search the model ran, sent back in a later turn. */
export const AnthropicWebSearchToolResultBlockParamSchema = z
  .object({
    type: z.literal('web_search_tool_result'),
    tool_use_id: z.string(),
    content: z.union([z.array(z.record(z.unknown())), z.record(z.unknown())]),
    cache_control: optionalCacheControl(),
  })
  .passthrough();

/** The block types the relay models. */
export const AnthropicKnownContentBlockParamSchema = z.discriminatedUnion('type', [
  AnthropicTextBlockParamSchema,
  AnthropicImageBlockParamSchema,
  AnthropicDocumentBlockParamSchema,
  AnthropicToolUseBlockParamSchema,
  AnthropicToolResultBlockParamSchema,
  AnthropicThinkingBlockParamSchema,
  AnthropicRedactedThinkingBlockParamSchema,
  AnthropicServerToolUseBlockParamSchema,
  AnthropicWebSearchToolResultBlockParamSchema,
]);
export type AnthropicKnownContentBlockParam = z.infer<typeof AnthropicKnownContentBlockParamSchema>;

/** One block of `messages[].content`; a block of a type not listed above is kept as sent. */
export const AnthropicContentBlockParamSchema = withUnknownTypes(AnthropicKnownContentBlockParamSchema);
export type AnthropicContentBlockParam = z.infer<typeof AnthropicContentBlockParamSchema>;
/** Narrows a parsed block to the modelled ones (then `switch (block.type)` narrows each). */
export const isKnownAnthropicContentBlockParam = isKnownType(AnthropicKnownContentBlockParamSchema);
