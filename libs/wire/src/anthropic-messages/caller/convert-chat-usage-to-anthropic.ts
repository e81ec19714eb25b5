import { isJsonObject, isNumber } from '../../json/json-checks';

/** The four counts a Message's `usage` (and the bridged `message_delta`) carries. */
export type BridgedUsage = {
  input_tokens: number;
  output_tokens: number;
  cache_read_input_tokens: number;
  cache_creation_input_tokens: number;
};

const count = (value: unknown): number => (isNumber(value) && value > 0 ? Math.floor(value) : 0);

/**
 * The hub's `usage` → Anthropic's: Chat Completions counts the whole prompt in `prompt_tokens`
 * with the cached part in `prompt_tokens_details.cached_tokens` (and cache writes, where a
 * server reports them, in `cache_write_tokens`); Anthropic counts those apart from
 * `input_tokens`. Reasoning tokens are output on both sides. Absent counts read as 0.
 */
export function convertChatUsageToAnthropic(usage: unknown): BridgedUsage {
  if (!isJsonObject(usage)) return { input_tokens: 0, output_tokens: 0, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 };
  const details = isJsonObject(usage['prompt_tokens_details']) ? usage['prompt_tokens_details'] : {};
  const cacheRead = count(details['cached_tokens']);
  const cacheWrite = count(details['cache_write_tokens']);
  return {
    input_tokens: Math.max(0, count(usage['prompt_tokens']) - cacheRead - cacheWrite),
    output_tokens: count(usage['completion_tokens']),
    cache_read_input_tokens: cacheRead,
    cache_creation_input_tokens: cacheWrite,
  };
}
