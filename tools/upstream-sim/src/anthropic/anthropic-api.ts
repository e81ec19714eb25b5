import { z } from 'zod';

// The Messages API wire format, as far as the simulator checks it: strict where the real API
// answers 400 (empty text, bad tool ids, missing max_tokens), open (`passthrough`) elsewhere.

/** The real API's pattern for `tool_use.id` / `tool_result.tool_use_id`. */
const ToolUseIdSchema = z.string().regex(/^[a-zA-Z0-9_-]+$/, "String should match pattern '^[a-zA-Z0-9_-]+$'");

export const TextBlockSchema = z
  .object({ type: z.literal('text'), text: z.string().min(1, 'text content blocks must be non-empty') })
  .passthrough();

const ImageSourceSchema = z.discriminatedUnion('type', [
  z
    .object({
      type: z.literal('base64'),
      media_type: z.enum(['image/jpeg', 'image/png', 'image/gif', 'image/webp']),
      data: z.string().min(1),
    })
    .passthrough(),
  z.object({ type: z.literal('url'), url: z.string().min(1) }).passthrough(),
  z.object({ type: z.literal('file'), file_id: z.string().min(1) }).passthrough(),
]);

export const ImageBlockSchema = z.object({ type: z.literal('image'), source: ImageSourceSchema }).passthrough();
const DocumentBlockSchema = z.object({ type: z.literal('document'), source: z.record(z.unknown()) }).passthrough();

export const ToolUseBlockSchema = z
  .object({ type: z.literal('tool_use'), id: ToolUseIdSchema, name: z.string().min(1), input: z.record(z.unknown()) })
  .passthrough();

export const ToolResultBlockSchema = z
  .object({
    type: z.literal('tool_result'),
    tool_use_id: ToolUseIdSchema,
    content: z
      .union([z.string(), z.array(z.discriminatedUnion('type', [TextBlockSchema, ImageBlockSchema, DocumentBlockSchema]))])
      .optional(),
    is_error: z.boolean().optional(),
  })
  .passthrough();

const ThinkingBlockSchema = z
  .object({ type: z.literal('thinking'), thinking: z.string(), signature: z.string() })
  .passthrough();
const RedactedThinkingBlockSchema = z.object({ type: z.literal('redacted_thinking'), data: z.string() }).passthrough();

export const ContentBlockSchema = z.discriminatedUnion('type', [
  TextBlockSchema,
  ImageBlockSchema,
  DocumentBlockSchema,
  ToolUseBlockSchema,
  ToolResultBlockSchema,
  ThinkingBlockSchema,
  RedactedThinkingBlockSchema,
]);
export type ContentBlock = z.infer<typeof ContentBlockSchema>;
export type ImageBlock = z.infer<typeof ImageBlockSchema>;

export const AnthropicMessageSchema = z
  .object({
    role: z.enum(['user', 'assistant']),
    content: z.union([z.string(), z.array(ContentBlockSchema)]),
  })
  .passthrough();
export type AnthropicMessage = z.infer<typeof AnthropicMessageSchema>;

/** A client tool (`input_schema` required, of type object) or a server tool (`type` + `name`). */
export const AnthropicToolSchema = z
  .object({
    type: z.string().optional(),
    name: z.string().regex(/^[a-zA-Z0-9_-]{1,128}$/, "String should match pattern '^[a-zA-Z0-9_-]{1,128}$'"),
    description: z.string().optional(),
    input_schema: z.object({ type: z.literal('object') }).passthrough().optional(),
  })
  .passthrough()
  .superRefine((tool, context) => {
    const isClientTool = tool.type === undefined || tool.type === 'custom';
    if (isClientTool && tool.input_schema === undefined) {
      context.addIssue({ code: 'invalid_type', expected: 'object', received: 'undefined', path: ['input_schema'] });
    }
  });
export type AnthropicTool = z.infer<typeof AnthropicToolSchema>;

const disableParallel = { disable_parallel_tool_use: z.boolean().optional() };
export const AnthropicToolChoiceSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('auto'), ...disableParallel }).passthrough(),
  z.object({ type: z.literal('any'), ...disableParallel }).passthrough(),
  z.object({ type: z.literal('tool'), name: z.string().min(1), ...disableParallel }).passthrough(),
  z.object({ type: z.literal('none') }).passthrough(),
]);
export type AnthropicToolChoice = z.infer<typeof AnthropicToolChoiceSchema>;

/** POST /v1/messages */
export const MessagesRequestSchema = z
  .object({
    model: z.string().min(1),
    max_tokens: z.number().int().min(1),
    messages: z.array(AnthropicMessageSchema).min(1, 'at least one message is required'),
    system: z.union([z.string(), z.array(TextBlockSchema)]).optional(),
    tools: z.array(AnthropicToolSchema).optional(),
    tool_choice: AnthropicToolChoiceSchema.optional(),
    stop_sequences: z.array(z.string()).optional(),
    temperature: z.number().min(0).max(1).optional(),
    top_p: z.number().min(0).max(1).optional(),
    top_k: z.number().int().min(0).optional(),
    stream: z.boolean().optional(),
    metadata: z.object({ user_id: z.string().nullish() }).passthrough().optional(),
    /** The simulator's own directives (not part of the real API). */
    x_sim: z.unknown().optional(),
  })
  .passthrough();
export type MessagesRequest = z.infer<typeof MessagesRequestSchema>;

// What the simulator answers (written by it, so plain types rather than schemas).

export type StopReason = 'end_turn' | 'max_tokens' | 'tool_use';

export type ResponseContentBlock =
  | { type: 'text'; text: string }
  | { type: 'tool_use'; id: string; name: string; input: Record<string, unknown> };

export interface AnthropicUsage {
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens: number;
  cache_read_input_tokens: number;
}

export interface AnthropicMessageResponse {
  id: string;
  type: 'message';
  role: 'assistant';
  model: string;
  content: ResponseContentBlock[];
  stop_reason: StopReason | null;
  stop_sequence: null;
  usage: AnthropicUsage;
}

export type AnthropicStreamEvent =
  | { type: 'message_start'; message: AnthropicMessageResponse }
  | {
      type: 'content_block_start';
      index: number;
      content_block: { type: 'text'; text: '' } | { type: 'tool_use'; id: string; name: string; input: Record<string, never> };
    }
  | { type: 'ping' }
  | {
      type: 'content_block_delta';
      index: number;
      delta: { type: 'text_delta'; text: string } | { type: 'input_json_delta'; partial_json: string };
    }
  | { type: 'content_block_stop'; index: number }
  | {
      type: 'message_delta';
      delta: { stop_reason: StopReason; stop_sequence: null };
      usage: { output_tokens: number };
    }
  | { type: 'message_stop' };

export interface AnthropicErrorBody {
  type: 'error';
  error: { type: string; message: string };
}
