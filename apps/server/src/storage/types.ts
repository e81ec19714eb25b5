import type { AssistantVisibility, ChannelType, ResponseFormat, TokenStatus, Tool } from '@chat-relay/contract';

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
  createdAt: string;
}
export interface AccountStore {
  /** A plain user account (the accounts API comes later; tests and bootstrap use this). */
  createUser(name: string): Promise<AccountRecord>;
  findByKeyDigest(digest: string): Promise<AccountRecord | undefined>;
  findAdmin(): Promise<AccountRecord | undefined>;
  createAdmin(keyDigest: string): Promise<AccountRecord>;
  setKeyDigest(accountId: number, keyDigest: string): Promise<void>;
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
  rateLimit: { rpm: number | null; tpm: number | null } | null;
  createdAt: string;
  lastUsedAt: string | null;
}
export interface NewToken {
  accountId: number;
  name: string;
  keyDigest: string;
  keyHint: string;
}
export interface TokenStore {
  create(input: NewToken): Promise<TokenRecord>;
  get(id: number): Promise<TokenRecord | undefined>;
  findByKeyDigest(digest: string): Promise<TokenRecord | undefined>;
  list(request: PageRequest & { status?: TokenStatus; now: string }): Promise<Page<TokenRecord>>;
  delete(id: number): Promise<boolean>;
  /** Batched from the usage log flush, never written per request. */
  touchLastUsed(lastUsed: ReadonlyMap<number, string>): Promise<void>;
}

/** Per-channel upstream timeouts (SPEC §6). */
export interface ChannelTimeoutsMs {
  /** TCP/TLS connect. */
  connectMs: number;
  /** From sending the request to the response headers. */
  firstByteMs: number;
  /** Longest silence between two body chunks (a stalled stream). */
  idleMs: number;
}

export interface ChannelRecord {
  id: number;
  name: string;
  type: ChannelType;
  baseUrl: string;
  keys: string[];
  models: string[];
  modelMapping: Record<string, string>;
  priority: number;
  weight: number;
  enabled: boolean;
  timeouts: ChannelTimeoutsMs;
  createdAt: string;
  updatedAt: string;
}
export type NewChannel = Omit<ChannelRecord, 'id' | 'createdAt' | 'updatedAt'>;
export type ChannelPatch = Partial<NewChannel>;
export interface ChannelStore {
  create(input: NewChannel): Promise<ChannelRecord>;
  get(id: number): Promise<ChannelRecord | undefined>;
  list(request: PageRequest): Promise<Page<ChannelRecord>>;
  listAll(): Promise<ChannelRecord[]>;
  update(id: number, patch: ChannelPatch): Promise<ChannelRecord | undefined>;
  delete(id: number): Promise<boolean>;
  count(): Promise<number>;
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
export interface AssistantUsageTotals {
  requests: number;
  promptTokens: number;
  completionTokens: number;
}
export interface AssistantStore {
  /** Fails with `AlreadyExistsError` when the id is taken. */
  create(input: NewAssistant): Promise<AssistantRecord>;
  get(id: string): Promise<AssistantRecord | undefined>;
  list(request: PageRequest): Promise<Page<AssistantRecord>>;
  /** Every assistant an account may use: its own and the public ones. */
  listUsableBy(accountId: number): Promise<AssistantRecord[]>;
  update(id: string, patch: AssistantPatch): Promise<AssistantRecord | undefined>;
  delete(id: string): Promise<boolean>;
  usageSince(id: string, sinceIso: string): Promise<AssistantUsageTotals>;
}

export class AlreadyExistsError extends Error {}

/** One row per relayed request (SPEC §8). Prompts and answers are never stored. */
export interface UsageLogEntry {
  createdAt: string;
  requestId: string;
  tokenId: number | null;
  accountId: number | null;
  requestedModel: string | null;
  upstreamModel: string | null;
  channelId: number | null;
  assistantId: string | null;
  stream: boolean;
  status: number;
  errorCode: string | null;
  promptTokens: number;
  completionTokens: number;
  usageEstimated: boolean;
  /** Micro-USD. */
  cost: number;
  latencyMs: number;
  ttfbMs: number | null;
  clientIp: string | null;
  attempts: number;
}
export interface UsageLogStore {
  insertBatch(entries: readonly UsageLogEntry[]): Promise<void>;
  /** Newest first; for tests and the later logs API. */
  recent(limit: number): Promise<UsageLogEntry[]>;
}

export interface Storage {
  accounts: AccountStore;
  tokens: TokenStore;
  channels: ChannelStore;
  assistants: AssistantStore;
  usageLog: UsageLogStore;
  /** Throws when the database does not answer. */
  ping(): Promise<void>;
  close(): Promise<void>;
}
