import type { Adjustment } from '../../hub/bridge-loss';
import type { ChatCompletionRequest } from '@chat-relay/contract';
import { invalidRequest } from '../../errors/relay-error';
import type { AnthropicRequest } from '../anthropic-api';
import { convertToAnthropicMessages } from './convert-to-anthropic-messages';
import { convertReasoningEffortToThinking, type ThinkingFacts } from './convert-reasoning-effort-to-thinking';
import { convertToAnthropicTools } from './convert-to-anthropic-tools';
import { defaultAnthropicMaxTokens } from './default-anthropic-max-tokens';

export interface ConvertToAnthropicRequestArgs {
  request: ChatCompletionRequest;
  /** The model name to send (after the channel's mapping). */
  upstreamModel: string;
  /** What the catalogue knows of the upstream model: how it thinks, its output limit. */
  model?: ThinkingFacts | undefined;
}

export interface ConvertedAnthropicRequest {
  request: AnthropicRequest;
  /** Accepted parameters Anthropic cannot honour exactly (documented mappings), for the log. */
  warnings: Adjustment[];
}

/**
 * Fields of the OpenAI request this converter reads. Any other field with a value is a 400:
 * Anthropic would reject it, and dropping it silently would change what the caller asked for.
 */
const HANDLED_FIELDS: ReadonlySet<string> = new Set([
  'model',
  'messages',
  'tools',
  'tool_choice',
  'parallel_tool_calls',
  'functions',
  'function_call',
  'stream',
  'stream_options',
  'response_format',
  'temperature',
  'top_p',
  'top_k',
  'frequency_penalty',
  'presence_penalty',
  'n',
  'seed',
  'stop',
  'max_tokens',
  'max_completion_tokens',
  'logit_bias',
  'logprobs',
  'top_logprobs',
  'user',
  'safety_identifier',
  'store',
  'metadata',
  'prompt_cache_key',
  'reasoning_effort',
  'service_tier',
]);

const unsupported = (param: string, why: string) =>
  invalidRequest(`'${param}' is not supported on Anthropic channels: ${why}.`, param, 'unsupported_parameter');

/** Every parameter Anthropic cannot express, refused by name rather than dropped. */
function rejectInexpressible(request: ChatCompletionRequest): void {
  for (const [field, value] of Object.entries(request)) {
    if (!HANDLED_FIELDS.has(field) && value !== undefined && value !== null) {
      throw unsupported(field, 'the Messages API has no such parameter');
    }
  }
  if (request.functions !== undefined) throw unsupported('functions', 'use tools');
  if (request.function_call !== undefined) throw unsupported('function_call', 'use tool_choice');
  if ((request.n ?? 1) > 1) throw unsupported('n', 'Anthropic returns one choice per request');
  if (request.seed !== undefined && request.seed !== null) throw unsupported('seed', 'Anthropic has no seeded sampling');
  if (request.logprobs) throw unsupported('logprobs', 'Anthropic does not return log probabilities');
  if (request.top_logprobs) throw unsupported('top_logprobs', 'Anthropic does not return log probabilities');
  if (request.logit_bias && Object.keys(request.logit_bias).length > 0) {
    throw unsupported('logit_bias', 'Anthropic has no token biasing');
  }
  if (request.frequency_penalty) throw unsupported('frequency_penalty', 'Anthropic has no repetition penalties');
  if (request.presence_penalty) throw unsupported('presence_penalty', 'Anthropic has no repetition penalties');
  if (request.temperature !== undefined && request.temperature !== null && request.temperature > 1) {
    throw invalidRequest(
      `temperature ${request.temperature} is out of range for Anthropic channels, which accept 0 to 1.`,
      'temperature',
      'unsupported_value',
    );
  }
}

/** `top_k` is no OpenAI field, so the contract does not type it: checked here (Anthropic takes a whole number ≥ 0). */
function topKOf(value: unknown): number | undefined {
  if (value === null || value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) {
    throw invalidRequest('top_k must be a non-negative integer.', 'top_k', 'invalid_type');
  }
  return value;
}

/** max_tokens / max_completion_tokens (synonyms on OpenAI), or the model's default. */
function maxTokensOf(request: ChatCompletionRequest, upstreamModel: string): number {
  const { max_tokens: legacy, max_completion_tokens: current } = request;
  if (legacy != null && current != null && legacy !== current) {
    throw invalidRequest('max_tokens and max_completion_tokens disagree; send one of them.', 'max_tokens');
  }
  return current ?? legacy ?? defaultAnthropicMaxTokens(upstreamModel);
}

/** OpenAI `default` is standard capacity; `auto` is Anthropic's own default. */
function serviceTierOf(tier: string | null | undefined): AnthropicRequest['service_tier'] {
  if (tier === undefined || tier === null || tier === 'auto') return undefined;
  if (tier === 'default') return 'standard_only';
  throw invalidRequest(
    `service_tier '${tier}' is not supported on Anthropic channels (use 'auto' or 'default').`,
    'service_tier',
    'unsupported_value',
  );
}

/**
 * An OpenAI chat completion request → a Messages API request (anthropic-version 2023-06-01),
 * or a 400 naming the first parameter that cannot be expressed. Documented mappings:
 * `stop` → `stop_sequences`; `top_k` as it is (the Messages API has it); `user` / `safety_identifier` → `metadata.user_id`;
 * `service_tier` default → standard_only; `store`, `metadata`, `prompt_cache_key` and
 * `stream_options` are OpenAI-side knobs with nothing to do upstream (the relay produces the
 * usage chunk itself); `reasoning_effort` → thinking (see convertReasoningEffortToThinking).
 */
export function convertToAnthropicRequest({
  request,
  upstreamModel,
  model,
}: ConvertToAnthropicRequestArgs): ConvertedAnthropicRequest {
  rejectInexpressible(request);
  const { system, messages } = convertToAnthropicMessages(request.messages);
  const toolConfig = convertToAnthropicTools({
    tools: request.tools,
    toolChoice: request.tool_choice,
    parallelToolCalls: request.parallel_tool_calls,
    responseFormat: request.response_format,
  });
  const stop = typeof request.stop === 'string' ? [request.stop] : (request.stop ?? []);
  const userId = request['safety_identifier'] ?? request.user;
  const serviceTier = serviceTierOf(request.service_tier);
  const topK = topKOf(request['top_k']);

  const body: AnthropicRequest = {
    model: upstreamModel,
    messages,
    max_tokens: maxTokensOf(request, upstreamModel),
    stream: request.stream === true,
  };
  // One system message stays a plain string; several stay separate blocks, in order.
  if (system.length === 1 && system[0]) body.system = system[0].text;
  else if (system.length > 1) body.system = system;
  if (stop.length > 0) body.stop_sequences = stop;
  if (request.temperature !== undefined && request.temperature !== null) body.temperature = request.temperature;
  if (request.top_p !== undefined && request.top_p !== null) body.top_p = request.top_p;
  if (topK !== undefined) body.top_k = topK;
  if (toolConfig.tools) body.tools = toolConfig.tools;
  if (toolConfig.tool_choice) body.tool_choice = toolConfig.tool_choice;
  if (typeof userId === 'string' && userId !== '') body.metadata = { user_id: userId };
  if (serviceTier) body.service_tier = serviceTier;
  const warnings = [...toolConfig.warnings];
  convertReasoningEffortToThinking(body, request.reasoning_effort, model, warnings);
  return { request: body, warnings };
}
