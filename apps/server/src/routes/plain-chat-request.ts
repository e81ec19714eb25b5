import { MAX_CHOICES, MAX_OUTPUT_TOKENS, type ChatCompletionRequest } from '@chat-relay/contract';
import { isBoolean, isJsonObject, isNullable, isString } from '@chat-relay/wire';

/**
 * A hand check that vouches for the common chat request — text messages and simply typed
 * parameters — without zod building a copy of it. It answers true only where the contract's
 * `ChatCompletionRequestSchema` would accept the body and return it unchanged (every object in
 * it is `passthrough`, and these fields have no defaults or transforms); anything it does not
 * know — tools, content parts, response formats, stop lists — it leaves to zod, which also
 * writes every error. `plain-chat-request.spec.ts` holds it to that against zod itself.
 */
const between = (min: number, max: number) => (value: unknown) => typeof value === 'number' && value >= min && value <= max;
const integerBetween = (min: number, max: number) => (value: unknown) => Number.isInteger(value) && (value as number) >= min && (value as number) <= max;
/** max_tokens and max_completion_tokens: they multiply the quota reserved, so they are bounded. */
const outputTokenLimit = integerBetween(1, MAX_OUTPUT_TOKENS);

/** The contract's top-level fields this check knows, each with the rule the schema applies. */
const FIELD_CHECKS: ReadonlyMap<string, (value: unknown) => boolean> = new Map(
  Object.entries({
    model: (value) => typeof value === 'string' && value.length >= 1,
    messages: (value) => Array.isArray(value) && value.length >= 1 && value.every(isPlainMessage),
    stream: (value) => isNullable(value, isBoolean),
    stream_options: (value) => isNullable(value, isPlainStreamOptions),
    parallel_tool_calls: isBoolean,
    temperature: (value) => isNullable(value, between(0, 2)),
    top_p: (value) => isNullable(value, between(0, 1)),
    frequency_penalty: (value) => isNullable(value, between(-2, 2)),
    presence_penalty: (value) => isNullable(value, between(-2, 2)),
    n: (value) => isNullable(value, integerBetween(1, MAX_CHOICES)),
    seed: (value) => isNullable(value, Number.isInteger),
    max_tokens: (value) => isNullable(value, outputTokenLimit),
    max_completion_tokens: (value) => isNullable(value, outputTokenLimit),
    logprobs: (value) => isNullable(value, isBoolean),
    top_logprobs: (value) => isNullable(value, integerBetween(0, 20)),
    user: isString,
    store: (value) => isNullable(value, isBoolean),
    reasoning_effort: (value) => isNullable(value, isString),
    service_tier: (value) => isNullable(value, isString),
  }),
);

/** Fields of the contract this check does not judge: their presence sends the body to zod. */
const LEFT_TO_ZOD = new Set(['models', 'fallbacks', 'tools', 'tool_choice', 'functions', 'function_call', 'response_format', 'stop', 'logit_bias', 'metadata']);

function isPlainStreamOptions(value: unknown): boolean {
  if (!isJsonObject(value)) return false;
  const { include_usage: includeUsage, include_obfuscation: includeObfuscation } = value;
  return (includeUsage === undefined || isBoolean(includeUsage)) && (includeObfuscation === undefined || isBoolean(includeObfuscation));
}

/** Message fields the schema types, per role; other fields pass through untouched. */
const MESSAGE_FIELDS: Readonly<Record<string, ReadonlySet<string>>> = {
  system: new Set(['role', 'content', 'name']),
  developer: new Set(['role', 'content', 'name']),
  user: new Set(['role', 'content', 'name']),
  assistant: new Set(['role', 'content', 'refusal', 'name', 'tool_calls', 'function_call']),
  tool: new Set(['role', 'content', 'tool_call_id']),
};

/** A message with text content and nothing else the schema would have to look into. */
function isPlainMessage(message: unknown): boolean {
  if (!isJsonObject(message)) return false;
  const role = message['role'];
  if (typeof role !== 'string' || !Object.hasOwn(MESSAGE_FIELDS, role)) return false;
  if (typeof message['content'] !== 'string') return false;
  const typed = MESSAGE_FIELDS[role] as ReadonlySet<string>;
  for (const key of Object.keys(message)) {
    if (key === '__proto__') return false;
    if (!typed.has(key)) continue;
    const value = message[key];
    if (key === 'name' && typeof value !== 'string') return false;
    if (key === 'tool_call_id' && !(typeof value === 'string' && value.length >= 1)) return false;
    if (key === 'refusal' || key === 'tool_calls' || key === 'function_call') return false;
  }
  return role !== 'tool' || typeof message['tool_call_id'] === 'string';
}

export function isPlainChatRequest(value: unknown): value is ChatCompletionRequest {
  if (!isJsonObject(value) || !Object.hasOwn(value, 'model') || !Object.hasOwn(value, 'messages')) return false;
  for (const key of Object.keys(value)) {
    if (LEFT_TO_ZOD.has(key)) return false;
    // zod would assign it, and so set the copy's prototype: not the same object any more.
    if (key === '__proto__') return false;
    const check = FIELD_CHECKS.get(key);
    // Not a field of the contract: kept and forwarded as it is (passthrough).
    if (check && !check(value[key])) return false;
  }
  return true;
}
