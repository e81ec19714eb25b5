import type { ReportedUsage } from '../hub/provider-adapter';
import type { GeminiUsageMetadata } from './gemini-api';

export interface OpenAiUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  prompt_tokens_details: { cached_tokens: number };
  completion_tokens_details: { reasoning_tokens: number };
}

/**
 * Gemini counts thinking apart (`thoughtsTokenCount`) and bills it as output, as OpenAI bills
 * reasoning tokens inside `completion_tokens`: so completion = candidates + thoughts, with the
 * thoughts shown again as `reasoning_tokens`. Cached prompt tokens are part of the prompt count.
 */
export function convertGeminiUsage(metadata: GeminiUsageMetadata): { usage: OpenAiUsage; reported: ReportedUsage } {
  const promptTokens = metadata.promptTokenCount ?? 0;
  const reasoningTokens = metadata.thoughtsTokenCount ?? 0;
  const completionTokens = (metadata.candidatesTokenCount ?? 0) + reasoningTokens;
  const cachedTokens = metadata.cachedContentTokenCount ?? 0;
  return {
    usage: {
      prompt_tokens: promptTokens,
      completion_tokens: completionTokens,
      total_tokens: promptTokens + completionTokens,
      prompt_tokens_details: { cached_tokens: cachedTokens },
      completion_tokens_details: { reasoning_tokens: reasoningTokens },
    },
    // Gemini bills no cache write per request (explicit caches are billed by the hour).
    reported: { promptTokens, completionTokens, ...(cachedTokens > 0 ? { cacheReadTokens: cachedTokens } : {}) },
  };
}
