import type { TaskFailure, TaskKind, TaskState } from '@chat-relay/wire';
import type { NewTask, TaskPatch, TaskRecord, TaskSettlement } from '../task-types';
import { jsonColumn as json, type JsonColumn, type RowCodec } from './codec';

/** A `tasks` row as either backend reads it (JSON columns as the codec reads them), its times ISO text. */
export interface TaskRow {
  id: string;
  kind: TaskKind;
  account_id: number;
  token_id: number | null;
  request_id: string;
  channel_id: number;
  key_digest: string;
  upstream_id: string;
  model: string;
  priced_model: string;
  upstream_model: string;
  status: TaskState;
  progress: number;
  error: JsonColumn<TaskFailure> | null;
  params: JsonColumn<Record<string, unknown>>;
  result: JsonColumn<Record<string, unknown>> | null;
  quota_reserved: number;
  units: number;
  unit_variant: string | null;
  cost: number;
  client_ip: string | null;
  created_at: string;
  updated_at: string;
  started_at: string | null;
  completed_at: string | null;
  settled_at: string | null;
  next_poll_at: string;
  polls: number;
  lease_until: string | null;
  deleted_at: string | null;
}

/** The record a row holds, on either backend. */
export const taskRecordOf = (row: TaskRow, codec: RowCodec): TaskRecord => ({
  id: row.id,
  kind: row.kind,
  accountId: row.account_id,
  tokenId: row.token_id,
  requestId: row.request_id,
  channelId: row.channel_id,
  keyDigest: row.key_digest,
  upstreamId: row.upstream_id,
  model: row.model,
  pricedModel: row.priced_model,
  upstreamModel: row.upstream_model,
  status: row.status,
  progress: row.progress,
  error: codec.json(row.error),
  params: codec.json(row.params) ?? {},
  result: codec.json(row.result),
  quotaReserved: row.quota_reserved,
  units: row.units,
  unitVariant: row.unit_variant,
  cost: row.cost,
  clientIp: row.client_ip,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
  startedAt: row.started_at,
  completedAt: row.completed_at,
  settledAt: row.settled_at,
  nextPollAt: row.next_poll_at,
  polls: row.polls,
  leaseUntil: row.lease_until,
  deletedAt: row.deleted_at,
});

/** Oldest poll first, then by id: the order `claimDue` takes tasks in, and answers them in. */
export const byPollTime = (a: TaskRecord, b: TaskRecord): number =>
  a.nextPollAt < b.nextPollAt ? -1 : a.nextPollAt > b.nextPollAt ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;

/** A column and the value written to it; JSON columns get their text (see `json`). */
export type TaskAssignment = readonly [column: string, value: string | number | null];

/** Each column a new task is inserted with and its value; the others take their defaults. */
const INSERTED: Readonly<Record<string, (task: NewTask) => string | number | null>> = {
  id: (task) => task.id,
  kind: (task) => task.kind,
  account_id: (task) => task.accountId,
  token_id: (task) => task.tokenId,
  request_id: (task) => task.requestId,
  channel_id: (task) => task.channelId,
  key_digest: (task) => task.keyDigest,
  upstream_id: (task) => task.upstreamId,
  model: (task) => task.model,
  priced_model: (task) => task.pricedModel,
  upstream_model: (task) => task.upstreamModel,
  status: (task) => task.status ?? 'queued',
  progress: (task) => task.progress ?? 0,
  params: (task) => json(task.params) ?? '{}',
  result: (task) => json(task.result),
  quota_reserved: (task) => task.quotaReserved,
  units: (task) => task.units,
  unit_variant: (task) => task.unitVariant,
  client_ip: (task) => task.clientIp,
  created_at: (task) => task.createdAt,
  updated_at: (task) => task.createdAt,
  started_at: (task) => task.startedAt ?? null,
  next_poll_at: (task) => task.nextPollAt,
};
export const TASK_INSERT_COLUMNS: readonly string[] = Object.keys(INSERTED);
/** A new task's values in `TASK_INSERT_COLUMNS` order. */
export const taskInsertValues = (task: NewTask): Array<string | number | null> => Object.values(INSERTED).map((value) => value(task));

/** The column of each field a poll's news may change: nothing else of a task is ever patched. */
const PATCHED_COLUMNS: Readonly<Record<keyof TaskPatch, string>> = {
  status: 'status',
  progress: 'progress',
  error: 'error',
  result: 'result',
  startedAt: 'started_at',
  nextPollAt: 'next_poll_at',
  polls: 'polls',
  leaseUntil: 'lease_until',
};
const JSON_FIELDS: ReadonlySet<keyof TaskPatch> = new Set(['error', 'result']);

/** The assignments of `patch` (fields left out or undefined change nothing), then `updated_at`. */
export function taskPatch(patch: TaskPatch, now: string): TaskAssignment[] {
  const assignments: TaskAssignment[] = [];
  for (const [field, column] of Object.entries(PATCHED_COLUMNS) as Array<[keyof TaskPatch, string]>) {
    const value = patch[field];
    if (value === undefined) continue;
    // Every other field is a string, a number or null (TaskPatch's types).
    assignments.push([column, JSON_FIELDS.has(field) ? json(value) : (value as string | number | null)]);
  }
  assignments.push(['updated_at', now]);
  return assignments;
}

/** A task's end: its final state, settled at `settledAt`, its lease given up. */
export function taskSettlement(settlement: TaskSettlement, settledAt: string): TaskAssignment[] {
  return [
    ['status', settlement.status],
    ['progress', settlement.progress],
    ['error', json(settlement.error)],
    ['result', json(settlement.result)],
    ['units', settlement.units],
    ['unit_variant', settlement.unitVariant],
    ['cost', settlement.cost],
    ['completed_at', settlement.completedAt],
    ['settled_at', settledAt],
    ['updated_at', settledAt],
    ['lease_until', null],
  ];
}
