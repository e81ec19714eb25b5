import { usageEntry } from '../../testing/system-api';
import type { NewTask, Storage, TaskRecord, TaskSettlement } from '../../../src/storage/types';

export const T0 = '2026-03-01T12:00:00.000Z';
/** `T0` moved by `offsetMs`. */
export const at = (offsetMs: number): string => new Date(Date.parse(T0) + offsetMs).toISOString();

let taskCounter = 0;

/** A video task of `accountId` (its token `tokenId`), submitted at T0 and due then; nothing reserved. */
export function newTask(accountId: number, tokenId: number | null, overrides: Partial<NewTask> = {}): NewTask {
  const id = overrides.id ?? `video_${(++taskCounter).toString().padStart(4, '0')}`;
  return {
    id,
    kind: 'video',
    accountId,
    tokenId,
    requestId: `req-${id}`,
    channelId: 3,
    keyDigest: 'a'.repeat(64),
    upstreamId: `up-${id}`,
    model: 'sora-2',
    pricedModel: 'sora-2',
    upstreamModel: 'sora-2-2025-10-06',
    // Key order as the caller wrote it, not sorted.
    params: { prompt: 'a cat on a piano', size: '1280x720', seconds: 8 },
    quotaReserved: 0,
    units: 8,
    unitVariant: '1280x720',
    clientIp: '127.0.0.1',
    createdAt: T0,
    nextPollAt: T0,
    ...overrides,
  };
}

/** Reserves `amount` for the task's submit (as the pipeline does), then stores the task holding it. */
export async function submit(storage: Storage, task: NewTask, amount: number): Promise<TaskRecord> {
  if (task.tokenId === null) throw new Error('a reservation needs a token');
  const reserved = await storage.quota.reserve({ requestId: task.requestId, tokenId: task.tokenId, accountId: task.accountId, amount });
  if (!reserved.ok) throw new Error(`reservation refused: ${reserved.exhausted}`);
  return storage.tasks.create({ ...task, quotaReserved: amount });
}

/** How `task` ends: completed at `cost`, or failed / cancelled (cost 0), with its usage row. */
export function settlementOf(task: TaskRecord, cost: number, status: TaskSettlement['status'] = 'completed'): TaskSettlement {
  const completedAt = at(60_000);
  return {
    status,
    progress: status === 'completed' ? 100 : 40,
    error: status === 'failed' ? { code: 'moderation_blocked', message: 'refused by the upstream' } : null,
    result: { status, id: task.upstreamId, expires_at: 1_800_000_000 },
    units: task.units,
    unitVariant: task.unitVariant,
    cost,
    completedAt,
    usage: usageEntry({
      createdAt: completedAt,
      requestId: task.requestId,
      tokenId: task.tokenId,
      accountId: task.accountId,
      requestedModel: task.model,
      upstreamModel: task.upstreamModel,
      channelId: task.channelId,
      status: status === 'completed' ? 200 : 502,
      endpoint: 'videos',
      units: status === 'completed' ? task.units : 0,
      cost,
      quotaReserved: task.quotaReserved,
    }),
  };
}
