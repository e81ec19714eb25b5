import {
  DEFAULT_FALLBACK_TRIGGERS,
  MAX_FALLBACK_HOPS,
  type ChatCompletionRequest,
  type FallbackTrigger,
} from '@chat-relay/contract';
import { invalidRequest, type RelayError } from '@chat-relay/wire';
import { matchesModelPattern } from '../core/model-pattern';

/**
 * Fallback across models (issue 32): the models a request may be served by, in order, and the
 * failure classes that move it on to the next one. A hop starts only when a model has no channel
 * left (routeWithRetries threw) — before the first byte reached the caller, streams included.
 */
export interface FallbackChain {
  /** The requested model first, then its fallbacks; at most MAX_FALLBACK_HOPS, no repeats. */
  models: readonly string[];
  triggers: ReadonlySet<FallbackTrigger>;
  /** Where the chain came from: the caller's own list (every entry must exist) or an admin rule (a missing entry is skipped). */
  source: 'request' | 'rule';
}

/** An admin rule as the chain needs it (storage's FallbackRuleRecord). */
export interface ChainRule {
  id: number;
  /** A model name or glob (core/model-pattern.ts). */
  model: string;
  fallbacks: readonly string[];
  triggers: readonly FallbackTrigger[];
  enabled: boolean;
}

/** The rules in force, as the in-memory cache holds them (fallback-rules.ts). */
export interface FallbackRuleSource {
  /** The first enabled rule whose pattern matches `model`, in id order; undefined (most requests) when none. */
  ruleFor(model: string): ChainRule | undefined;
}

/**
 * A caller listing models wants a bigger one to take over when the prompt does not fit: a
 * request's own list falls back on the default classes and on context_length.
 */
export const REQUEST_CHAIN_TRIGGERS: readonly FallbackTrigger[] = [...DEFAULT_FALLBACK_TRIGGERS, 'context_length'];

/** The chain fields a request may carry (OpenRouter's `models`, LiteLLM's `fallbacks`). */
export interface ChainFields {
  model: string;
  models?: readonly string[];
  fallbacks?: readonly string[];
}

/** `models` / `fallbacks` as the caller's request (hub or native body) carries them, checked as zod would not: a list of names. */
export function chainFieldsOf(body: Readonly<Record<string, unknown>> | undefined): { models?: readonly string[]; fallbacks?: readonly string[] } {
  if (!body) return {};
  const models = body['models'];
  const fallbacks = body['fallbacks'];
  return { models: stringList(models, 'models'), fallbacks: stringList(fallbacks, 'fallbacks') };
}

function stringList(value: unknown, field: string): readonly string[] | undefined {
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value) || value.length === 0 || !value.every((entry) => typeof entry === 'string' && entry.length > 0)) {
    throw invalidRequest(`'${field}' must be a non-empty list of model names.`, field, 'invalid_value');
  }
  return value as string[];
}

/**
 * The chain of a request: its own (`models`, else `model` + `fallbacks`), else the first enabled
 * admin rule matching the requested model, else none (the hot path's usual answer, one map
 * lookup). A rule naming only its own model is none. Repeats are dropped; more than MAX_FALLBACK_HOPS is refused.
 */
export function buildChain(fields: ChainFields, rules: FallbackRuleSource | undefined): FallbackChain | undefined {
  const { model, models, fallbacks } = fields;
  if (models !== undefined && fallbacks !== undefined) {
    throw invalidRequest("Send either 'models' (the whole chain) or 'fallbacks' (tried after 'model'), not both.", 'fallbacks', 'invalid_value');
  }
  if (models !== undefined || fallbacks !== undefined) {
    if (models !== undefined && models[0] !== model) {
      throw invalidRequest(`'model' (${model}) must be the first entry of 'models' when both are sent.`, 'models', 'invalid_value');
    }
    const listed = models ?? [model, ...(fallbacks ?? [])];
    if (listed.length > MAX_FALLBACK_HOPS) {
      throw invalidRequest(`A chain has at most ${MAX_FALLBACK_HOPS} models; this one has ${listed.length}.`, models ? 'models' : 'fallbacks', 'invalid_value');
    }
    // A list of one is a chain too: its fields are stripped and the caller's bytes not forwarded.
    return { models: [...new Set(listed)], triggers: new Set(REQUEST_CHAIN_TRIGGERS), source: 'request' };
  }
  const rule = rules?.ruleFor(model);
  if (!rule) return undefined;
  const unique = [...new Set([model, ...rule.fallbacks])].slice(0, MAX_FALLBACK_HOPS);
  return unique.length > 1 ? { models: unique, triggers: new Set(rule.triggers), source: 'rule' } : undefined;
}

/** The first enabled rule (in id order) whose pattern covers `model`: what the cache answers. */
export function firstMatchingRule(rules: readonly ChainRule[], model: string): ChainRule | undefined {
  return rules.find((rule) => rule.enabled && matchesModelPattern(rule.model, model));
}

/** The request without its chain fields: they are the relay's, never forwarded upstream. */
export function withoutChainFields<T extends Readonly<Record<string, unknown>>>(body: T): T {
  if (!('models' in body) && !('fallbacks' in body)) return body;
  const { models: _models, fallbacks: _fallbacks, ...rest } = body as Record<string, unknown>;
  return rest as T;
}

/** The hub request for one hop: its model, and no chain fields. */
export function hopRequest(request: ChatCompletionRequest, model: string): ChatCompletionRequest {
  return { ...withoutChainFields(request), model };
}

const RATE_LIMIT_CODES = new Set(['rate_limit_exceeded', 'rate_limit_error', 'RESOURCE_EXHAUSTED', 'upstream_429', 'too_many_requests']);
const OVERLOAD_CODES = new Set(['overloaded_error', 'overloaded', 'UNAVAILABLE', 'INTERNAL', 'server_error', 'api_error']);
const TIMEOUT_CODES = new Set(['upstream_timeout', 'upstream_408', 'DEADLINE_EXCEEDED', 'timeout']);
const CONTENT_FILTER_CODES = new Set(['content_filter', 'content_filtered', 'content_policy_violation', 'SAFETY', 'PROHIBITED_CONTENT', 'BLOCKLIST']);
/**
 * The providers' own words for a prompt longer than the model's window, where no code says it:
 * OpenAI "maximum context length is … tokens", Anthropic "prompt is too long: N tokens > M maximum",
 * Gemini "The input token count (N) exceeds the maximum number of tokens allowed (M)".
 */
const CONTEXT_LENGTH_WORDS = /maximum context length|context[_ ]length|context window|prompt is too long|input token count .*exceeds/i;

/**
 * The class of a model's last failure, or undefined when it is the request's own fault (a 400
 * about a parameter): only a class among the chain's triggers moves on to the next model.
 */
export function classifyFailure(error: RelayError): FallbackTrigger | undefined {
  const code = error.code ?? '';
  if (code === 'context_length_exceeded' || ((error.status === 400 || error.status === 413) && CONTEXT_LENGTH_WORDS.test(error.message))) return 'context_length';
  if (CONTENT_FILTER_CODES.has(code)) return 'content_filtered';
  if (code === 'no_available_channel' || (error.status === 404 && code === 'model_not_found')) return 'no_channel';
  if (TIMEOUT_CODES.has(code) || error.status === 504) return 'timeout';
  if (error.status === 429 || RATE_LIMIT_CODES.has(code)) return 'rate_limited';
  if (OVERLOAD_CODES.has(code) || error.status >= 500) return 'upstream_error';
  return undefined;
}

/** Whether the failure moves the request on to the next model of `chain`. */
export function fallsBack(chain: FallbackChain, error: RelayError): FallbackTrigger | undefined {
  const trigger = classifyFailure(error);
  return trigger !== undefined && chain.triggers.has(trigger) ? trigger : undefined;
}

/**
 * Whether a hop is skipped before sending: the chain falls back on context_length, and every
 * upstream model it could be sent as has a known context window smaller than the prompt.
 */
export function exceedsEveryWindow(promptTokens: number, windows: readonly (number | undefined)[]): boolean {
  return windows.length > 0 && windows.every((window) => window !== undefined && promptTokens > window);
}
