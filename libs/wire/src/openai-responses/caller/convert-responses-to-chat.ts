import { RESPONSES_TO_CHAT } from '../responses-bridge-losses';
import {
  ResponseFormatSchema,
  type ChatCompletionRequest,
  type ResponseInputItem,
  type ResponsesRequest,
} from '@chat-relay/contract';
import { invalidRequest, type RelayError } from '../../errors/relay-error';
import { convertResponsesInputToChat } from './convert-responses-input-to-chat';
import { convertResponsesToolsToChat } from './convert-responses-tools-to-chat';
import { webSearchPlanOf, type WebSearchPlan } from './bridge-web-search';
import { BridgeNotes } from '../../hub/bridge-notes';
import type { Adjustment } from '../../hub/bridge-loss';

export interface ConvertedResponsesRequest {
  /** The hub request, converted as well as possible even when `nativeOnly` is set (for cost estimates). */
  request: ChatCompletionRequest;
  /** What was accepted but is not honoured exactly, for the log. */
  warnings: Adjustment[];
  /** A 400 naming the first field only a channel speaking Responses natively can serve: the relay must not bridge then. */
  nativeOnly?: RelayError;
  /** The web search offered to the model as a function of the relay's: the request has a web_search tool (see webSearchPlanOf). */
  webSearch?: WebSearchPlan;
}

/** OpenAI's reasoning efforts (the ReasoningEffort of its OpenAPI description). */
export const REASONING_EFFORTS: ReadonlySet<string> = new Set(['none', 'minimal', 'low', 'medium', 'high', 'xhigh', 'max']);

const LOGPROBS_INCLUDE = 'message.output_text.logprobs';

/** Top-level fields read below (or kept by the relay itself: store, metadata, previous_response_id); any other one is named in a warning and not sent. */
const CONVERTED_FIELDS: ReadonlySet<string> = new Set([
  'model',
  'input',
  'instructions',
  'tools',
  'tool_choice',
  'parallel_tool_calls',
  'text',
  'reasoning',
  'max_output_tokens',
  'temperature',
  'top_p',
  'top_logprobs',
  'user',
  'prompt_cache_key',
  'safety_identifier',
  'service_tier',
  'stream',
  'store',
  'metadata',
  'previous_response_id',
  'include',
  'truncation',
  'background',
]);

/** Fields naming something stored at OpenAI: nothing else can serve them. */
const NATIVE_ONLY_FIELDS: Readonly<Record<string, string>> = {
  conversation: 'a conversation (stored at OpenAI)',
  prompt: 'a prompt template (stored at OpenAI)',
};

function noteOtherFields(request: ResponsesRequest, notes: BridgeNotes): void {
  for (const [field, value] of Object.entries(request)) {
    if (CONVERTED_FIELDS.has(field) || value === undefined || value === null) continue;
    const nativeOnly = NATIVE_ONLY_FIELDS[field];
    if (nativeOnly) notes.refuse(field, nativeOnly);
    else notes.lose(RESPONSES_TO_CHAT.rules.otherField, { field });
  }
  if (request.background === true) notes.refuse('background', 'background mode');
  if (request.truncation === 'auto') notes.lose(RESPONSES_TO_CHAT.rules.truncationAuto, { from: 'auto' });
}

function convertTextConfig(text: ResponsesRequest['text'], notes: BridgeNotes): Pick<ChatCompletionRequest, 'response_format'> {
  if (!text) return {};
  for (const [field, value] of Object.entries(text)) {
    if (field === 'format' || value === undefined || value === null) continue;
    notes.lose(RESPONSES_TO_CHAT.rules.textField, { field: `text.${field}` });
  }
  const format = text.format;
  if (!format || format.type === 'text') return {};
  if (format.type === 'json_object') return { response_format: { type: 'json_object' } };
  const { name, schema, strict, description } = format as Extract<typeof format, { type: 'json_schema' }>;
  const responseFormat = {
    type: 'json_schema' as const,
    json_schema: {
      name,
      schema,
      ...(strict !== undefined && strict !== null ? { strict } : {}),
      ...(description !== undefined ? { description } : {}),
    },
  };
  if (!ResponseFormatSchema.safeParse(responseFormat).success) {
    throw invalidRequest(
      `Invalid text.format.name: '${name}'. Names must be 1-64 letters, digits, underscores or dashes.`,
      'text.format.name',
      'invalid_value',
    );
  }
  return { response_format: responseFormat };
}

function convertReasoning(reasoning: ResponsesRequest['reasoning'], notes: BridgeNotes): Pick<ChatCompletionRequest, 'reasoning_effort'> {
  if (!reasoning) return {};
  for (const [field, value] of Object.entries(reasoning)) {
    if (value === undefined || value === null || field === 'effort') continue;
    if (field === 'summary' || field === 'generate_summary') notes.lose(RESPONSES_TO_CHAT.rules.reasoningSummary, { field: `reasoning.${field}` });
    else notes.lose(RESPONSES_TO_CHAT.rules.reasoningField, { field: `reasoning.${field}` });
  }
  const effort = reasoning.effort;
  if (effort === undefined || effort === null) return {};
  if (REASONING_EFFORTS.has(effort)) return { reasoning_effort: effort };
  notes.lose(RESPONSES_TO_CHAT.rules.reasoningEffortUnknown, { from: effort });
  return {};
}

/** `include` and `top_logprobs` → `logprobs` / `top_logprobs`; other includes have nothing to add on a bridged channel. */
function convertLogprobs(request: ResponsesRequest, notes: BridgeNotes): Pick<ChatCompletionRequest, 'logprobs' | 'top_logprobs'> {
  const include = request.include ?? [];
  if (include.includes('reasoning.encrypted_content')) notes.lose(RESPONSES_TO_CHAT.rules.encryptedReasoning);
  const topLogprobs: unknown = request['top_logprobs'];
  if (topLogprobs !== undefined && topLogprobs !== null) {
    if (typeof topLogprobs !== 'number' || !Number.isInteger(topLogprobs) || topLogprobs < 0 || topLogprobs > 20) {
      throw invalidRequest('top_logprobs must be an integer from 0 to 20.', 'top_logprobs', 'invalid_value');
    }
    return { logprobs: true, top_logprobs: topLogprobs };
  }
  return include.includes(LOGPROBS_INCLUDE) ? { logprobs: true } : {};
}

/** A string field the contract keeps untyped (passthrough), checked here: `safety_identifier`, `service_tier`. */
function stringField(request: ResponsesRequest, field: 'safety_identifier' | 'service_tier'): Partial<Record<typeof field, string>> {
  const value: unknown = request[field];
  if (value === undefined || value === null) return {};
  if (typeof value !== 'string') throw invalidRequest(`${field} must be a string.`, field, 'invalid_type');
  return { [field]: value };
}

const defined = <T>(field: string, value: T | null | undefined): Record<string, T> =>
  value === undefined || value === null ? {} : { [field]: value };

/**
 * A Responses request (`POST /v1/responses`) → the hub's Chat Completions request, for a channel
 * that does not speak Responses. `history` holds the items of earlier turns (previous_response_id:
 * their inputs and outputs, in order); they come before `input`. `referable` holds items of other
 * stored responses an `item_reference` may name (not part of the conversation otherwise).
 * Documented mappings (each not
 * exact one is also a warning when it applies):
 *   instructions, history, input → messages (see convertResponsesInputToChat); tools, tool_choice,
 *   parallel_tool_calls → see convertResponsesToolsToChat; text.format json_schema →
 *   response_format json_schema (name, schema, strict, description), json_object → json_object;
 *   reasoning.effort → reasoning_effort (OpenAI's efforts only); max_output_tokens →
 *   max_completion_tokens; temperature, top_p, user, prompt_cache_key, safety_identifier,
 *   service_tier as they are; top_logprobs → logprobs + top_logprobs, include
 *   message.output_text.logprobs → logprobs; stream → stream with stream_options.include_usage,
 *   whose usage chunk the bridge needs.
 * Not sent, with a warning: text.verbosity (Gemini and Anthropic channels refuse it),
 * reasoning.summary, include reasoning.encrypted_content, truncation 'auto', any unknown field.
 * Not sent, silently: store, metadata, previous_response_id (the relay keeps responses itself).
 * The web_search tool: a function the relay answers itself with a search when the model calls
 * it (see webSearchPlanOf); web_search_call items of earlier turns are dropped (warned).
 * Native channels only: background, conversation, prompt, the other hosted tools and their items,
 * file_id images and file_url files.
 * A conversation with no message at all is a 400 naming `input` (unless native only already).
 */
export function convertResponsesToChat(
  request: ResponsesRequest,
  history: readonly ResponseInputItem[] = [],
  referable: readonly ResponseInputItem[] = [],
): ConvertedResponsesRequest {
  const notes = new BridgeNotes((param, what) => `'${param}': ${what} is only available on channels that speak the Responses API natively.`);
  noteOtherFields(request, notes);
  const messages = convertResponsesInputToChat(request, history, notes, referable);
  const webSearch = webSearchPlanOf(request, notes);
  if (messages.length === 0 && !notes.nativeOnly) {
    throw invalidRequest('The conversation is empty: give an input (or instructions).', 'input', 'empty_input');
  }
  const chat: ChatCompletionRequest = {
    model: request.model,
    messages,
    ...convertResponsesToolsToChat(request, notes, history, webSearch),
    ...defined('max_completion_tokens', request.max_output_tokens),
    ...defined('temperature', request.temperature),
    ...defined('top_p', request.top_p),
    ...convertLogprobs(request, notes),
    ...defined('user', request.user),
    ...defined('prompt_cache_key', request.prompt_cache_key),
    ...stringField(request, 'safety_identifier'),
    ...stringField(request, 'service_tier'),
    ...convertReasoning(request.reasoning, notes),
    ...convertTextConfig(request.text, notes),
    ...(request.stream === true ? { stream: true, stream_options: { include_usage: true } } : {}),
  };
  return {
    request: chat,
    warnings: notes.warnings,
    ...(notes.nativeOnly ? { nativeOnly: notes.nativeOnly } : {}),
    ...(webSearch ? { webSearch } : {}),
  };
}
