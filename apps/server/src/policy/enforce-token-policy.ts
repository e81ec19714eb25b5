import { permissionError, RelayError } from '@chat-relay/wire';
import type { Caller } from '../auth/caller';
import type { TokenRecord } from '../storage/types';
import { isIpAllowed } from './ip-allow-list';
import { isModelAllowed } from './model-allow-list';
import type { PerMinuteLimits, RateLimitDecision, RateLimiter, RateLimitHeaders, RateLimitKind } from './rate-limiter';

export type PolicyToken = Pick<TokenRecord, 'id' | 'models' | 'allowedIps' | 'rateLimit'>;

export interface TokenPolicyRequest {
  token: PolicyToken;
  /** `req.ip`: the socket's address, or the forwarded one when `RELAY_TRUST_PROXY` names the proxy. */
  clientIp: string | undefined;
  /** The model name the caller sent; omitted on routes that name no model (`GET /v1/models`). */
  model?: string;
  /**
   * Holds a `concurrency` slot for the request's lifetime, and receives the function that gives
   * it back (the admission middleware calls it when the response closes).
   */
  slot?: InFlightSlot;
}

export interface InFlightSlot {
  releaseSlot: (() => void) | null;
}

/** 403 ip_not_allowed unless the token's address allow-list admits `clientIp`. */
export function assertIpAllowed(token: PolicyToken, clientIp: string | undefined): void {
  if (!isIpAllowed(token.allowedIps, clientIp)) {
    throw permissionError('ip_not_allowed', `Requests from ${clientIp ?? 'an unknown address'} are not allowed for this API key.`);
  }
}

/** 403 model_not_allowed unless the token's model allow-list admits `model`. */
export function assertModelAllowed(token: PolicyToken, model: string): void {
  if (isModelAllowed(token.models, model)) return;
  throw new RelayError({
    status: 403,
    type: 'permission_error',
    code: 'model_not_allowed',
    message: `This API key is not allowed to use the model '${model}'.`,
    param: 'model',
  });
}

/**
 * The per-token policy every request of an API token passes (SPEC §4, errors per §9), after
 * the key's status and expiry (checked by `bearer-auth`): client IP, then model, then rate
 * limits — last, so that requests refused by the allow-lists do not use up the token's rpm.
 * Returns the `x-ratelimit-*` headers for the successful response.
 */
export async function enforceTokenPolicy(limiter: RateLimiter, request: TokenPolicyRequest): Promise<RateLimitHeaders> {
  const { token, clientIp, model } = request;
  assertIpAllowed(token, clientIp);
  if (model !== undefined) assertModelAllowed(token, model);
  return enforceRateLimits(limiter, token, request.slot);
}

/**
 * The token's `concurrency` (a slot held until `slot.releaseSlot` is called, when a slot is
 * given), then its `rpm` and `tpm`. Returns the `x-ratelimit-*` headers — at once, without a
 * promise, when there is no slot to take and the limiter decides in memory (issue 30).
 */
export function enforceRateLimits(limiter: RateLimiter, token: PolicyToken, slot?: InFlightSlot): RateLimitHeaders | Promise<RateLimitHeaders> {
  const limits = token.rateLimit;
  if (!limits) return {};
  // A slot first (cheap to give back), so a request refused for concurrency does not use up rpm.
  const concurrency = slot ? limits.concurrency : null;
  if (slot && concurrency !== null) return enforceWithSlot(limiter, token, limits, concurrency, slot);
  const checking = limiter.checkRequest(token.id, limits);
  return checking instanceof Promise ? checking.then((decision) => admitted(token, decision)) : admitted(token, checking);
}

async function enforceWithSlot(limiter: RateLimiter, token: PolicyToken, limits: PerMinuteLimits, concurrency: number, slot: InFlightSlot): Promise<RateLimitHeaders> {
  if (!(await limiter.acquireSlot(token.id, concurrency))) throw concurrencyExceeded(concurrency);
  const release = () => void limiter.releaseSlot(token.id);
  let decision: RateLimitDecision;
  try {
    decision = await limiter.checkRequest(token.id, limits);
  } catch (error) {
    release();
    throw error;
  }
  if (!decision.allowed) release();
  const headers = admitted(token, decision);
  slot.releaseSlot = release;
  return headers;
}

function admitted(token: PolicyToken, decision: RateLimitDecision): RateLimitHeaders {
  if (!decision.allowed) throw rateLimitExceeded(token, decision);
  return decision.headers;
}

/** Counts a completed request's tokens towards `tpm`, for tokens that have one. */
export function recordTokenUsage(limiter: RateLimiter, token: PolicyToken, tokens: number): Promise<void> {
  if (!token.rateLimit?.tpm || tokens <= 0) return Promise.resolve();
  return limiter.recordTokens(token.id, tokens);
}

/**
 * What the usage log calls once a relayed request has ended: its prompt and completion tokens
 * count towards the caller's `tpm`. Never rejects — the answer has already been sent.
 */
export function recordCallerTokens(
  limiter: RateLimiter,
  caller: Caller | undefined,
  usage: { promptTokens: number; completionTokens: number },
): void | Promise<void> {
  // Nothing to hold (no tpm, the common case): no promise either.
  if (caller?.kind !== 'token' || !caller.token.rateLimit?.tpm) return;
  return recordTokenUsage(limiter, caller.token, usage.promptTokens + usage.completionTokens).catch(() => undefined);
}

function concurrencyExceeded(limit: number): RelayError {
  return new RelayError({
    status: 429,
    type: 'rate_limit_error',
    code: 'concurrency_limit_exceeded',
    message: `This API key already has ${limit} request${limit === 1 ? '' : 's'} in progress, its concurrency limit. Please retry when one has finished.`,
    headers: { 'retry-after': '1' },
  });
}

const LIMIT_NAMES: Record<RateLimitKind, string> = { requests: 'requests per minute (rpm)', tokens: 'tokens per minute (tpm)' };

function rateLimitExceeded(token: PolicyToken, decision: Extract<RateLimitDecision, { allowed: false }>): RelayError {
  const reached = decision.exceeded
    .map((kind) => `${LIMIT_NAMES[kind]}: limit ${kind === 'requests' ? token.rateLimit?.rpm : token.rateLimit?.tpm}`)
    .join(', ');
  const seconds = decision.retryAfterSeconds;
  return new RelayError({
    status: 429,
    type: 'rate_limit_error',
    code: 'rate_limit_exceeded',
    message: `Rate limit reached for this API key on ${reached}. Please try again in ${seconds} second${seconds === 1 ? '' : 's'}.`,
    headers: decision.headers,
  });
}
