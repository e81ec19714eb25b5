import type { Usage } from '@chat-relay/contract';
import type { ReportedUsage } from '../../hub/upstream-adapter';
import type { AnthropicUsage } from '../anthropic-api';

export interface ConvertedUsage {
  /** The caller's `usage` object. */
  usage: Usage;
  /** What the relay accounts for. */
  reported: ReportedUsage;
}

/**
 * Anthropic counts cache reads and cache writes apart from `input_tokens`; OpenAI's
 * `prompt_tokens` covers the whole prompt, with the cached part in
 * `prompt_tokens_details.cached_tokens` (and cache writes in `cache_write_tokens`). The relay
 * accounts for the whole prompt too, with both cache counts told apart to price them. Thinking
 * (`output_tokens_details.thinking_tokens`, within `output_tokens`) is `reasoning_tokens`, as
 * OpenAI counts reasoning within `completion_tokens`.
 */
export function convertAnthropicUsage(usage: AnthropicUsage): ConvertedUsage {
  const cacheRead = usage.cache_read_input_tokens ?? 0;
  const cacheWrite = usage.cache_creation_input_tokens ?? 0;
  const promptTokens = usage.input_tokens + cacheWrite + cacheRead;
  const completionTokens = usage.output_tokens;
  const thinking = thinkingTokensOf(usage['output_tokens_details']);
  return {
    usage: {
      prompt_tokens: promptTokens,
      completion_tokens: completionTokens,
      total_tokens: promptTokens + completionTokens,
      prompt_tokens_details: { cached_tokens: cacheRead, ...(cacheWrite > 0 ? { cache_write_tokens: cacheWrite } : {}) },
      ...(thinking !== undefined ? { completion_tokens_details: { reasoning_tokens: thinking } } : {}),
    },
    reported: {
      promptTokens,
      completionTokens,
      ...(cacheRead > 0 ? { cacheReadTokens: cacheRead } : {}),
      ...(cacheWrite > 0 ? { cacheWriteTokens: cacheWrite } : {}),
    },
  };
}

function thinkingTokensOf(details: unknown): number | undefined {
  if (details === null || typeof details !== 'object') return undefined;
  const tokens: unknown = (details as Record<string, unknown>)['thinking_tokens'];
  return typeof tokens === 'number' && Number.isInteger(tokens) && tokens >= 0 ? tokens : undefined;
}
