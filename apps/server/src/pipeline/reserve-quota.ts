import type { ChatCompletionRequest } from '@chat-relay/contract';
import { microUsdToUsd } from '@chat-relay/contract';
import { RelayError } from '@chat-relay/wire';
import type { QuotaStore, TokenRecord } from '../storage/types';
import { familyOfName } from '@chat-relay/wire';
import { costBound, type PassthroughBound, type PriceBook } from '../billing/price-book';
import { countPromptTokens } from '../billing/estimate-usage';
import type { ModelCatalogueService } from '../catalogue/model-catalogue-service';
import type { CandidatePrice } from './price-candidates';
import { completionTokenBound, promptTokenBound, promptTokenEstimate, type CountPrompt } from './reservation-bound';

export interface ReserveDeps {
  quota: QuotaStore;
  prices: PriceBook;
  /** The model catalogue: each upstream model's family (its tokenizer) and output limit. */
  catalogue?: Pick<ModelCatalogueService, 'facts'>;
  /** Completion tokens reserved for a request without a limit of its own (RELAY_QUOTA_DEFAULT_COMPLETION_TOKENS). */
  defaultCompletionTokens?: number;
  /** Completion tokens a reservation counts at most per choice (RELAY_QUOTA_OUTPUT_RESERVATION_TOKENS); no cap when not given. */
  outputReservationTokens?: number;
  /** Counts the prompt (the relay's tokenizer); countPromptTokens when not given. */
  countPrompt?: CountPrompt;
}

/** What is reserved for one request, and what it was worked out from. */
export interface ReservationRequest {
  requestId: string;
  request: ChatCompletionRequest;
  /** The upstream models it may be served as, with their prices (priceCandidates): it reserves at the dearest. */
  candidates: readonly CandidatePrice[];
  /** UTF-8 bytes of the request's JSON as sent upstream: the ceiling of the prompt's count (see `promptTokenBound`). */
  bodyBytes: () => number;
  /** Bytes the relay adds to the prompt on the way (a bridged web search's sources): a token at most each. */
  extraPromptBytes?: number;
  /** A premium tier, hosted tools and prompt caching the request asks for. */
  passthrough?: PassthroughBound;
}

const insufficientQuota = (message: string) =>
  new RelayError({ status: 429, type: 'insufficient_quota', code: 'insufficient_quota', message });

/**
 * Takes a realistic upper bound of the request's cost from the token's and its account's quota
 * before the upstream call (SPEC §8), at the dearest upstream model it may be served as: the
 * prompt counted by the relay's tokenizer (exact for OpenAI's o200k models, with a stated margin
 * for the others; never past the body's bytes) at the input price — the cache-write price only
 * when the request marks cache writes — and its completion bounded by the least of its own limit,
 * the model's real output limit and the reservation cap; a premium tier's multiple and one call
 * of each hosted tool it passes through. Admitted only when all of it fits in both; the usage row
 * settles it against the real cost. Returns the micro-USD reserved.
 *
 * Cheap when no limit applies (nothing counted) or nothing is priced (free).
 */
export async function reserveQuota(deps: ReserveDeps, token: TokenRecord, reservation: ReservationRequest): Promise<number> {
  // Nothing to guard when neither the token nor its account has a limit: the cost is still
  // added to both when the usage row is written, without a write on the hot path.
  if (token.quotaLimit === null && token.account?.quotaLimit === null) return 0;
  if (reservation.candidates.length === 0) return 0;
  const amount = await reservationAmount(deps, reservation);
  return reserveAmount(deps, token, reservation.requestId, amount, 'lower max_tokens (or max_completion_tokens, n) or shorten the prompt');
}

/** The micro-USD {@link reserveQuota} takes for `reservation`: its bound at the dearest of its candidates. */
export async function reservationAmount(deps: ReserveDeps, reservation: ReservationRequest): Promise<number> {
  const { request, candidates, passthrough } = reservation;
  const counted = await (deps.countPrompt ?? countPromptTokens)(request);
  const extra = reservation.extraPromptBytes ?? 0;
  const byteBound = promptTokenBound(request, reservation.bodyBytes());
  let amount = 0;
  for (const { upstreamModel, applied } of candidates) {
    const facts = deps.catalogue?.facts(upstreamModel);
    const family = facts?.family ?? familyOfName(upstreamModel);
    const promptTokens = promptTokenEstimate(counted, request, family, upstreamModel, byteBound, extra);
    const completionTokens = completionTokenBound(request, {
      defaultTokens: deps.defaultCompletionTokens,
      modelLimit: facts?.maxOutputTokens,
      cap: deps.outputReservationTokens,
    });
    amount = Math.max(amount, costBound(applied.price, promptTokens, completionTokens, undefined, passthrough));
  }
  return amount;
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
