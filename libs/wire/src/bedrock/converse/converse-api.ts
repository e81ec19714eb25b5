import { z } from 'zod';

/**
 * Amazon Bedrock's Converse API (bedrock-runtime, `POST /model/{modelId}/converse` and
 * `/converse-stream`), as far as the relay writes and reads it:
 * https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_Converse.html
 * https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_ConverseStream.html
 * Request types are what the converter writes; answers are parsed with zod, unknown keys kept
 * (the stream's events carry a padding field `p`).
 */

export type ConverseImageFormat = 'png' | 'jpeg' | 'gif' | 'webp';
export type ConverseDocumentFormat = 'pdf' | 'csv' | 'doc' | 'docx' | 'xls' | 'xlsx' | 'html' | 'txt' | 'md';

export interface ConverseReasoningBlock {
  reasoningContent: { reasoningText: { text: string; signature?: string } } | { redactedContent: string };
}

export interface ConverseToolUseBlock {
  toolUse: { toolUseId: string; name: string; input: unknown };
}

export interface ConverseToolResultBlock {
  toolResult: { toolUseId: string; content: Array<{ text: string } | { json: unknown }>; status?: 'success' | 'error' };
}

export type ConverseContentBlock =
  | { text: string }
  | { image: { format: ConverseImageFormat; source: { bytes: string } } }
  | { document: { format: ConverseDocumentFormat; name: string; source: { bytes: string } } }
  | ConverseReasoningBlock
  | ConverseToolUseBlock
  | ConverseToolResultBlock;

export interface ConverseMessage {
  role: 'user' | 'assistant';
  content: ConverseContentBlock[];
}

export interface ConverseToolSpec {
  toolSpec: { name: string; description?: string; inputSchema: { json: Record<string, unknown> } };
}

export type ConverseToolChoice = { auto: Record<string, never> } | { any: Record<string, never> } | { tool: { name: string } };

export interface ConverseInferenceConfig {
  maxTokens?: number;
  temperature?: number;
  topP?: number;
  stopSequences?: string[];
}

export interface ConverseRequest {
  messages: ConverseMessage[];
  system?: Array<{ text: string }>;
  inferenceConfig?: ConverseInferenceConfig;
  toolConfig?: { tools: ConverseToolSpec[]; toolChoice?: ConverseToolChoice };
  additionalModelRequestFields?: Record<string, unknown>;
}

export const ConverseUsageSchema = z
  .object({
    inputTokens: z.number().int().nonnegative(),
    outputTokens: z.number().int().nonnegative(),
    totalTokens: z.number().int().nonnegative().optional(),
    cacheReadInputTokens: z.number().int().nonnegative().optional(),
    cacheWriteInputTokens: z.number().int().nonnegative().optional(),
  })
  .passthrough();
export type ConverseUsage = z.infer<typeof ConverseUsageSchema>;

/** One of the two is set (a union member each). */
const ReasoningContentSchema = z
  .object({
    reasoningText: z.object({ text: z.string(), signature: z.string().optional() }).passthrough().optional(),
    redactedContent: z.string().optional(),
  })
  .passthrough();

/** An answer's content block: the kinds the relay carries, anything else kept as an unknown block. */
export const ConverseOutputBlockSchema = z
  .object({
    text: z.string().optional(),
    toolUse: z.object({ toolUseId: z.string(), name: z.string(), input: z.unknown() }).passthrough().optional(),
    reasoningContent: ReasoningContentSchema.optional(),
  })
  .passthrough();
export type ConverseOutputBlock = z.infer<typeof ConverseOutputBlockSchema>;

export const ConverseResponseSchema = z
  .object({
    output: z.object({
      message: z.object({ role: z.literal('assistant'), content: z.array(ConverseOutputBlockSchema) }).passthrough(),
    }).passthrough(),
    stopReason: z.string(),
    usage: ConverseUsageSchema,
  })
  .passthrough();

/** The stream's events, by their `:event-type` (https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_ConverseStreamOutput.html). */
export const ConverseStreamPayloadSchemas = {
  messageStart: z.object({ role: z.string() }).passthrough(),
  contentBlockStart: z
    .object({
      contentBlockIndex: z.number().int().nonnegative(),
      start: z.object({ toolUse: z.object({ toolUseId: z.string(), name: z.string() }).passthrough().optional() }).passthrough(),
    })
    .passthrough(),
  contentBlockDelta: z
    .object({
      contentBlockIndex: z.number().int().nonnegative(),
      delta: z
        .object({
          text: z.string().optional(),
          toolUse: z.object({ input: z.string() }).passthrough().optional(),
          reasoningContent: z
            .object({ text: z.string().optional(), signature: z.string().optional(), redactedContent: z.string().optional() })
            .passthrough()
            .optional(),
        })
        .passthrough(),
    })
    .passthrough(),
  contentBlockStop: z.object({ contentBlockIndex: z.number().int().nonnegative() }).passthrough(),
  messageStop: z.object({ stopReason: z.string() }).passthrough(),
  metadata: z.object({ usage: ConverseUsageSchema }).passthrough(),
} as const;
export type ConverseStreamEventType = keyof typeof ConverseStreamPayloadSchemas;

export const isConverseStreamEventType = (type: string): type is ConverseStreamEventType => Object.hasOwn(ConverseStreamPayloadSchemas, type);

