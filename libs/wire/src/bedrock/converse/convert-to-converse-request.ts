import type { ChatCompletionRequest } from '@chat-relay/contract';
import { invalidRequest } from '../../errors/relay-error';
import type { Adjustment } from '../../hub/bridge-loss';
import type { ConverseInferenceConfig, ConverseRequest } from './converse-api';
import { converseFamilyOf, reasoningFields, topKFields } from './converse-model-fields';
import { convertToConverseMessages } from './convert-to-converse-messages';
import { convertToConverseTools } from './convert-to-converse-tools';

/** Read by the conversion below (or, for `model` and `stream`, by the adapter's URL). */
const CONVERTED = new Set([
  'model',
  'messages',
  'tools',
  'tool_choice',
  'parallel_tool_calls',
  'stream',
  'temperature',
  'top_p',
  'top_k',
  'stop',
  'max_tokens',
  'max_completion_tokens',
  'reasoning_effort',
]);

/** OpenAI bookkeeping that does not change the answer: accepted, not sent (stream_options is the relay's). */
const BOOKKEEPING = new Set(['user', 'store', 'metadata', 'stream_options', 'safety_identifier', 'prompt_cache_key']);

/** Values of otherwise inexpressible fields that ask for nothing, so are accepted. */
const HARMLESS: Readonly<Record<string, (value: unknown) => boolean>> = {
  n: (value) => value === 1,
  logit_bias: (value) => typeof value === 'object' && value !== null && Object.keys(value).length === 0,
  logprobs: (value) => value === false,
  top_logprobs: (value) => value === 0,
  frequency_penalty: (value) => value === 0,
  presence_penalty: (value) => value === 0,
  service_tier: (value) => value === 'auto' || value === 'default',
  modalities: (value) => Array.isArray(value) && value.length === 1 && value[0] === 'text',
  response_format: (value) => typeof value === 'object' && value !== null && (value as { type?: unknown }).type === 'text',
};

const WHY_NOT: Readonly<Record<string, string>> = {
  n: 'Converse returns one answer per request',
  seed: 'Converse has no seeded sampling',
  logit_bias: 'Converse has no token biasing',
  logprobs: 'Converse does not return log probabilities',
  top_logprobs: 'Converse does not return log probabilities',
  frequency_penalty: 'Converse has no repetition penalties',
  presence_penalty: 'Converse has no repetition penalties',
  response_format: 'Converse has no response format (ask for JSON in the prompt, or use a tool)',
  functions: 'legacy functions are not translated; use tools',
  function_call: 'legacy function_call is not translated; use tool_choice',
};

export interface ConvertedConverseRequest {
  request: ConverseRequest;
  /** Accepted parameters Converse cannot honour exactly, for the log. */
  warnings: Adjustment[];
}

/**
 * An OpenAI chat completion request → a Converse body
 * (https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_Converse.html). Every
 * field is converted, accepted as bookkeeping, or a 400 naming it — never silently dropped:
 * max_completion_tokens | max_tokens → inferenceConfig.maxTokens, temperature, top_p → topP,
 * stop → stopSequences; top_k and reasoning_effort → additionalModelRequestFields where the
 * model's family documents them (converse-model-fields.ts). The model id is not in the body
 * (it is in the URL).
 */
export function convertToConverseRequest(request: ChatCompletionRequest, upstreamModel: string): ConvertedConverseRequest {
  rejectInexpressible(request);
  const warnings: Adjustment[] = [];
  const prompt = convertToConverseMessages(request.messages, warnings);
  const body: ConverseRequest = { messages: prompt.messages };
  if (prompt.system.length > 0) body.system = prompt.system;
  const inferenceConfig = inferenceConfigOf(request);
  if (Object.keys(inferenceConfig).length > 0) body.inferenceConfig = inferenceConfig;
  Object.assign(
    body,
    convertToConverseTools(
      { tools: request.tools, toolChoice: request.tool_choice, parallelToolCalls: request.parallel_tool_calls, hasToolBlocks: prompt.hasToolBlocks },
      warnings,
    ),
  );
  const family = converseFamilyOf(upstreamModel);
  const topK = topKOf(request['top_k']);
  const additional = {
    ...(topK !== undefined ? topKFields(topK, family) : {}),
    ...(request.reasoning_effort != null ? reasoningFields(request.reasoning_effort, family, warnings) : {}),
  };
  if (Object.keys(additional).length > 0) body.additionalModelRequestFields = additional;
  return { request: body, warnings };
}

function rejectInexpressible(request: ChatCompletionRequest): void {
  for (const [field, value] of Object.entries(request)) {
    if (value === null || value === undefined || CONVERTED.has(field) || BOOKKEEPING.has(field)) continue;
    if (HARMLESS[field]?.(value)) continue;
    const why = WHY_NOT[field] ?? 'Converse has no such parameter';
    throw invalidRequest(`'${field}' cannot be sent to a Bedrock Converse channel: ${why}.`, field, 'unsupported_parameter');
  }
}

function inferenceConfigOf(request: ChatCompletionRequest): ConverseInferenceConfig {
  const config: ConverseInferenceConfig = {};
  const { max_tokens: legacy, max_completion_tokens: current } = request;
  if (legacy != null && current != null && legacy !== current) {
    throw invalidRequest('max_tokens and max_completion_tokens disagree; send one of them.', 'max_tokens');
  }
  const maxTokens = current ?? legacy;
  if (maxTokens != null) config.maxTokens = maxTokens;
  if (request.temperature != null) config.temperature = request.temperature;
  if (request.top_p != null) config.topP = request.top_p;
  const stop = typeof request.stop === 'string' ? [request.stop] : request.stop;
  if (stop && stop.length > 0) config.stopSequences = stop;
  return config;
}

/** `top_k` is no OpenAI field, so the contract does not type it: checked here. */
function topKOf(value: unknown): number | undefined {
  if (value === null || value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) {
    throw invalidRequest('top_k must be a non-negative integer.', 'top_k', 'invalid_type');
  }
  return value;
}
