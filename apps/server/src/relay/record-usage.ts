import type { ChatCompletionRequest } from '@chat-relay/contract';
import type { ReportedUsage } from '@chat-relay/wire';
import type { Logger } from '../logger';
import { countCompletionTokens, countPromptTokens, estimateTokensFromChars, roughPromptTokens } from './estimate-usage';
import type { RelayTrace } from './request-context';

/**
 * Usage as the upstream reported it, or counted with a tokenizer and marked estimated. Never
 * rejects: a stream's row waits on it, and the answer has already gone to the caller.
 */
export async function recordUsage(
  logger: Logger,
  trace: RelayTrace,
  request: ChatCompletionRequest,
  usage: ReportedUsage | undefined,
  deliveredText: () => string,
): Promise<void> {
  if (usage) {
    trace.promptTokens = usage.promptTokens;
    trace.completionTokens = usage.completionTokens;
    trace.cacheReadTokens = usage.cacheReadTokens ?? 0;
    trace.cacheWriteTokens = usage.cacheWriteTokens ?? 0;
    trace.audioOutputTokens = usage.audioOutputTokens ?? 0;
    if (!usage.completionUnknown) return;
  }
  // Counted here what the upstream did not count: the whole answer, or what a cut stream delivered.
  trace.usageEstimated = true;
  let text = '';
  try {
    text = deliveredText();
    if (!usage) trace.promptTokens = await countPromptTokens(request);
    trace.completionTokens = await countCompletionTokens(text);
  } catch (error) {
    // Charge what the lengths say rather than nothing, and keep the process up.
    logger.error({ requestId: trace.requestId, err: error }, 'usage estimation failed; charging an estimate from lengths');
    trace.promptTokens ||= roughPromptTokens(request);
    trace.completionTokens ||= estimateTokensFromChars(text.length);
  }
}
