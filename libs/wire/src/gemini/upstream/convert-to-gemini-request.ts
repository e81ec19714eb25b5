import type { ChatCompletionRequest } from '@chat-relay/contract';
import { EFFORT_BUDGETS, nearestEffort } from '../../adjust/reasoning-effort-budgets';
import type { ModelFacts } from '../../models/model-catalogue';
import { invalidRequest } from '../../errors/relay-error';
import { convertToGeminiContents } from './convert-to-gemini-contents';
import { convertToGeminiTools } from './convert-to-gemini-tools';
import type { GeminiGenerationConfig, GeminiThinkingConfig, GenerateContentRequest } from '../gemini-api';
import { sanitizeGeminiSchema } from './sanitize-gemini-schema';

/** Read by the conversion below (or, for `model` and `stream`, by the adapter's URL). */
const CONVERTED = new Set([
  'model',
  'messages',
  'tools',
  'tool_choice',
  'parallel_tool_calls',
  'stream',
  'response_format',
  'temperature',
  'top_p',
  'frequency_penalty',
  'presence_penalty',
  'n',
  'seed',
  'stop',
  'max_tokens',
  'max_completion_tokens',
  'top_k',
  'reasoning_effort',
]);

/** OpenAI bookkeeping that does not change the answer: accepted, not sent (stream_options is the relay's). */
const BOOKKEEPING = new Set(['user', 'store', 'metadata', 'stream_options', 'safety_identifier', 'prompt_cache_key']);

/** Values of otherwise inexpressible fields that ask for nothing, so are accepted. */
const HARMLESS: Readonly<Record<string, (value: unknown) => boolean>> = {
  logit_bias: (value) => typeof value === 'object' && value !== null && Object.keys(value).length === 0,
  logprobs: (value) => value === false,
  top_logprobs: (value) => value === 0,
  service_tier: (value) => value === 'auto' || value === 'default',
  modalities: (value) => Array.isArray(value) && value.length === 1 && value[0] === 'text',
};

const WHY_NOT: Readonly<Record<string, string>> = {
  logit_bias: 'Gemini has no token biasing',
  logprobs: 'Gemini channels do not return log probabilities',
  top_logprobs: 'Gemini channels do not return log probabilities',
  functions: 'legacy functions are not translated; use tools',
  function_call: 'legacy function_call is not translated; use tool_choice',
};

/**
 * An OpenAI chat completion request → a Gemini `generateContent` body. Every field is either
 * converted, accepted as bookkeeping, or a 400 naming it — never silently dropped or clamped:
 *   max_completion_tokens | max_tokens → maxOutputTokens, stop → stopSequences, temperature,
 *   top_p → topP, n → candidateCount, seed, presence_penalty → presencePenalty,
 *   frequency_penalty → frequencyPenalty, response_format json_object → responseMimeType
 *   application/json, json_schema → the same plus a sanitised responseSchema (its name and
 *   `strict` have no counterpart), top_k (an extension vLLM-style servers share) → topK,
 *   reasoning_effort → thinkingConfig (see GEMINI_THINKING_BUDGETS).
 * Values out of Gemini's range (e.g. n > 8) are sent as asked; Gemini's 400 then names them.
 */
export function convertToGeminiRequest(request: ChatCompletionRequest, model?: GeminiThinkingFacts): GenerateContentRequest {
  rejectInexpressible(request);
  const body: GenerateContentRequest = { ...convertToGeminiContents(request.messages), ...convertToGeminiTools(request) };
  const generationConfig = convertGenerationConfig(request, model);
  if (Object.keys(generationConfig).length > 0) body.generationConfig = generationConfig;
  return body;
}

function rejectInexpressible(request: ChatCompletionRequest): void {
  for (const [field, value] of Object.entries(request)) {
    if (value === null || value === undefined || CONVERTED.has(field) || BOOKKEEPING.has(field)) continue;
    if (HARMLESS[field]?.(value)) continue;
    const why = WHY_NOT[field] ?? 'it has no Gemini counterpart';
    throw invalidRequest(`'${field}' cannot be sent to a Gemini channel: ${why}.`, field, 'unsupported_parameter');
  }
}

/** What of the catalogue's facts the thinking mapping reads. */
export type GeminiThinkingFacts = Pick<ModelFacts, 'reasoningOptions'>;

function convertGenerationConfig(request: ChatCompletionRequest, model: GeminiThinkingFacts | undefined): GeminiGenerationConfig {
  const config: GeminiGenerationConfig = {};
  const maxOutputTokens = maxOutputTokensOf(request);
  if (maxOutputTokens !== undefined) config.maxOutputTokens = maxOutputTokens;
  const stop = typeof request.stop === 'string' ? [request.stop] : request.stop;
  if (stop && stop.length > 0) config.stopSequences = stop;
  if (request.temperature != null) config.temperature = request.temperature;
  if (request.top_p != null) config.topP = request.top_p;
  if (request.n != null) config.candidateCount = request.n;
  if (request.seed != null) config.seed = request.seed;
  if (request.presence_penalty != null) config.presencePenalty = request.presence_penalty;
  if (request.frequency_penalty != null) config.frequencyPenalty = request.frequency_penalty;
  const topK = topKOf(request['top_k']);
  if (topK !== undefined) config.topK = topK;
  const thinkingConfig = thinkingConfigOf(request.reasoning_effort, model);
  if (thinkingConfig) config.thinkingConfig = thinkingConfig;

  const format = request.response_format;
  if (format?.type === 'json_object') config.responseMimeType = 'application/json';
  if (format?.type === 'json_schema') {
    config.responseMimeType = 'application/json';
    const schema = format.json_schema.schema;
    const sanitized = schema && sanitizeGeminiSchema(schema, 'response_format.json_schema.schema', 'response');
    if (sanitized) config.responseSchema = sanitized;
  }
  return config;
}

function maxOutputTokensOf(request: ChatCompletionRequest): number | undefined {
  const { max_tokens: maxTokens, max_completion_tokens: maxCompletionTokens } = request;
  if (maxTokens != null && maxCompletionTokens != null && maxTokens !== maxCompletionTokens) {
    throw invalidRequest(
      'max_tokens and max_completion_tokens disagree; set one of them.',
      'max_tokens',
      'unsupported_parameter',
    );
  }
  return maxCompletionTokens ?? maxTokens ?? undefined;
}

/**
 * `reasoning_effort` → Gemini's thinking budget in tokens: the relay's one table of budgets
 * (adjust/reasoning-effort-budgets.ts, shared with Anthropic); `minimal` and `none` turn thinking
 * off. Gemini 2.5 takes budgets; Gemini 3 still reads them, but takes its own levels best.
 */
export const GEMINI_THINKING_BUDGETS: Readonly<Record<string, number>> = {
  none: 0,
  minimal: 0,
  low: EFFORT_BUDGETS.low,
  medium: EFFORT_BUDGETS.medium,
  high: EFFORT_BUDGETS.high,
};

/**
 * The thinking config, with the thoughts asked for whenever the model thinks (they come back as
 * reasoning, see convertGeminiResponse). From the catalogue: a model that lists efforts (Gemini
 * 3) gets `thinkingLevel`, the nearest it lists (it cannot stop thinking: `none` is its lowest);
 * one with a budget range (Gemini 2.5) the table's budget kept within its range (2.5 Pro cannot
 * go below 128); unknown models the table's budget.
 */
function thinkingConfigOf(effort: string | null | undefined, model: GeminiThinkingFacts | undefined): GeminiThinkingConfig | undefined {
  if (effort === null || effort === undefined) return undefined;
  const options = model?.reasoningOptions ?? [];
  const levels = options.find((option) => option.type === 'effort');
  if (levels?.type === 'effort' && levels.values.length > 0) {
    const thinkingLevel = nearestEffort(effort, levels.values);
    if (thinkingLevel !== undefined) return { thinkingLevel, includeThoughts: true };
  }
  let thinkingBudget = GEMINI_THINKING_BUDGETS[effort];
  if (thinkingBudget === undefined) {
    throw invalidRequest(
      `reasoning_effort '${effort}' cannot be sent to a Gemini channel; use ${Object.keys(GEMINI_THINKING_BUDGETS).join(', ')}.`,
      'reasoning_effort',
      'unsupported_value',
    );
  }
  const range = options.find((option) => option.type === 'budget_tokens');
  if (range?.type === 'budget_tokens') {
    if (range.min !== undefined) thinkingBudget = Math.max(thinkingBudget, range.min);
    if (range.max !== undefined) thinkingBudget = Math.min(thinkingBudget, range.max);
  }
  return { thinkingBudget, includeThoughts: thinkingBudget > 0 };
}

/** `top_k` is no OpenAI field, so the contract does not type it: checked here. */
function topKOf(value: unknown): number | undefined {
  if (value === null || value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) {
    throw invalidRequest('top_k must be a non-negative integer.', 'top_k', 'invalid_type');
  }
  return value;
}
