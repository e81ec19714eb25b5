import type { ReportedUsage } from '../../hub/upstream-adapter';
import type { GeminiUsageMetadata } from '../gemini-api';

export interface OpenAiUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  prompt_tokens_details: { cached_tokens: number };
  completion_tokens_details: { reasoning_tokens: number };
}

/** `candidatesTokensDetails` entries of the AUDIO modality: a spoken answer's tokens, priced apart. */
function audioTokensOf(metadata: GeminiUsageMetadata): number {
  const details: unknown = metadata['candidatesTokensDetails'];
  if (!Array.isArray(details)) return 0;
  return details.reduce<number>((sum, detail: unknown) => {
    if (typeof detail !== 'object' || detail === null) return sum;
    const { modality, tokenCount } = detail as { modality?: unknown; tokenCount?: unknown };
    return modality === 'AUDIO' && typeof tokenCount === 'number' && tokenCount > 0 ? sum + tokenCount : sum;
  }, 0);
}

/**
 * Gemini counts thinking apart (`thoughtsTokenCount`) and bills it as output, as OpenAI bills
 * reasoning tokens inside `completion_tokens`: so completion = candidates + thoughts, with the
 * thoughts shown again as `reasoning_tokens`. Cached prompt tokens are part of the prompt count;
 * the relay accounts `toolUsePromptTokenCount` (what Google's tools read) as prompt as well, and
 * the AUDIO part of the candidates apart.
 */
export function convertGeminiUsage(metadata: GeminiUsageMetadata): { usage: OpenAiUsage; reported: ReportedUsage } {
  const promptTokens = metadata.promptTokenCount ?? 0;
  // What Google's own tools read (search results, fetched pages) is billed as input too.
  const toolUseTokens = metadata.toolUsePromptTokenCount ?? 0;
  const audioTokens = audioTokensOf(metadata);
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
    reported: {
      promptTokens: promptTokens + toolUseTokens,
      completionTokens,
      ...(cachedTokens > 0 ? { cacheReadTokens: cachedTokens } : {}),
      ...(audioTokens > 0 ? { audioOutputTokens: Math.min(audioTokens, completionTokens) } : {}),
    },
  };
}
