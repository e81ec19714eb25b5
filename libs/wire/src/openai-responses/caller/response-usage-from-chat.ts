import type { ResponseUsage } from '@chat-relay/contract';
import { isJsonObject, isNumber, type JsonObject } from '../../json/json-checks';

const count = (value: unknown): number => (isNumber(value) && value > 0 ? Math.floor(value) : 0);

/**
 * The hub's `usage` (a completion's, or a stream's usage chunk) → a Response's. Both count the
 * whole prompt as input, cache reads in `cached_tokens`, and reasoning within the output, so
 * the counts carry over as they are; cache writes (`cache_write_tokens`, which the Responses
 * schema requires) are 0 unless the upstream reported them. Absent counts read as 0.
 */
export function responseUsageFromChat(usage: JsonObject): ResponseUsage {
  const prompt = isJsonObject(usage['prompt_tokens_details']) ? usage['prompt_tokens_details'] : {};
  const completion = isJsonObject(usage['completion_tokens_details']) ? usage['completion_tokens_details'] : {};
  const inputTokens = count(usage['prompt_tokens']);
  const outputTokens = count(usage['completion_tokens']);
  return {
    input_tokens: inputTokens,
    input_tokens_details: { cached_tokens: count(prompt['cached_tokens']), cache_write_tokens: count(prompt['cache_write_tokens']) },
    output_tokens: outputTokens,
    output_tokens_details: { reasoning_tokens: count(completion['reasoning_tokens']) },
    total_tokens: isNumber(usage['total_tokens']) ? count(usage['total_tokens']) : inputTokens + outputTokens,
  };
}
