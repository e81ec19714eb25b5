import type { RateLimitInput, TokenStatus } from '@chat-relay/contract';
import type { RateLimits } from '../core/rate-limits';
import type { AccountRecord } from './account-types';
import type { Page, PageRequest } from './common-types';
import type { OwnerLimits } from './limit-types';

/** Stored token status; `expired` is derived from `expiresAt` when read. */
export type StoredTokenStatus = Exclude<TokenStatus, 'expired'>;
export interface TokenRecord extends OwnerLimits {
  id: number;
  accountId: number;
  name: string;
  keyHint: string;
  status: StoredTokenStatus;
  expiresAt: string | null;
  quotaLimit: number | null;
  quotaUsed: number;
  models: string[] | null;
  allowedIps: string[] | null;
  rateLimit: RateLimits | null;
  createdAt: string;
  lastUsedAt: string | null;
  /** The owning account's state, read with the token by `findByKeyDigest` (the auth path). */
  account?: { status: AccountRecord['status']; quotaLimit: number | null } & Pick<OwnerLimits, 'periodicLimits' | 'timeZone'>;
}
/** The policy a token carries, as set on create or PATCH. */
export interface TokenPolicy extends OwnerLimits {
  name: string;
  status: StoredTokenStatus;
  expiresAt: string | null;
  quotaLimit: number | null;
  models: string[] | null;
  allowedIps: string[] | null;
  rateLimit: RateLimits | null;
}
export interface NewToken extends Partial<Omit<TokenPolicy, 'name' | 'rateLimit'>> {
  /** Kinds left out are no limit. */
  rateLimit?: RateLimitInput | null;
  accountId: number;
  name: string;
  keyDigest: string;
  keyHint: string;
}
/** A change to a token; `rateLimit` is merged kind by kind into what it has (`mergeRateLimits`). */
export type TokenPatch = Partial<Omit<TokenPolicy, 'rateLimit'>> & { quotaUsed?: number; rateLimit?: RateLimitInput | null };
export type TokenBatchAction = 'enable' | 'disable' | 'delete' | 'update';
export interface TokenBatchOutcome {
  id: number;
  status: 'ok' | 'not_found';
  token?: TokenRecord;
}
export interface TokenListRequest extends PageRequest {
  status?: TokenStatus;
  now: string;
  /** Only this account's tokens (account keys see their own only). */
  accountId?: number;
}
export interface TokenStore {
  create(input: NewToken): Promise<TokenRecord>;
  get(id: number): Promise<TokenRecord | undefined>;
  /** At once, not a promise, where the answer is in memory already (the key cache's hit, the auth path). */
  findByKeyDigest(digest: string): TokenRecord | undefined | Promise<TokenRecord | undefined>;
  list(request: TokenListRequest): Promise<Page<TokenRecord>>;
  /** Name or key hint contains `q` (case-insensitive). */
  search(request: PageRequest & { q: string; accountId?: number }): Promise<Page<TokenRecord>>;
  update(id: number, patch: TokenPatch): Promise<TokenRecord | undefined>;
  /**
   * One transaction for all ids; ids that do not exist (or belong to another account when
   * `accountId` is given) are reported `not_found`, not fatal.
   */
  batch(ids: readonly number[], action: TokenBatchAction, patch: TokenPatch | undefined, accountId?: number): Promise<TokenBatchOutcome[]>;
  delete(id: number): Promise<boolean>;
  /** Batched from the usage log flush, never written per request. */
  touchLastUsed(lastUsed: ReadonlyMap<number, string>): Promise<void>;
}
