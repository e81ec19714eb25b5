import type { SunoTask, SunoTaskStatus } from '@chat-relay/contract';
import { clampProgress, unixSeconds, type TaskViewSource } from './task-common';

/** new-api's answer envelope around what a Suno-style route returns. */
export interface SunoEnvelope<T> {
  code: 'success';
  message: '';
  data: T;
}

const QUEUED_STATUSES: ReadonlySet<string> = new Set<SunoTaskStatus>(['NOT_START', 'SUBMITTED', 'QUEUED']);

const textOf = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);
const wholeOf = (value: unknown): number | undefined => (typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : undefined);

/** new-api's status for a task's state; a queued task shows the upstream's own word for it once polled. */
function sunoStatusOf(task: TaskViewSource): SunoTaskStatus {
  switch (task.status) {
    case 'queued': {
      const upstream = textOf(task.result?.['status'])?.toUpperCase();
      return upstream !== undefined && QUEUED_STATUSES.has(upstream) ? (upstream as SunoTaskStatus) : 'SUBMITTED';
    }
    case 'in_progress':
      return 'IN_PROGRESS';
    case 'completed':
      return 'SUCCESS';
    case 'failed':
    case 'cancelled':
      return 'FAILURE';
    default: {
      const unreachable: never = task.status;
      return unreachable;
    }
  }
}

/**
 * A stored music task in new-api's TaskDto shape: the relay's id, never the upstream's; times in
 * unix seconds (the relay's own, else the upstream's, else 0); `data` — the songs or the lyrics —
 * as the upstream last reported them. `params.action` is the action it was submitted with.
 */
export function sunoTaskView(task: TaskViewSource): SunoTask {
  const result = task.result ?? {};
  const ended = task.status === 'completed' || task.status === 'failed' || task.status === 'cancelled';
  const failed = task.status === 'failed' || task.status === 'cancelled';
  return {
    task_id: task.id,
    action: (textOf(task.params['action']) ?? textOf(result['action']) ?? 'music').toUpperCase(),
    status: sunoStatusOf(task),
    fail_reason: failed ? task.error?.message || (task.status === 'cancelled' ? 'The task was cancelled.' : 'The music generation failed.') : '',
    submit_time: unixSeconds(task.createdAt) ?? 0,
    start_time: unixSeconds(task.startedAt) ?? wholeOf(result['start_time']) ?? 0,
    finish_time: unixSeconds(task.completedAt) ?? wholeOf(result['finish_time']) ?? 0,
    // new-api shows an ended task at 100%, failed ones too.
    progress: `${ended ? 100 : clampProgress(task.progress)}%`,
    data: result['data'] ?? null,
  };
}

/** new-api's success envelope: `{code: "success", message: "", data}`. */
export function sunoEnvelope<T>(data: T): SunoEnvelope<T> {
  return { code: 'success', message: '', data };
}
