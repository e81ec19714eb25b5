import type { ChatCompletionRequest } from '@chat-relay/contract';
import { microUsdToUsd } from '@chat-relay/contract';
import { RelayError } from '@chat-relay/wire';
import type { QuotaStore, TokenRecord } from '../storage/types';
import { costBound, type PassthroughBound, type PriceBook } from '../billing/price-book';
import { completionTokenBound, promptTokenBound } from './reservation-bound';

export interface ReserveDeps {
  quota: QuotaStore;
  prices: PriceBook;
  /** Completion tokens reserved for a request without a limit of its own (RELAY_QUOTA_DEFAULT_COMPLETION_TOKENS). */
  defaultCompletionTokens?: number;
}

/** What is reserved for one request, and what it was worked out from. */
export interface ReservationRequest {
  requestId: string;
  request: ChatCompletionRequest;
  /** UTF-8 bytes of the request's JSON as sent upstream (see `promptTokenBound`); asked only when a limit applies. */
  bodyBytes: () => number;
  /** A premium tier and hosted tools the request carries through to a channel (issue 26). */
  passthrough?: PassthroughBound;
}

const insufficientQuota = (message: string) =>
  new RelayError({ status: 429, type: 'insufficient_quota', code: 'insufficient_quota', message });

/**
 * Takes an upper bound of the request's cost from the token's and its account's quota before
 * the upstream call (SPEC §8): the prompt bound of `promptTokenBound` at the dearest prompt price
 * (input, cache read or cache write), the request's own completion limit, a premium tier's multiple
 * and one call of each hosted tool it passes through. Admitted only when all
 * of it fits in both; the usage row settles it against the real cost. Returns the micro-USD reserved.
 */
export async function reserveQuota(deps: ReserveDeps, token: TokenRecord, { requestId, request, bodyBytes, passthrough }: ReservationRequest): Promise<number> {
  // Nothing to guard when neither the token nor its account has a limit: the cost is still
  // added to both when the usage row is written, without a write on the hot path.
  if (token.quotaLimit === null && token.account?.quotaLimit === null) return 0;
  const price = await deps.prices.priceOf(request.model);
  const amount = costBound(price, promptTokenBound(request, bodyBytes()), completionTokenBound(request, deps.defaultCompletionTokens), undefined, passthrough);
  return reserveAmount(deps, token, requestId, amount, 'lower max_tokens (or max_completion_tokens, n) or shorten the prompt');
}

/**
 * Takes `amount` (micro-USD, an upper bound of the request's cost) from the token's and its
 * account's quota, or refuses with 429 insufficient_quota saying what would need less
 * (`lower`). Returns the amount reserved.
 */
export async function reserveAmount(deps: ReserveDeps, token: TokenRecord, requestId: string, amount: number, lower: string): Promise<number> {
  if (token.quotaLimit === null && token.account?.quotaLimit === null) return 0;
  const outcome = await deps.quota.reserve({ requestId, tokenId: token.id, accountId: token.accountId, amount });
  if (outcome.ok) return amount;
  const owner = outcome.exhausted === 'token' ? 'this API key' : 'the account of this API key';
  const limit = outcome.exhausted === 'token' ? token.quotaLimit : token.account?.quotaLimit;
  const reserves = `This request reserves ${microUsdToUsd(amount)} USD until it is settled at its real cost`;
  throw insufficientQuota(
    limit !== null && limit !== undefined && amount > limit
      ? `${reserves}, more than the whole quota of ${owner} (${microUsdToUsd(limit)} USD), so it can never be admitted: ${lower}.`
      : `Not enough quota left on ${owner} for this request. ${reserves}; ${lower} to need less.`,
  );
}
