import type { HostedToolKind, UsageEndpoint } from '@chat-relay/contract';
import type { Page, PageRequest } from './common-types';
import type { WindowKey, WindowRefusal, WindowReservation, WindowUsage } from './limit-types';

/** The money side of storage: the usage log, quota reservations and the price table. */

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
  /** The whole prompt, cache reads and writes included. */
  promptTokens: number;
  completionTokens: number;
  /** Of `promptTokens`, those read from and written to the provider's prompt cache. */
  cacheReadTokens: number;
  cacheWriteTokens: number;
  /** What was asked (chat for every chat dialect). */
  endpoint: UsageEndpoint;
  /** The endpoint's own unit (images, search units, characters, audio seconds); for chat, the hosted tool calls a passthrough answer ran. */
  units: number;
  usageEstimated: boolean;
  /** Micro-USD. */
  cost: number;
  /**
   * Quota reserved before the upstream call (micro-USD). Not stored: when the entry is written,
   * `cost - quotaReserved` settles the token's and the account's `quota_used`, and the recorded
   * reservation is removed, in the same transaction, so the log and the quota never disagree.
   */
  quotaReserved: number;
  /**
   * The reservation also counted in periodic windows (issue 32; not stored): the row settles it
   * even when `quotaReserved` is 0 — the windows get the cost's and the tokens' difference, the
   * request stays counted.
   */
  windowsReserved?: boolean;
  latencyMs: number;
  ttfbMs: number | null;
  clientIp: string | null;
  attempts: number;
  /** Which price charged it: `gpt-4o* (table)`, `gpt-4o (catalogue)`, `… (free)`; null when none did (refused before pricing). */
  pricedBy?: string | null;
  /** The models a fallback chain tried, the served one last (`a>b`); null when the requested model served (issue 32). */
  fallbackPath?: string | null;
}
export interface StoredUsageLogEntry extends Omit<UsageLogEntry, 'quotaReserved' | 'pricedBy' | 'fallbackPath'> {
  id: number;
  pricedBy: string | null;
  fallbackPath: string | null;
}
export interface UsageLogQuery extends PageRequest {
  tokenId?: number;
  accountId?: number;
  model?: string;
  status?: number;
  endpoint?: UsageEndpoint;
  from?: string;
  to?: string;
}
export interface UsageTotals {
  requests: number;
  promptTokens: number;
  completionTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
  cost: number;
}
/** The listing's filters without its paging: what the CSV export and keyset reads select. */
export type UsageLogFilter = Omit<UsageLogQuery, 'page' | 'perPage'>;
/** Where a keyset read resumes: the last row read (newest first is `createdAt DESC, id DESC`). */
export interface UsageLogCursor {
  createdAt: string;
  id: number;
}

export type UsageSeriesBucket = 'hour' | 'day';
export type UsageSeriesGroup = 'total' | 'model' | 'channel' | 'token';
export interface UsageSeriesFilter {
  tokenId?: number;
  accountId?: number;
  channelId?: number;
  model?: string;
}
/** One bucket of one group of a usage series. */
export interface UsageSeriesPoint extends UsageTotals {
  /** Start of the UTC hour or day (ISO). */
  time: string;
  /** Model name, channel id or token id as text; `null` for `total` and for no channel, token or model. */
  key: string | null;
  /** Requests answered with a status ≥ 400. */
  errors: number;
}

export interface UsageLogStore {
  /**
   * Writes the entries and settles their quota, in one transaction. An entry settles a
   * reservation of its request no task holds; a task's is settled by `TaskStore.settle` alone.
   */
  insertBatch(entries: readonly UsageLogEntry[]): Promise<void>;
  /** Newest first. */
  recent(limit: number): Promise<StoredUsageLogEntry[]>;
  query(query: UsageLogQuery): Promise<Page<StoredUsageLogEntry>>;
  /**
   * Totals per UTC day (`YYYY-MM-DD`) or per requested model, for one token or account. Served
   * from the hourly rollup (`usage_rollup`, written in the same transaction as the rows) for the
   * whole hours of the range and from the raw log only for the partial hours at its ends, so it
   * never scans the log and still counts rows the retention job has deleted.
   */
  aggregate(scope: { tokenId?: number; accountId?: number }, from: string, to: string, groupBy: 'day' | 'model'): Promise<Array<UsageTotals & { key: string }>>;
  /**
   * Totals per UTC hour or day and per group over [from, to), read like `aggregate` (rollup for
   * whole hours, raw log for the partial hours at the ends). Buckets without requests are left
   * out; ordered by time, then key (ids numerically, names by bytes, `null` first).
   */
  series(filter: UsageSeriesFilter, from: string, to: string, bucket: UsageSeriesBucket, groupBy: UsageSeriesGroup): Promise<UsageSeriesPoint[]>;
  /**
   * Up to `limit` rows of the filter, newest first, strictly after `after` in that order (from
   * the newest when `null`): pages that neither skip nor repeat rows of equal `createdAt`.
   */
  keysetPage(filter: UsageLogFilter, after: UsageLogCursor | null, limit: number): Promise<StoredUsageLogEntry[]>;
  /**
   * Retention (RELAY_LOG_RETENTION_DAYS): deletes at most `limit` raw rows created before
   * `before` (ISO), oldest first, and answers how many; the rollup keeps their totals.
   */
  purgeBefore(before: string, limit: number): Promise<number>;
}

export interface QuotaReservation {
  /** The request's id: its usage row (same `requestId`) settles the reservation. */
  requestId: string;
  tokenId: number;
  accountId: number;
  /** Micro-USD, a safe integer ≥ 0. */
  amount: number;
  /**
   * Periodic windows it also counts in (issue 32), sorted by owner ('account' < 'token'), owner id
   * and period: each takes `amount` of cost, `tokens` and one request, or the whole reservation
   * is refused. Absent or empty: the lifetime quota only.
   */
  windows?: readonly WindowReservation[];
  /** Tokens (prompt + completion) reserved against the windows' token limits: the request's bound. */
  tokens?: number;
}
export type ReserveOutcome =
  | { ok: true }
  | { ok: false; exhausted: 'token' | 'account' }
  | ({ ok: false; exhausted: 'window' } & WindowRefusal);
export interface ReleasedReservations {
  count: number;
  /** Micro-USD given back to the tokens (and as much to their accounts). */
  amount: number;
}
export interface QuotaStore {
  /**
   * Atomically: when the whole `amount` fits in both the token's and its account's quota
   * (`quota_used + amount <= quota_limit`, and something is left, or no limit), add it to both,
   * record the reservation, and answer ok. So concurrent requests never pass a limit on what
   * they reserve. The usage row of `requestId` settles it (`UsageLogStore.insertBatch`) — or,
   * once a task holds it (`TaskStore.create`), the task's row (`TaskStore.settle`).
   */
  reserve(reservation: QuotaReservation): Promise<ReserveOutcome>;
  /**
   * What each window has counted, in the order asked; zeros for a window nothing counted in yet.
   * One round trip whatever the number of keys (a page of tokens reads its windows at once).
   */
  windowUsage(keys: readonly WindowKey[]): Promise<WindowUsage[]>;
  /**
   * Deletes the windows whose first day is before `start` (`YYYY-MM-DD`), and answers how many:
   * windows long over, which nothing reads again (a new window starts by its own key). The
   * storage jobs run it daily (WINDOWS_KEPT_DAYS), so the table holds a few windows per owner.
   */
  purgeWindowsBefore(start: string): Promise<number>;
  /**
   * Gives back every reservation taken before `before` (ISO time) that no usage row settled —
   * left by a process that died — and forgets it. Only for a database one process owns (SQLite
   * at start); shared databases use `releaseOrphaned`. Never a reservation a task holds
   * (`TaskStore.create`): the task goes on after a restart, and `TaskStore.settle` settles it.
   */
  releaseReservations(before: string): Promise<ReleasedReservations>;
  /**
   * Marks this instance (the storage's `instanceId`) alive at `now` (ISO). Every reservation is
   * recorded with the id of the instance that took it.
   */
  heartbeat(now: string): Promise<void>;
  /**
   * Gives back the reservations of every other instance whose last heartbeat is before
   * `staleBefore` (ISO) — or that never beat, or were taken before instances were recorded — and
   * forgets those instances. Never touches this instance's own, nor any a task holds (any live
   * instance polls the task on and settles it). Atomic with `insertBatch` and `TaskStore.settle`:
   * a reservation is either settled by its row or given back, never both.
   */
  releaseOrphaned(staleBefore: string): Promise<ReleasedReservations>;
  /**
   * Clean shutdown, after the usage log is drained: gives back what this instance still holds
   * (nothing, normally) and forgets it — but not the reservations its tasks hold, which stay
   * until those tasks settle (after a restart, or on another instance).
   */
  retire(): Promise<ReleasedReservations>;
}

/** Micro-USD per million tokens. */
export interface PriceRecord {
  model: string;
  /** With `output`: the token prices; null on an entry priced only by its units (a video model). */
  input: number | null;
  output: number | null;
  /** Prompt tokens read from the provider's cache; `null`: the `input` price. */
  cacheRead: number | null;
  /** Prompt tokens written to the provider's cache; `null`: the `input` price. */
  cacheWrite: number | null;
  /** Micro-USD per image when no `imageVariants` entry matches; `null`: images cost nothing beyond tokens. */
  image?: number | null;
  /** Micro-USD per image by `quality/size`, `size` or `quality`. */
  imageVariants?: Record<string, number> | null;
  /** Micro-USD per rerank search unit. */
  searchUnit?: number | null;
  /** Micro-USD per million characters of speech input. */
  characters?: number | null;
  /** Micro-USD per minute of audio transcribed or translated. */
  audioMinute?: number | null;
  /** Micro-USD per second of video when no `videoSecondVariants` entry matches. */
  videoSecond?: number | null;
  /** Micro-USD per second of video by size (`1792x1024`). */
  videoSecondVariants?: Record<string, number> | null;
  /** Micro-USD per song task completed. */
  song?: number | null;
  /** Micro-USD per web search query. */
  searchQuery?: number | null;
  /** Micro-USD per hosted tool call a passthrough answer ran, by kind. */
  toolCalls?: Partial<Record<HostedToolKind, number>> | null;
  /** The token cost's multiplier per premium service tier (`priority: 2`). */
  serviceTiers?: Record<string, number> | null;
  /** Micro-USD per million audio output tokens. */
  audioOutput?: number | null;
  /** Served for nothing on purpose: never refused as unpriced. */
  free?: boolean;
}
export interface PriceStore {
  list(): Promise<PriceRecord[]>;
  replace(prices: readonly PriceRecord[]): Promise<void>;
}
