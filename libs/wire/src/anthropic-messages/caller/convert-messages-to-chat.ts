import { MESSAGES_TO_CHAT } from '../messages-bridge-losses';
import type { AnthropicMessagesRequest, ChatCompletionRequest } from '@chat-relay/contract';
import type { RelayError } from '../../errors/relay-error';
import { isJsonObject } from '../../json/json-checks';
import type { Adjustment } from '../../hub/bridge-loss';
import { BridgeNotes } from '../../hub/bridge-notes';
import { noteCacheControl } from './convert-anthropic-media-to-chat';
import { convertMessagesToChatMessages } from './convert-messages-to-chat-messages';
import { convertMessagesToChatTools } from './convert-messages-to-chat-tools';
import { mapThinkingToReasoningEffort } from '../upstream/map-thinking-to-reasoning-effort';

/** The most stop sequences the hub (like OpenAI) accepts. */
export const MAX_CHAT_STOP_SEQUENCES = 4;

/** The name a Messages structured-output schema goes under (Chat Completions wants one). */
export const BRIDGED_RESPONSE_FORMAT_NAME = 'response';

export interface ConvertedMessagesRequest {
  /** The hub request, converted as well as possible even when `nativeOnly` is set (for cost estimates). */
  request: ChatCompletionRequest;
  /** What was accepted but is not honoured exactly, for the log. */
  warnings: Adjustment[];
  /** A 400 naming the first field only an Anthropic channel can serve: the relay must not bridge then. */
  nativeOnly: RelayError | undefined;
}

/** Top-level fields read below; any other one is named in a warning and not sent. */
const CONVERTED_FIELDS: ReadonlySet<string> = new Set([
  'model',
  'messages',
  'system',
  'tools',
  'tool_choice',
  'thinking',
  'output_config',
  'cache_control',
  'max_tokens',
  'stream',
  'stop_sequences',
  'temperature',
  'top_p',
  'top_k',
  'metadata',
  'service_tier',
]);

/** Fields naming something that lives at Anthropic. */
const NATIVE_ONLY_FIELDS: Readonly<Record<string, string>> = {
  container: 'code-execution containers run at Anthropic',
  mcp_servers: 'Anthropic connects to MCP servers itself',
};

function convertOutputConfig(
  outputConfig: AnthropicMessagesRequest['output_config'],
  notes: BridgeNotes,
): Pick<ChatCompletionRequest, 'response_format'> {
  if (!outputConfig) return {};
  for (const field of Object.keys(outputConfig)) {
    if (field !== 'effort' && field !== 'format') notes.lose(MESSAGES_TO_CHAT.rules.outputConfigField, { field: `output_config.${field}` });
  }
  const format = outputConfig.format;
  if (format === undefined || format === null) return {};
  const schema = (format as { schema?: unknown }).schema;
  if (format.type !== 'json_schema' || !isJsonObject(schema)) {
    notes.refuse('output_config.format', `output format '${format.type}' has no Chat Completions counterpart`);
    return {};
  }
  // Messages structured outputs are always constrained to the schema: strict.
  return { response_format: { type: 'json_schema', json_schema: { name: BRIDGED_RESPONSE_FORMAT_NAME, schema, strict: true } } };
}

function convertMetadata(metadata: AnthropicMessagesRequest['metadata'], notes: BridgeNotes): Pick<ChatCompletionRequest, 'user'> {
  if (!metadata) return {};
  for (const field of Object.keys(metadata)) {
    if (field !== 'user_id') notes.lose(MESSAGES_TO_CHAT.rules.metadataField, { field: `metadata.${field}` });
  }
  const userId = metadata.user_id;
  return typeof userId === 'string' && userId !== '' ? { user: userId } : {};
}

/** `standard_only` is OpenAI's `default` tier; `auto` is both APIs' default, so nothing is sent. */
function convertServiceTier(tier: string | undefined, notes: BridgeNotes): Pick<ChatCompletionRequest, 'service_tier'> {
  if (tier === undefined || tier === 'auto') return {};
  if (tier === 'standard_only') return { service_tier: 'default' };
  notes.lose(MESSAGES_TO_CHAT.rules.serviceTier, { from: tier });
  return {};
}

function convertStopSequences(stop: string[] | undefined, notes: BridgeNotes): Pick<ChatCompletionRequest, 'stop'> {
  if (!stop || stop.length === 0) return {};
  if (stop.length > MAX_CHAT_STOP_SEQUENCES) {
    notes.refuse('stop_sequences', `Chat Completions takes at most ${MAX_CHAT_STOP_SEQUENCES} stop sequences, not ${stop.length}`);
    return { stop: stop.slice(0, MAX_CHAT_STOP_SEQUENCES) };
  }
  return { stop };
}

function noteOtherFields(request: AnthropicMessagesRequest, notes: BridgeNotes): void {
  for (const [field, value] of Object.entries(request)) {
    if (CONVERTED_FIELDS.has(field) || value === undefined || value === null) continue;
    const nativeOnly = NATIVE_ONLY_FIELDS[field];
    if (nativeOnly) notes.refuse(field, nativeOnly);
    else notes.lose(MESSAGES_TO_CHAT.rules.otherField, { field });
  }
}

/**
 * A Messages request → the hub's Chat Completions request, for a channel that is not Anthropic.
 * Documented mappings (each not exact one is also a warning when it applies):
 *   system → one leading system message; messages → see convertMessagesToChatMessages;
 *   tools / tool_choice → see convertMessagesToChatTools; max_tokens → max_completion_tokens
 *   (like Anthropic's, it bounds reasoning and answer together; reasoning models refuse
 *   max_tokens); stop_sequences → stop (more than 4: Anthropic only); temperature, top_p as they
 *   are; top_k → `top_k` (vLLM-style servers and the Gemini adapter read it); metadata.user_id →
 *   user; service_tier standard_only → default; thinking / output_config.effort →
 *   reasoning_effort; output_config.format json_schema → response_format json_schema (strict);
 *   stream → stream with stream_options.include_usage, whose usage chunk the bridge needs.
 * cache_control breakpoints are dropped (warning); container and mcp_servers are Anthropic's
 * only; any other field is not sent, and named in a warning.
 */
export function convertMessagesToChat(request: AnthropicMessagesRequest): ConvertedMessagesRequest {
  const notes = new BridgeNotes((param, why) => `'${param}' can only be served by an Anthropic channel: ${why}.`);
  noteOtherFields(request, notes);
  noteCacheControl(request, notes);
  const messages = convertMessagesToChatMessages(request.system, request.messages, notes);
  const reasoningEffort = mapThinkingToReasoningEffort(request.thinking, request.output_config?.effort, notes);

  const chat: ChatCompletionRequest = {
    model: request.model,
    messages,
    ...convertMessagesToChatTools(request.tools, request.tool_choice, notes),
    max_completion_tokens: request.max_tokens,
    ...convertStopSequences(request.stop_sequences, notes),
    ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
    ...(request.top_p !== undefined ? { top_p: request.top_p } : {}),
    ...(request.top_k !== undefined ? { top_k: request.top_k } : {}),
    ...convertMetadata(request.metadata, notes),
    ...convertServiceTier(request.service_tier, notes),
    ...(reasoningEffort !== undefined ? { reasoning_effort: reasoningEffort } : {}),
    ...convertOutputConfig(request.output_config, notes),
    ...(request.stream === true ? { stream: true, stream_options: { include_usage: true } } : {}),
  };
  return { request: chat, warnings: notes.warnings, nativeOnly: notes.nativeOnly };
}
