import type { TaskFailure, TaskKind, TaskState } from '@chat-relay/wire';
import type { UsageLogEntry } from './usage-types';

/**
 * A long-running task (a video, a song): submitted through the pipeline, then polled upstream
 * until it ends, and charged once (SPEC §7a). Its quota reservation (the submit's `requestId`)
 * outlives the process: it is never given back as orphaned, only settled by the task's own usage
 * row when it ends — completed (charged), failed or cancelled (given back).
 */
export interface TaskRecord {
  /** The relay's public id (`video_…`, `task_…`), never the upstream's. */
  id: string;
  kind: TaskKind;
  accountId: number;
  /** null when submitted with the admin key. */
  tokenId: number | null;
  /** The submit's request id: its quota reservation, and the task's usage row when it ends. */
  requestId: string;
  channelId: number;
  /** SHA-256 (hex) of the channel key that submitted it: polls and downloads use the same key. */
  keyDigest: string;
  upstreamId: string;
  /** The model name the caller used. */
  model: string;
  /** The name it is priced by (a gizmo name's family). */
  pricedModel: string;
  upstreamModel: string;
  status: TaskState;
  /** 0–100. */
  progress: number;
  error: TaskFailure | null;
  /** What the caller asked that the views show (a video's prompt, size, seconds; a Suno action). */
  params: Record<string, unknown>;
  /** The upstream's last object about the task (see TaskSnapshot.result); null before the first answer. */
  result: Record<string, unknown> | null;
  /** Micro-USD reserved at submit. */
  quotaReserved: number;
  /** Priced units (seconds of video, songs) and their variant (a video's size); the bound until it completes. */
  units: number;
  unitVariant: string | null;
  /** Micro-USD charged; 0 until it completes (and for a failed or cancelled task). */
  cost: number;
  clientIp: string | null;
  createdAt: string;
  updatedAt: string;
  /** When the upstream first reported it running. */
  startedAt: string | null;
  /** When it ended (completed, failed or cancelled). */
  completedAt: string | null;
  /** When its usage row was written and its reservation settled; null while it runs. */
  settledAt: string | null;
  /** When it is next asked of the upstream. */
  nextPollAt: string;
  /** Polls so far (the back-off grows with them). */
  polls: number;
  /** Until when an instance holds it for a poll (see `claimDue`). */
  leaseUntil: string | null;
  /** Deleted by its owner: no longer listed or found. */
  deletedAt: string | null;
}

export type NewTask = Omit<
  TaskRecord,
  'status' | 'progress' | 'error' | 'result' | 'cost' | 'updatedAt' | 'startedAt' | 'completedAt' | 'settledAt' | 'polls' | 'leaseUntil' | 'deletedAt'
> &
  Partial<Pick<TaskRecord, 'status' | 'progress' | 'result' | 'startedAt'>>;

/** A poll's news about a running task. */
export type TaskPatch = Partial<Pick<TaskRecord, 'status' | 'progress' | 'error' | 'result' | 'startedAt' | 'nextPollAt' | 'polls' | 'leaseUntil'>>;

/** How a task ends: its final state and the usage row that charges (or releases) it. */
export interface TaskSettlement {
  status: 'completed' | 'failed' | 'cancelled';
  progress: number;
  error: TaskFailure | null;
  result: Record<string, unknown> | null;
  units: number;
  unitVariant: string | null;
  cost: number;
  completedAt: string;
  /** Written in the same transaction, as `UsageLogStore.insertBatch` writes (its `quotaReserved` settles the reservation). */
  usage: UsageLogEntry;
}

export interface TaskListRequest {
  accountId: number;
  kind: TaskKind;
  limit: number;
  order: 'asc' | 'desc';
  /**
   * A task id of the same listing: only tasks after it in that order. Looked up among the
   * account's tasks of `kind`, deleted ones included (a page's last task deleted meanwhile still
   * marks where the next page starts); any other id — unknown, another account's, another kind's —
   * gives an empty page (`hasMore` false), never the first one.
   */
  after?: string;
}

export interface TaskStore {
  /**
   * Stores a submitted task and, in the same transaction, makes the submit's quota reservation
   * (`requestId`, if any) the task's: kept across restarts, never released as orphaned
   * (`releaseReservations`, `releaseOrphaned`, `retire` leave it), settled only by `settle`.
   * The reservation is the one of `requestId`, `tokenId` and exactly `quotaReserved` — the
   * amount `settle`'s usage row settles — and none is held when there is no such one.
   */
  create(task: NewTask): Promise<TaskRecord>;
  /** The account's own task, unless deleted. */
  get(accountId: number, id: string): Promise<TaskRecord | undefined>;
  /** The account's own tasks among `ids` (deleted ones left out), in no particular order. */
  getMany(accountId: number, ids: readonly string[]): Promise<TaskRecord[]>;
  /** A page of the account's tasks of a kind, by creation time (then id); `hasMore` when more follow. */
  list(request: TaskListRequest): Promise<{ rows: TaskRecord[]; hasMore: boolean }>;
  /**
   * Takes up to `limit` unsettled tasks whose `nextPollAt` ≤ `now` and whose lease (if any) ended
   * before `now`, oldest poll first (then by id), and leases them until `leaseUntil`: instances
   * sharing the database never poll the same task at once. Only `leaseUntil` changes (not
   * `updatedAt`); a deleted task is still claimed, since its reservation must still be settled.
   * An `update` with `leaseUntil: null` gives a lease up early.
   */
  claimDue(now: string, leaseUntil: string, limit: number): Promise<TaskRecord[]>;
  /** Unsettled tasks' count (for start-up logs and metrics). */
  countUnsettled(): Promise<number>;
  /** Applies a poll's news to an unsettled task, `updatedAt` = `now`; undefined when it is settled (or gone) already. */
  update(id: string, patch: TaskPatch, now: string): Promise<TaskRecord | undefined>;
  /**
   * Ends an unsettled task atomically: its final state, its usage row and its reservation settled
   * (cost − reserved onto the token's and account's `quota_used`; the whole cost when the task
   * holds no reservation), in one transaction. `settledAt` and `updatedAt` are the time it is
   * written; the lease is cleared. Undefined when it was settled already — by another poll,
   * instance or a cancel — or does not exist, and then nothing is written.
   */
  settle(id: string, settlement: TaskSettlement): Promise<TaskRecord | undefined>;
  /**
   * Hides the account's task from every read (`get`, `getMany`, `list`); false when there is none
   * or it is hidden already. It is still claimed, updated and settled until it ends.
   */
  markDeleted(accountId: number, id: string, at: string): Promise<boolean>;
}
