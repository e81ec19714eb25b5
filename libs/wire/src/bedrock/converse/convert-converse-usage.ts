import type { Usage } from '@chat-relay/contract';
import type { ReportedUsage } from '../../hub/upstream-adapter';
import type { ConverseUsage } from './converse-api';

/**
 * Converse counts cache reads and writes apart from `inputTokens`
 * (https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_TokenUsage.html); OpenAI's
 * `prompt_tokens` is the whole prompt, the cached part in `prompt_tokens_details.cached_tokens`
 * (writes in `cache_write_tokens`), and so is the relay's `promptTokens`.
 */
export function convertConverseUsage(usage: ConverseUsage): { usage: Usage; reported: ReportedUsage } {
  const cacheRead = usage.cacheReadInputTokens ?? 0;
  const cacheWrite = usage.cacheWriteInputTokens ?? 0;
  const promptTokens = usage.inputTokens + cacheRead + cacheWrite;
  const completionTokens = usage.outputTokens;
  return {
    usage: {
      prompt_tokens: promptTokens,
      completion_tokens: completionTokens,
      total_tokens: promptTokens + completionTokens,
      prompt_tokens_details: { cached_tokens: cacheRead, ...(cacheWrite > 0 ? { cache_write_tokens: cacheWrite } : {}) },
    },
    reported: {
      promptTokens,
      completionTokens,
      ...(cacheRead > 0 ? { cacheReadTokens: cacheRead } : {}),
      ...(cacheWrite > 0 ? { cacheWriteTokens: cacheWrite } : {}),
    },
  };
}
