import type { ReportedUsage } from '@chat-relay/wire';
import type { Logger } from '../logger';
import { countCompletionTokens, estimateTokensFromChars } from '../billing/estimate-usage';
import type { RelayTrace } from './request-context';

/** What an answer says of its usage, and how the relay counts what it does not say. */
export interface UsageSources {
  /** The upstream's usage (an endpoint's with its units); undefined when it said none. */
  reported: ReportedUsage | undefined;
  /** The prompt counted with the relay's tokenizer, when the upstream did not count it. */
  countPrompt(): Promise<number>;
  /** The prompt's tokens from its length, when the tokenizer fails. */
  roughPrompt(): number;
  /** What was delivered (a whole answer, or what a cut stream sent): counted when the upstream did not count it. */
  deliveredText(): string;
  /** The endpoint's units when the upstream does not say them (audio seconds of the upload). */
  estimateUnits?(): Promise<number>;
}

/**
 * The one place a request's usage lands on its trace (SPEC §8): the upstream's usage, else the
 * relay's tokenizer, else an estimate from lengths — what was counted or estimated is marked so.
 * Never rejects, nor throws: a stream's row waits on it, and the answer has already gone to the caller.
 */
export function accountUsage(logger: Logger, trace: RelayTrace, sources: UsageSources): void | Promise<void> {
  const usage = sources.reported;
  if (usage) {
    trace.promptTokens = usage.promptTokens;
    trace.completionTokens = usage.completionTokens;
    if (usage.units !== undefined) return accountEndpointUnits(logger, trace, usage, usage.units, sources);
    trace.cacheReadTokens = usage.cacheReadTokens ?? 0;
    trace.cacheWriteTokens = usage.cacheWriteTokens ?? 0;
    trace.audioOutputTokens = usage.audioOutputTokens ?? 0;
    // All the upstream said (the common case): done at once, without a promise.
    if (!usage.completionUnknown) return;
  }
  return countUncounted(logger, trace, sources);
}

/** Counted here what the upstream did not count: the whole answer, or what a cut stream delivered. */
async function countUncounted(logger: Logger, trace: RelayTrace, sources: UsageSources): Promise<void> {
  const usage = sources.reported;
  trace.usageEstimated = true;
  if (!usage) trace.promptTokens = await counted(logger, trace, sources.countPrompt, sources.roughPrompt);
  let text = '';
  const countDelivered = async () => countCompletionTokens((text = sources.deliveredText()));
  trace.completionTokens = await counted(logger, trace, countDelivered, () => estimateTokensFromChars(text.length));
}

/** An endpoint's units and what its upstream left uncounted. */
async function accountEndpointUnits(logger: Logger, trace: RelayTrace, usage: ReportedUsage, units: number, sources: UsageSources): Promise<void> {
  trace.units = units;
  trace.unitVariant = usage.unitVariant ?? null;
  if (usage.estimated) trace.usageEstimated = true;
  if (usage.uncountedText !== undefined) {
    const text = usage.uncountedText;
    trace.promptTokens += await counted(logger, trace, () => countCompletionTokens(text), () => estimateTokensFromChars(text.length));
    trace.usageEstimated = true;
  }
  if (usage.unitsUnknown && sources.estimateUnits) {
    try {
      trace.units = await sources.estimateUnits();
    } catch (error) {
      logger.error({ requestId: trace.requestId, err: error }, 'could not estimate the units of an upload');
    }
    trace.usageEstimated = true;
  }
}

/** The tokenizer's count; from lengths if that fails — charging what the lengths say rather than nothing. */
async function counted(logger: Logger, trace: RelayTrace, count: () => Promise<number>, estimate: () => number): Promise<number> {
  try {
    return await count();
  } catch (error) {
    logger.error({ requestId: trace.requestId, err: error }, 'token counting failed; charging an estimate from lengths');
    return estimate();
  }
}
