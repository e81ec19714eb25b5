import type { ChatCompletionRequest } from '@chat-relay/contract';
import { RelayError } from '../errors/relay-error';
import type { QuotaStore, TokenRecord } from '../storage/types';
import { estimateTokensFromChars } from './estimate-usage';
import { costOf, type PriceBook } from './price-book';

/** Completion tokens reserved when the request sets no limit of its own. */
export const DEFAULT_COMPLETION_RESERVATION = 1024;

export interface ReserveDeps {
  quota: QuotaStore;
  prices: PriceBook;
}

const insufficientQuota = (message: string) =>
  new RelayError({ status: 429, type: 'insufficient_quota', code: 'insufficient_quota', message });

/**
 * Takes an upper estimate of the request's cost from the token's and its account's quota before
 * the upstream call (SPEC §8); the usage log settles it against the real cost. The estimate is
 * cheap on purpose: the body's size for the prompt, the request's own limit for the completion.
 */
export async function reserveQuota(
  deps: ReserveDeps,
  token: TokenRecord,
  request: ChatCompletionRequest,
  bodyBytes: number,
): Promise<number> {
  // Nothing to guard when neither the token nor its account has a limit: the cost is still
  // added to both when the usage row is written, without a write on the hot path.
  if (token.quotaLimit === null && token.account?.quotaLimit === null) return 0;
  const price = await deps.prices.priceOf(request.model);
  const completionLimit = request.max_completion_tokens ?? request.max_tokens ?? DEFAULT_COMPLETION_RESERVATION;
  const amount = costOf(price, estimateTokensFromChars(bodyBytes), completionLimit);
  const outcome = await deps.quota.reserve({ tokenId: token.id, accountId: token.accountId, amount });
  if (outcome.ok) return amount;
  throw insufficientQuota(
    outcome.exhausted === 'token'
      ? 'This API key has no quota left.'
      : 'The account of this API key has no quota left.',
  );
}
