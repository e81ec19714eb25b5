import { z } from 'zod';

// The Messages API wire format, as far as the simulator checks it: strict where the real API
// answers 400 (bad tool ids, missing max_tokens, an unknown thinking type), open
// (`passthrough`) elsewhere. Rules a well-formed body can still break (empty text, roles,
// signatures) are in the check-anthropic-*.ts files.

/** `{"type": "ephemeral", "ttl": "5m" | "1h"}`: a prompt-caching breakpoint. */
export const CacheControlSchema = z
  .object({ type: z.literal('ephemeral'), ttl: z.enum(['5m', '1h']).optional() })
  .passthrough();
export type CacheControl = z.infer<typeof CacheControlSchema>;
const cacheControl = { cache_control: CacheControlSchema.nullish() };

/** The real API's pattern for `tool_use.id` / `tool_result.tool_use_id`. */
const ToolUseIdSchema = z.string().regex(/^[a-zA-Z0-9_-]+$/, "String should match pattern '^[a-zA-Z0-9_-]+$'");

export const TextBlockSchema = z.object({ type: z.literal('text'), text: z.string(), ...cacheControl }).passthrough();

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

export const ImageBlockSchema = z.object({ type: z.literal('image'), source: ImageSourceSchema, ...cacheControl }).passthrough();
const DocumentBlockSchema = z
  .object({ type: z.literal('document'), source: z.record(z.unknown()), ...cacheControl })
  .passthrough();

export const ToolUseBlockSchema = z
  .object({
    type: z.literal('tool_use'),
    id: ToolUseIdSchema,
    name: z.string().min(1),
    input: z.record(z.unknown()),
    ...cacheControl,
  })
  .passthrough();

export const ToolResultBlockSchema = z
  .object({
    type: z.literal('tool_result'),
    tool_use_id: ToolUseIdSchema,
    content: z
      .union([z.string(), z.array(z.discriminatedUnion('type', [TextBlockSchema, ImageBlockSchema, DocumentBlockSchema]))])
      .optional(),
    is_error: z.boolean().optional(),
    ...cacheControl,
  })
  .passthrough();

/** `signature` is optional here so that its absence gets the API's own message (check-anthropic-thinking.ts). */
const ThinkingBlockSchema = z
  .object({ type: z.literal('thinking'), thinking: z.string(), signature: z.string().optional() })
  .passthrough();
const RedactedThinkingBlockSchema = z.object({ type: z.literal('redacted_thinking'), data: z.string() }).passthrough();

/** Blocks of server tools and search results that come back in the history: accepted, not read. */
const ServerBlockSchema = z
  .object({
    type: z.enum([
      'search_result',
      'server_tool_use',
      'web_search_tool_result',
      'web_fetch_tool_result',
      'code_execution_tool_result',
      'bash_code_execution_tool_result',
      'text_editor_code_execution_tool_result',
      'tool_search_tool_result',
      'container_upload',
      'mcp_tool_use',
      'mcp_tool_result',
    ]),
    ...cacheControl,
  })
  .passthrough();

export const ContentBlockSchema = z.discriminatedUnion('type', [
  TextBlockSchema,
  ImageBlockSchema,
  DocumentBlockSchema,
  ToolUseBlockSchema,
  ToolResultBlockSchema,
  ThinkingBlockSchema,
  RedactedThinkingBlockSchema,
  ServerBlockSchema,
]);
export type ContentBlock = z.infer<typeof ContentBlockSchema>;
export type ImageBlock = z.infer<typeof ImageBlockSchema>;
export type TextBlock = z.infer<typeof TextBlockSchema>;

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
    ...cacheControl,
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

const thinkingDisplay = { display: z.enum(['summarized', 'omitted']).nullish() };
/** Extended thinking: a budget (checked against max_tokens in check-anthropic-thinking.ts), adaptive, or off. */
export const ThinkingConfigSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('enabled'), budget_tokens: z.number().int(), ...thinkingDisplay }).passthrough(),
  z.object({ type: z.literal('adaptive'), ...thinkingDisplay }).passthrough(),
  z.object({ type: z.literal('disabled') }).passthrough(),
]);
export type ThinkingConfig = z.infer<typeof ThinkingConfigSchema>;

/** What `POST /v1/messages` and `POST /v1/messages/count_tokens` share: the prompt. */
const promptFields = {
  model: z.string().min(1),
  messages: z.array(AnthropicMessageSchema).min(1, 'at least one message is required'),
  system: z.union([z.string(), z.array(TextBlockSchema)]).optional(),
  tools: z.array(AnthropicToolSchema).optional(),
  tool_choice: AnthropicToolChoiceSchema.optional(),
  thinking: ThinkingConfigSchema.optional(),
  /** Automatic caching: one breakpoint on the last cacheable block. */
  cache_control: CacheControlSchema.nullish(),
  /** The simulator's own directives (not part of the real API). */
  x_sim: z.unknown().optional(),
};

/** POST /v1/messages */
export const MessagesRequestSchema = z
  .object({
    ...promptFields,
    max_tokens: z.number().int().min(1),
    stop_sequences: z.array(z.string()).optional(),
    temperature: z.number().min(0).max(1).optional(),
    top_p: z.number().min(0).max(1).optional(),
    top_k: z.number().int().min(0).optional(),
    stream: z.boolean().optional(),
    metadata: z.object({ user_id: z.string().nullish() }).passthrough().optional(),
  })
  .passthrough();
export type MessagesRequest = z.infer<typeof MessagesRequestSchema>;

/** POST /v1/messages/count_tokens: the prompt alone (max_tokens and stream are refused, as the API does). */
export const CountTokensRequestSchema = z.object(promptFields).passthrough();
export type CountTokensRequest = z.infer<typeof CountTokensRequestSchema>;

/** The part of a request that is counted and cached: what both endpoints accept. */
export type AnthropicPrompt = CountTokensRequest;

// What the simulator answers (written by it, so plain types rather than schemas).

export type StopReason = 'end_turn' | 'max_tokens' | 'tool_use';

/** A search result as Anthropic answers it (`web_search_tool_result.content[]`). */
export interface WebSearchResult {
  type: 'web_search_result';
  url: string;
  title: string;
  encrypted_content: string;
  page_age: string | null;
}

export type ResponseContentBlock =
  | { type: 'thinking'; thinking: string; signature: string }
  | { type: 'text'; text: string }
  | { type: 'tool_use'; id: string; name: string; input: Record<string, unknown> }
  | { type: 'server_tool_use'; id: string; name: 'web_search'; input: { query: string } }
  | { type: 'web_search_tool_result'; tool_use_id: string; content: WebSearchResult[] };

/** The prompt side of usage: what was read from the cache, written to it, and the rest. */
export interface AnthropicInputUsage {
  input_tokens: number;
  cache_creation_input_tokens: number;
  cache_read_input_tokens: number;
  /** The cache writes by lifetime of the breakpoint that made them. */
  cache_creation: { ephemeral_5m_input_tokens: number; ephemeral_1h_input_tokens: number };
}

export interface AnthropicUsage extends AnthropicInputUsage {
  output_tokens: number;
  /** Server tools Anthropic ran (present when the request offered one). */
  server_tool_use?: { web_search_requests: number; web_fetch_requests: number };
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
      content_block:
        | { type: 'thinking'; thinking: ''; signature: '' }
        | { type: 'text'; text: '' }
        | { type: 'tool_use'; id: string; name: string; input: Record<string, never> }
        | { type: 'server_tool_use'; id: string; name: 'web_search'; input: Record<string, never> }
        | Extract<ResponseContentBlock, { type: 'web_search_tool_result' }>;
    }
  | { type: 'ping' }
  | {
      type: 'content_block_delta';
      index: number;
      delta:
        | { type: 'thinking_delta'; thinking: string }
        | { type: 'signature_delta'; signature: string }
        | { type: 'text_delta'; text: string }
        | { type: 'input_json_delta'; partial_json: string };
    }
  | { type: 'content_block_stop'; index: number }
  | {
      type: 'message_delta';
      delta: { stop_reason: StopReason; stop_sequence: null };
      /** Cumulative, input side included, as the current API sends it. */
      usage: Omit<AnthropicUsage, 'cache_creation'>;
    }
  | { type: 'message_stop' };

/** POST /v1/messages/count_tokens */
export interface CountTokensResponse {
  input_tokens: number;
}

/** One entry of `GET /v1/models` (and `GET /v1/models/{id}`) on the Anthropic side. */
export interface AnthropicModelInfo {
  type: 'model';
  id: string;
  display_name: string;
  /** RFC 3339 */
  created_at: string;
}

export interface AnthropicModelList {
  data: AnthropicModelInfo[];
  has_more: boolean;
  first_id: string | null;
  last_id: string | null;
}

export interface AnthropicErrorBody {
  type: 'error';
  error: { type: string; message: string };
}
