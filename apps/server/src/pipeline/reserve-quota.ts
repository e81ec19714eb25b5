import type { ChatCompletionRequest, LimitMetric, LimitPeriod } from '@chat-relay/contract';
import { microUsdToUsd } from '@chat-relay/contract';
import { RelayError } from '@chat-relay/wire';
import type { QuotaStore, TokenRecord } from '../storage/types';
import { familyOfName } from '@chat-relay/wire';
import { costBound, type PassthroughBound, type PriceBook } from '../billing/price-book';
import { countPromptTokens } from '../billing/estimate-usage';
import type { ModelCatalogueService } from '../catalogue/model-catalogue-service';
import type { CandidatePrice } from './price-candidates';
import type { LimitOwner, WindowKey } from '../storage/limit-types';
import { DEFAULT_LIMITS, hasPeriodicLimits, plannedWindows, reservesQuota, windowRefusalError, type LimitsSettings } from '../policy/periodic-limits';
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
  /** The periodic limits' default time zone and the relay's clock; UTC and the system clock when not given. */
  limits?: LimitsSettings;
  /** Told of each refusal by a periodic window (the `relay_limit_refusals_total` counter); must not throw. */
  onWindowRefusal?(owner: LimitOwner, period: LimitPeriod, metric: LimitMetric): void;
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

/** What a reservation took: micro-USD from the lifetime quotas, and whether it also counted in periodic windows. */
export interface QuotaHold {
  amount: number;
  /** The reservation carried windows: its usage row settles them even when `amount` is 0 (UsageLogEntry.windowsReserved). */
  windowsReserved: boolean;
}

/** Nothing reserved: no limit applies (the cost is still added to the quotas when the row is written). */
export const NOTHING_HELD: QuotaHold = Object.freeze({ amount: 0, windowsReserved: false });

/** An upper bound of what a request uses: micro-USD, and tokens (prompt + completion) for a window's token limit. */
export interface ReservationBound {
  amount: number;
  tokens: number;
}

/**
 * Takes a realistic upper bound of the request's cost from the token's and its account's quota
 * before the upstream call (SPEC §8), at the dearest upstream model it may be served as: the
 * prompt counted by the relay's tokenizer (exact for OpenAI's o200k models, with a stated margin
 * for the others; never past the body's bytes) at the input price — the cache-write price only
 * when the request marks cache writes — and its completion bounded by the least of its own limit,
 * the model's real output limit and the reservation cap; a premium tier's multiple and one call
 * of each hosted tool it passes through. Admitted only when all of it fits in both — and in every
 * current window of their periodic limits (issue 32), in the same round trip; the usage row
 * settles it against the real cost.
 *
 * Cheap when no limit applies (nothing counted) or nothing is priced (free).
 */
export async function reserveQuota(deps: ReserveDeps, token: TokenRecord, reservation: ReservationRequest): Promise<QuotaHold> {
  // Nothing to guard when neither the token nor its account has a limit: the cost is still
  // added to both when the usage row is written, without a write on the hot path.
  if (!reservesQuota(token)) return NOTHING_HELD;
  if (reservation.candidates.length === 0) return NOTHING_HELD;
  const bound = await reservationBound(deps, reservation);
  return reserveAmount(deps, token, reservation.requestId, bound, 'lower max_tokens (or max_completion_tokens, n) or shorten the prompt');
}

/** The micro-USD {@link reserveQuota} takes for `reservation`: its bound at the dearest of its candidates. */
export async function reservationAmount(deps: ReserveDeps, reservation: ReservationRequest): Promise<number> {
  return (await reservationBound(deps, reservation)).amount;
}

/**
 * What {@link reserveQuota} takes for `reservation`: the cost bound at the dearest of its
 * candidates, and the most tokens (prompt estimate + completion bound) any of them may use.
 */
export async function reservationBound(deps: ReserveDeps, reservation: ReservationRequest): Promise<ReservationBound> {
  const { request, candidates, passthrough } = reservation;
  const counted = await (deps.countPrompt ?? countPromptTokens)(request);
  const extra = reservation.extraPromptBytes ?? 0;
  const byteBound = promptTokenBound(request, reservation.bodyBytes());
  let amount = 0;
  let tokens = 0;
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
    tokens = Math.max(tokens, promptTokens + completionTokens);
  }
  return { amount, tokens };
}

/**
 * Takes `bound.amount` (micro-USD, an upper bound of the request's cost) from the token's and its
 * account's quota, and counts the request, its cost and `bound.tokens` in the current window of
 * each periodic limit — or refuses with 429 insufficient_quota saying what would need less
 * (`lower`) or, for a window, which one and when it resets. One reserve call either way.
 */
export async function reserveAmount(deps: ReserveDeps, token: TokenRecord, requestId: string, bound: ReservationBound, lower: string): Promise<QuotaHold> {
  if (!reservesQuota(token)) return NOTHING_HELD;
  const { amount } = bound;
  const limits = deps.limits ?? DEFAULT_LIMITS;
  const periodic = hasPeriodicLimits(token);
  const nowMs = periodic ? limits.clock() : 0;
  const planned = periodic ? plannedWindows(token, limits.defaultTimeZone, nowMs) : [];
  const windows = planned.map((window) => window.reservation);
  const outcome = await deps.quota.reserve(
    windows.length > 0 ? { requestId, tokenId: token.id, accountId: token.accountId, amount, windows, tokens: bound.tokens } : { requestId, tokenId: token.id, accountId: token.accountId, amount },
  );
  if (outcome.ok) return { amount, windowsReserved: windows.length > 0 };
  if (outcome.exhausted === 'window') {
    const refused = planned.find((window) => sameWindow(window.reservation, outcome.window)) ?? planned[0];
    const limit = outcome.window.limits[outcome.metric] ?? refused?.reservation.limits[outcome.metric];
    if (refused && limit !== null && limit !== undefined) {
      deps.onWindowRefusal?.(outcome.window.owner, outcome.window.period, outcome.metric);
      throw windowRefusalError(outcome, limit, refused.calendar, bound, nowMs, lower);
    }
    throw insufficientQuota(`A periodic limit of this API key or its account is reached.`);
  }
  const owner = outcome.exhausted === 'token' ? 'this API key' : 'the account of this API key';
  const limit = outcome.exhausted === 'token' ? token.quotaLimit : token.account?.quotaLimit;
  const reserves = `This request reserves ${microUsdToUsd(amount)} USD until it is settled at its real cost`;
  throw insufficientQuota(
    limit !== null && limit !== undefined && amount > limit
      ? `${reserves}, more than the whole quota of ${owner} (${microUsdToUsd(limit)} USD), so it can never be admitted: ${lower}.`
      : `Not enough quota left on ${owner} for this request. ${reserves}; ${lower} to need less.`,
  );
}

const sameWindow = (a: WindowKey, b: WindowKey): boolean => a.owner === b.owner && a.ownerId === b.ownerId && a.period === b.period && a.start === b.start;
