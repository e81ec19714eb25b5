import type { AssistantVisibility, ChannelResponsesApi, ChannelType, Endpoint, RateLimitInput, ResponseFormat, TokenStatus, Tool } from '@chat-relay/contract';
import type { ChannelTimeoutsMs } from '../core/channel-defaults';
import type { RateLimits } from '../core/rate-limits';
import type { ResponseStore } from './response-types';
import type { TaskStore } from './task-types';
import type { PriceStore, QuotaStore, UsageLogStore } from './usage-types';
import type { ChannelPassthroughRecord, UpstreamObjectStore } from './upstream-object-types';

export type { ChannelTimeoutsMs } from '../core/channel-defaults';
export * from './usage-types';
export * from './response-types';
export * from './task-types';
export * from './upstream-object-types';

/**
 * Store interfaces: the server depends on these only. They are async so that a PostgreSQL
 * backend can implement them as they are; SQLite answers synchronously underneath.
 */

export interface Page<T> {
  rows: T[];
  total: number;
}
export interface PageRequest {
  page: number;
  perPage: number;
}

export type AccountRole = 'admin' | 'user';
export interface AccountRecord {
  id: number;
  name: string;
  role: AccountRole;
  status: 'active' | 'disabled';
  quotaLimit: number | null;
  quotaUsed: number;
  keyHint: string | null;
  createdAt: string;
}
export interface NewAccount {
  name: string;
  role: AccountRole;
  status: AccountRecord['status'];
  quotaLimit: number | null;
  keyDigest: string;
  keyHint: string;
}
export type AccountPatch = Partial<Pick<AccountRecord, 'name' | 'role' | 'status' | 'quotaLimit' | 'quotaUsed'>>;
/**
 * The accounts table as a backend keeps it (admin-key-check.ts wraps it into the AccountStore the
 * server uses). `keyDigest` is what is stored of an access key: the SHA-256 digest of an account's
 * key; for the first admin a salted scrypt hash (security/admin-key-hash.ts), or, from an earlier
 * version, its SHA-256 digest until upgraded.
 */
export interface StoredAccountStore {
  /** A plain user account without an access key (tests use this). */
  createUser(name: string): Promise<AccountRecord>;
  create(input: NewAccount): Promise<AccountRecord>;
  get(id: number): Promise<AccountRecord | undefined>;
  list(request: PageRequest): Promise<Page<AccountRecord>>;
  update(id: number, patch: AccountPatch): Promise<AccountRecord | undefined>;
  /**
   * Deletes the account with its tokens, assistants, stored responses and tasks — and the quota
   * reservations its tasks hold, whose quota goes with the account and its tokens.
   */
  delete(id: number): Promise<boolean>;
  findByKeyDigest(digest: string): Promise<AccountRecord | undefined>;
  findAdmin(): Promise<AccountRecord | undefined>;
  createAdmin(keyDigest: string): Promise<AccountRecord>;
  setKeyDigest(accountId: number, keyDigest: string): Promise<void>;
  /** The first admin and what is stored of its key. */
  findAdminKeyHash(): Promise<{ account: AccountRecord; keyHash: string } | undefined>;
  /** Stores `next` as the account's key only while `expected` is stored (compare-and-set); whether it did. */
  replaceKeyHash(accountId: number, expected: string, next: string): Promise<boolean>;
}
export interface AccountStore extends StoredAccountStore {
  /**
   * Makes the key whose SHA-256 digest is `digest` the first admin's (created when there is none),
   * stored as a salted scrypt hash; a key it holds already keeps its hash. `findByKeyDigest` then
   * finds the admin by that digest — verified once, then from memory.
   */
  setAdminKey(digest: string): Promise<AccountRecord>;
}

/** Stored token status; `expired` is derived from `expiresAt` when read. */
export type StoredTokenStatus = Exclude<TokenStatus, 'expired'>;
export interface TokenRecord {
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
  account?: { status: AccountRecord['status']; quotaLimit: number | null };
}
/** The policy a token carries, as set on create or PATCH. */
export interface TokenPolicy {
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
  findByKeyDigest(digest: string): Promise<TokenRecord | undefined>;
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


/** A channel key's state (SPEC §6): an upstream 401/403 disables it, with the reason. */
export interface ChannelKeyState {
  status: 'active' | 'disabled';
  /** Why it was disabled (the upstream's redacted answer); null when active. */
  reason: string | null;
  /** When the status last changed; null for a key never disabled. */
  changedAt: string | null;
}

export interface ChannelRecord {
  id: number;
  name: string;
  type: ChannelType;
  baseUrl: string;
  keys: string[];
  /** One per key, same order. */
  keyStates: ChannelKeyState[];
  models: string[];
  modelMapping: Record<string, string>;
  priority: number;
  weight: number;
  enabled: boolean;
  timeouts: ChannelTimeoutsMs;
  /** Whether Responses requests go to the channel's own `/responses` (see ChannelResponsesApiSchema). */
  responsesApi: ChannelResponsesApi;
  /** What it serves; `null`: its type's defaults (DEFAULT_CHANNEL_ENDPOINTS). */
  endpoints: Endpoint[] | null;
  /** The upstream's model list as last fetched (`POST /api/channels/{id}/models/sync`); `null`: never. */
  syncedModels: SyncedModel[] | null;
  modelsSyncedAt: string | null;
  /** What passes through to it beyond plain tokens (see ChannelPassthroughSchema); the stores always say, absent is nothing. */
  passthrough?: ChannelPassthroughRecord;
  createdAt: string;
  updatedAt: string;
}

/** A model as an upstream lists it, and what it serves when the upstream says (Gemini does). */
export interface SyncedModel {
  id: string;
  /** `null`: the upstream does not say; the channel's endpoints apply. */
  endpoints: Endpoint[] | null;
}
/**
 * Without `keyStates` every key starts (or, in a patch giving `keys`, starts again) active.
 * Without `responsesApi` a new channel is `auto`; without `passthrough`, nothing passes.
 */
export type NewChannel = Omit<
  ChannelRecord,
  'id' | 'createdAt' | 'updatedAt' | 'keyStates' | 'responsesApi' | 'endpoints' | 'syncedModels' | 'modelsSyncedAt'
> & {
  keyStates?: ChannelKeyState[];
  responsesApi?: ChannelResponsesApi;
  endpoints?: Endpoint[] | null;
};
export type ChannelPatch = Partial<NewChannel>;
export interface ChannelStore {
  create(input: NewChannel): Promise<ChannelRecord>;
  get(id: number): Promise<ChannelRecord | undefined>;
  list(request: PageRequest): Promise<Page<ChannelRecord>>;
  listAll(): Promise<ChannelRecord[]>;
  update(id: number, patch: ChannelPatch): Promise<ChannelRecord | undefined>;
  delete(id: number): Promise<boolean>;
  count(): Promise<number>;
  /** Takes `key` out of rotation with a reason; undefined when the channel no longer holds it. */
  disableKey(id: number, key: string, reason: string): Promise<ChannelRecord | undefined>;
  /**
   * Only `responsesApi` (and `updatedAt`, as `update` does): what the relay writes when an `auto`
   * channel answers 404/405 on `/responses`. Undefined when the channel no longer exists.
   */
  setResponsesApi(id: number, value: ChannelResponsesApi): Promise<ChannelRecord | undefined>;
  /**
   * Only `syncedModels`, `modelsSyncedAt` (= `at`) and `updatedAt`: the upstream's model list as
   * fetched. `updatedAt` moves so that routing builds the channel afresh. Undefined when the
   * channel no longer exists.
   */
  setSyncedModels(id: number, models: readonly SyncedModel[], at: string): Promise<ChannelRecord | undefined>;
  /**
   * Start-up work (bootstrap): seals again, under the current RELAY_SECRET_KEY, every key stored in
   * the clear (by an earlier version) or under RELAY_SECRET_KEY_PREVIOUS; returns how many channels
   * changed. Fails naming the channel when a key was sealed under a secret this instance lacks.
   */
  resealKeys(): Promise<number>;
}

/** One channel's stored keys replaced by `next`, only while they are still `expected` (compare-and-set). */
export interface ChannelKeysRewrite {
  id: number;
  expected: readonly string[];
  next: readonly string[];
}
/**
 * The channels table as a backend keeps it (sealed-channel-keys.ts wraps it into the ChannelStore
 * the server uses): `keys` hold the stored values — sealed — written and compared as given.
 */
export interface StoredChannelStore extends Omit<ChannelStore, 'resealKeys'> {
  /**
   * Only `keys` (not `updatedAt`: they mean what they meant) of each channel whose keys are still
   * `expected`; returns how many changed. Where the backend can, no copy of the old values stays
   * in the database's files (SQLite: the file rebuilt by VACUUM when anything changed).
   */
  rewriteKeys(rewrites: readonly ChannelKeysRewrite[]): Promise<number>;
}

export interface AssistantRecord {
  id: string;
  accountId: number;
  name: string;
  description: string;
  instructions: string;
  tools: Tool[];
  temperature: number | null;
  topP: number | null;
  maxTokens: number | null;
  responseFormat: ResponseFormat | null;
  models: string[] | null;
  visibility: AssistantVisibility;
  createdAt: string;
  updatedAt: string;
}
export type NewAssistant = Omit<AssistantRecord, 'createdAt' | 'updatedAt'>;
export type AssistantPatch = Partial<Omit<NewAssistant, 'id' | 'accountId'>>;
/**
 * `takePublicId` (the admin publishing, issue 26): when the written assistant is public and a
 * public one of another account holds the id, that one is made private to its owner first, in
 * the same transaction — so a squatted id is taken back in one step.
 */
export interface AssistantWriteOptions {
  takePublicId?: boolean;
}
export interface AssistantUsageTotals {
  requests: number;
  promptTokens: number;
  completionTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
}
/**
 * Assistants are keyed by owner and id (SPEC §5): a private id is its owner's alone, so another
 * account may hold the same one and learns nothing of it. A public id is unique among public
 * ones; `<family>-gizmo-<id>` means the caller's own assistant first, then the public one.
 */
export interface AssistantStore {
  /**
   * Fails with `AlreadyExistsError` when the owner has the id already, or a public assistant
   * has it (public ones are visible to all, so saying so reveals nothing).
   */
  create(input: NewAssistant, options?: AssistantWriteOptions): Promise<AssistantRecord>;
  /** The account's own assistant with this id. */
  getOwned(accountId: number, id: string): Promise<AssistantRecord | undefined>;
  /** Every assistant with this id, one per owner (the admin's view). */
  findById(id: string): Promise<AssistantRecord[]>;
  /** What the id means for this account: its own assistant, else the public one. */
  resolveFor(accountId: number, id: string): Promise<AssistantRecord | undefined>;
  /** Only this account's assistants when `accountId` is given (account keys see their own only). */
  list(request: PageRequest & { accountId?: number }): Promise<Page<AssistantRecord>>;
  /** Every assistant an account may use: its own, and the public ones its own do not shadow. */
  listUsableBy(accountId: number): Promise<AssistantRecord[]>;
  /** Fails with `AlreadyExistsError` when made public while another public one has the id (unless `takePublicId`). */
  update(accountId: number, id: string, patch: AssistantPatch, options?: AssistantWriteOptions): Promise<AssistantRecord | undefined>;
  delete(accountId: number, id: string): Promise<boolean>;
  /** Requests made with this assistant: its owner's, and others' while it resolved to this one. */
  usageSince(assistant: AssistantRecord, sinceIso: string): Promise<AssistantUsageTotals>;
}

export class AlreadyExistsError extends Error {}

/** Options every backend is opened with. */
export interface StorageOptions {
  /**
   * This process's id among the instances sharing the database (random per start): recorded
   * with its quota reservations and its heartbeats, so that another instance can give back what
   * a dead one held without touching what a live one holds.
   */
  instanceId: string;
}

export interface Storage {
  /** `postgres`: several instances may share it (leftover reservations are judged by heartbeats). */
  kind: 'sqlite' | 'postgres';
  accounts: AccountStore;
  tokens: TokenStore;
  channels: ChannelStore;
  assistants: AssistantStore;
  quota: QuotaStore;
  prices: PriceStore;
  usageLog: UsageLogStore;
  responses: ResponseStore;
  tasks: TaskStore;
  upstreamObjects: UpstreamObjectStore;
  /** Throws when the database does not answer. */
  ping(): Promise<void>;
  /**
   * Runs `work` while no other instance sharing the database runs work under the same `name`
   * (PostgreSQL: an advisory lock; SQLite has one process): start-up steps that read, then write.
   */
  exclusive<T>(name: string, work: () => Promise<T>): Promise<T>;
  close(): Promise<void>;
}
