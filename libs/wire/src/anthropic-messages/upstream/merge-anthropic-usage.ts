import type { AnthropicDeltaUsage, AnthropicUsage } from '../anthropic-api';

/**
 * A stream's usage so far: `message_start` gives the input side, each `message_delta` the
 * cumulative counts (newer API versions repeat the input side and the cache counts too).
 * Undefined while either side is still unknown (the caller keeps what it had).
 */
export function mergeAnthropicUsage(base: AnthropicUsage | undefined, delta: AnthropicDeltaUsage): AnthropicUsage | undefined {
  const input = delta.input_tokens ?? base?.input_tokens;
  const output = delta.output_tokens ?? base?.output_tokens;
  if (input === undefined || input === null || output === undefined || output === null) return undefined;
  const details = delta['output_tokens_details'] ?? base?.['output_tokens_details'];
  return {
    input_tokens: input,
    output_tokens: output,
    cache_creation_input_tokens: delta.cache_creation_input_tokens ?? base?.cache_creation_input_tokens ?? null,
    cache_read_input_tokens: delta.cache_read_input_tokens ?? base?.cache_read_input_tokens ?? null,
    ...(details !== undefined ? { output_tokens_details: details } : {}),
  };
}
