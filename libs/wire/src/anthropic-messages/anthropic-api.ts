import { z } from 'zod';

/**
 * The Anthropic Messages API wire format (`anthropic-version: 2023-06-01`). Upstream answers
 * are parsed with these schemas, never trusted; the request schemas describe exactly what the
 * converter may send (specs validate every converted request against them).
 */

// ---------------------------------------------------------------------------------- request

/** Anthropic's rule for `tool_use.id` / `tool_result.tool_use_id`. */
export const ANTHROPIC_TOOL_ID_PATTERN = /^[a-zA-Z0-9_-]+$/;
/** Anthropic's rule for tool names. */
export const ANTHROPIC_TOOL_NAME_PATTERN = /^[a-zA-Z0-9_-]{1,64}$/;

export const ANTHROPIC_IMAGE_MEDIA_TYPES = ['image/jpeg', 'image/png', 'image/gif', 'image/webp'] as const;

/** Anthropic rejects empty text blocks, hence `min(1)`. */
export const AnthropicTextBlockParamSchema = z.object({ type: z.literal('text'), text: z.string().min(1) }).strict();
export type AnthropicTextBlockParam = z.infer<typeof AnthropicTextBlockParamSchema>;

export const AnthropicImageBlockParamSchema = z
  .object({
    type: z.literal('image'),
    source: z.discriminatedUnion('type', [
      z
        .object({ type: z.literal('base64'), media_type: z.enum(ANTHROPIC_IMAGE_MEDIA_TYPES), data: z.string().min(1) })
        .strict(),
      z.object({ type: z.literal('url'), url: z.string().url() }).strict(),
    ]),
  })
  .strict();
export type AnthropicImageBlockParam = z.infer<typeof AnthropicImageBlockParamSchema>;

export const AnthropicDocumentBlockParamSchema = z
  .object({
    type: z.literal('document'),
    source: z
      .object({ type: z.literal('base64'), media_type: z.literal('application/pdf'), data: z.string().min(1) })
      .strict(),
  })
  .strict();
export type AnthropicDocumentBlockParam = z.infer<typeof AnthropicDocumentBlockParamSchema>;

export const AnthropicToolUseBlockParamSchema = z
  .object({
    type: z.literal('tool_use'),
    id: z.string().regex(ANTHROPIC_TOOL_ID_PATTERN),
    name: z.string().min(1),
    input: z.record(z.unknown()),
  })
  .strict();
export type AnthropicToolUseBlockParam = z.infer<typeof AnthropicToolUseBlockParamSchema>;

export const AnthropicToolResultBlockParamSchema = z
  .object({
    type: z.literal('tool_result'),
    tool_use_id: z.string().regex(ANTHROPIC_TOOL_ID_PATTERN),
    content: z.union([z.string().min(1), z.array(AnthropicTextBlockParamSchema).min(1)]).optional(),
  })
  .strict();
export type AnthropicToolResultBlockParam = z.infer<typeof AnthropicToolResultBlockParamSchema>;

export const AnthropicUserBlockParamSchema = z.discriminatedUnion('type', [
  AnthropicTextBlockParamSchema,
  AnthropicImageBlockParamSchema,
  AnthropicDocumentBlockParamSchema,
  AnthropicToolResultBlockParamSchema,
]);
export type AnthropicUserBlockParam = z.infer<typeof AnthropicUserBlockParamSchema>;

/** A thinking block sent back as the model wrote it: Anthropic checks its `signature`. */
export const AnthropicThinkingBlockParamSchema = z
  .object({ type: z.literal('thinking'), thinking: z.string(), signature: z.string().min(1) })
  .strict();
export type AnthropicThinkingBlockParam = z.infer<typeof AnthropicThinkingBlockParamSchema>;

export const AnthropicRedactedThinkingBlockParamSchema = z
  .object({ type: z.literal('redacted_thinking'), data: z.string().min(1) })
  .strict();
export type AnthropicRedactedThinkingBlockParam = z.infer<typeof AnthropicRedactedThinkingBlockParamSchema>;

export const AnthropicAssistantBlockParamSchema = z.discriminatedUnion('type', [
  AnthropicTextBlockParamSchema,
  AnthropicToolUseBlockParamSchema,
  AnthropicThinkingBlockParamSchema,
  AnthropicRedactedThinkingBlockParamSchema,
]);
export type AnthropicAssistantBlockParam = z.infer<typeof AnthropicAssistantBlockParamSchema>;

export const AnthropicMessageParamSchema = z.discriminatedUnion('role', [
  z.object({ role: z.literal('user'), content: z.array(AnthropicUserBlockParamSchema).min(1) }).strict(),
  z.object({ role: z.literal('assistant'), content: z.array(AnthropicAssistantBlockParamSchema).min(1) }).strict(),
]);
export type AnthropicMessageParam = z.infer<typeof AnthropicMessageParamSchema>;

export const AnthropicToolSchema = z
  .object({
    name: z.string().regex(ANTHROPIC_TOOL_NAME_PATTERN),
    description: z.string().optional(),
    input_schema: z.object({ type: z.literal('object') }).passthrough(),
  })
  .strict();
export type AnthropicTool = z.infer<typeof AnthropicToolSchema>;

const disableParallel = { disable_parallel_tool_use: z.boolean().optional() };
export const AnthropicToolChoiceSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('auto'), ...disableParallel }).strict(),
  z.object({ type: z.literal('any'), ...disableParallel }).strict(),
  z.object({ type: z.literal('tool'), name: z.string().min(1), ...disableParallel }).strict(),
  z.object({ type: z.literal('none') }).strict(),
]);
export type AnthropicToolChoice = z.infer<typeof AnthropicToolChoiceSchema>;

/** What the relay asks for when a caller asks to reason: a budget (Claude 4 and earlier), or adaptive with an effort (4.6 on). */
export const AnthropicThinkingRequestSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('enabled'), budget_tokens: z.number().int().min(1024) }).strict(),
  z.object({ type: z.literal('adaptive'), display: z.literal('summarized').optional() }).strict(),
]);
export type AnthropicThinkingRequest = z.infer<typeof AnthropicThinkingRequestSchema>;

export const AnthropicRequestSchema = z
  .object({
    model: z.string().min(1),
    messages: z.array(AnthropicMessageParamSchema).min(1),
    system: z.union([z.string().min(1), z.array(AnthropicTextBlockParamSchema).min(2)]).optional(),
    max_tokens: z.number().int().positive(),
    stop_sequences: z.array(z.string()).min(1).optional(),
    temperature: z.number().min(0).max(1).optional(),
    top_p: z.number().min(0).max(1).optional(),
    top_k: z.number().int().min(0).optional(),
    tools: z.array(AnthropicToolSchema).min(1).optional(),
    tool_choice: AnthropicToolChoiceSchema.optional(),
    metadata: z.object({ user_id: z.string() }).strict().optional(),
    service_tier: z.enum(['auto', 'standard_only']).optional(),
    thinking: AnthropicThinkingRequestSchema.optional(),
    output_config: z.object({ effort: z.string().min(1) }).strict().optional(),
    stream: z.boolean(),
  })
  .strict();
export type AnthropicRequest = z.infer<typeof AnthropicRequestSchema>;

// --------------------------------------------------------------------------------- response

export const AnthropicUsageSchema = z
  .object({
    input_tokens: z.number().int().nonnegative(),
    output_tokens: z.number().int().nonnegative(),
    cache_creation_input_tokens: z.number().int().nonnegative().nullable().optional(),
    cache_read_input_tokens: z.number().int().nonnegative().nullable().optional(),
  })
  .passthrough();
export type AnthropicUsage = z.infer<typeof AnthropicUsageSchema>;

export const AnthropicTextBlockSchema = z.object({ type: z.literal('text'), text: z.string() }).passthrough();
export const AnthropicToolUseBlockSchema = z
  .object({ type: z.literal('tool_use'), id: z.string().min(1), name: z.string().min(1), input: z.record(z.unknown()) })
  .passthrough();
/**
 * Blocks the relay never asks for and does not translate: `thinking` / `redacted_thinking`
 * (extended thinking is never enabled) and server-tool blocks (no server tools are sent).
 * A malformed `text` or `tool_use` block must not hide here, hence the refinement.
 */
export const AnthropicIgnoredBlockSchema = z
  .object({ type: z.string().refine((type) => type !== 'text' && type !== 'tool_use') })
  .passthrough();
export const AnthropicContentBlockSchema = z.union([
  AnthropicTextBlockSchema,
  AnthropicToolUseBlockSchema,
  AnthropicIgnoredBlockSchema,
]);
export type AnthropicContentBlock = z.infer<typeof AnthropicContentBlockSchema>;
export type AnthropicTextBlock = z.infer<typeof AnthropicTextBlockSchema>;
export type AnthropicToolUseBlock = z.infer<typeof AnthropicToolUseBlockSchema>;

// Sound because the ignored-block schema refuses the types `text` and `tool_use`.
export const isTextBlock = (block: AnthropicContentBlock): block is AnthropicTextBlock => block.type === 'text';
export const isToolUseBlock = (block: AnthropicContentBlock): block is AnthropicToolUseBlock =>
  block.type === 'tool_use';

export const AnthropicMessageSchema = z
  .object({
    id: z.string().min(1),
    type: z.literal('message'),
    role: z.literal('assistant'),
    model: z.string(),
    content: z.array(AnthropicContentBlockSchema),
    // Kept a string: an unknown future stop reason must not make the whole answer unreadable.
    stop_reason: z.string().nullable(),
    stop_sequence: z.string().nullable().optional(),
    usage: AnthropicUsageSchema,
  })
  .passthrough();
export type AnthropicMessage = z.infer<typeof AnthropicMessageSchema>;

// ----------------------------------------------------------------------------------- stream

export const AnthropicErrorObjectSchema = z.object({ type: z.string(), message: z.string().optional() }).passthrough();
export type AnthropicErrorObject = z.infer<typeof AnthropicErrorObjectSchema>;

export const AnthropicBlockDeltaSchema = z.union([
  z.object({ type: z.literal('text_delta'), text: z.string() }).passthrough(),
  z.object({ type: z.literal('input_json_delta'), partial_json: z.string() }).passthrough(),
  // thinking_delta, signature_delta, citations_delta: nothing the caller's format can carry.
  z
    .object({ type: z.string().refine((type) => type !== 'text_delta' && type !== 'input_json_delta') })
    .passthrough(),
]);

export type AnthropicBlockDelta = z.infer<typeof AnthropicBlockDeltaSchema>;
type TextDelta = { type: 'text_delta'; text: string };
type InputJsonDelta = { type: 'input_json_delta'; partial_json: string };
export const isTextDelta = (delta: AnthropicBlockDelta): delta is AnthropicBlockDelta & TextDelta =>
  delta.type === 'text_delta';
export const isInputJsonDelta = (delta: AnthropicBlockDelta): delta is AnthropicBlockDelta & InputJsonDelta =>
  delta.type === 'input_json_delta';

/** `message_delta` usage: cumulative counts; newer API versions repeat the input side too. */
const deltaCount = z.number().int().nonnegative().nullable().optional();
export const AnthropicDeltaUsageSchema = z
  .object({
    input_tokens: deltaCount,
    output_tokens: deltaCount,
    cache_creation_input_tokens: deltaCount,
    cache_read_input_tokens: deltaCount,
  })
  .passthrough();
export type AnthropicDeltaUsage = z.infer<typeof AnthropicDeltaUsageSchema>;

export const AnthropicStreamEventSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('message_start'), message: AnthropicMessageSchema }).passthrough(),
  z
    .object({
      type: z.literal('content_block_start'),
      index: z.number().int().nonnegative(),
      content_block: AnthropicContentBlockSchema,
    })
    .passthrough(),
  z
    .object({
      type: z.literal('content_block_delta'),
      index: z.number().int().nonnegative(),
      delta: AnthropicBlockDeltaSchema,
    })
    .passthrough(),
  z.object({ type: z.literal('content_block_stop'), index: z.number().int().nonnegative() }).passthrough(),
  z
    .object({
      type: z.literal('message_delta'),
      delta: z
        .object({ stop_reason: z.string().nullable().optional(), stop_sequence: z.string().nullable().optional() })
        .passthrough(),
      usage: AnthropicDeltaUsageSchema.nullable().optional(),
    })
    .passthrough(),
  z.object({ type: z.literal('message_stop') }).passthrough(),
  z.object({ type: z.literal('ping') }).passthrough(),
  z.object({ type: z.literal('error'), error: AnthropicErrorObjectSchema }).passthrough(),
]);
export type AnthropicStreamEvent = z.infer<typeof AnthropicStreamEventSchema>;

export const ANTHROPIC_STREAM_EVENT_TYPES: ReadonlySet<string> = new Set(
  AnthropicStreamEventSchema.options.map((option) => option.shape.type.value),
);

// ------------------------------------------------------------------------------------ error

/** `{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"},"request_id":…}` */
export const AnthropicErrorBodySchema = z
  .object({ type: z.literal('error').optional(), error: AnthropicErrorObjectSchema, request_id: z.string().optional() })
  .passthrough();
export type AnthropicErrorBody = z.infer<typeof AnthropicErrorBodySchema>;
