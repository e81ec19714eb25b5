/** How long a simulated task (a video, a song) takes unless the options or the request say otherwise. */
export const defaultTaskDurationMs = 2000;

/** The longest task a request may ask for: an hour keeps a forgotten directive from hanging a run forever. */
export const maxTaskDurationMs = 3_600_000;

/** When a task was submitted and how long it runs. */
export interface TaskTiming {
  submittedAtMs: number;
  durationMs: number;
}

/**
 * Where a task stands: `submitted` for its first tenth, `queued` until a fifth, `running` until
 * the end, then `ended` (completed or failed, as the request asked).
 */
export type TaskPhase = 'submitted' | 'queued' | 'running' | 'ended';

export interface TaskProgress {
  phase: TaskPhase;
  /** 0 before it runs, 1–99 while it runs (rising with the time spent), 100 once it ended. */
  percent: number;
  /** When it started running; undefined before. */
  startedAtMs: number | undefined;
  /** When it ended; undefined before. */
  endedAtMs: number | undefined;
}

const submittedShare = 0.1;
const queuedShare = 0.2;

/** The task's state at `nowMs`: a pure function of its timing, so any poll at any time agrees. */
export function taskProgress(timing: TaskTiming, nowMs: number): TaskProgress {
  const { submittedAtMs, durationMs } = timing;
  const startedAtMs = submittedAtMs + Math.round(durationMs * queuedShare);
  const endedAtMs = submittedAtMs + durationMs;
  const fraction = durationMs <= 0 ? 1 : (nowMs - submittedAtMs) / durationMs;
  if (fraction >= 1) return { phase: 'ended', percent: 100, startedAtMs, endedAtMs };
  if (fraction < submittedShare) return { phase: 'submitted', percent: 0, startedAtMs: undefined, endedAtMs: undefined };
  if (fraction < queuedShare) return { phase: 'queued', percent: 0, startedAtMs: undefined, endedAtMs: undefined };
  const percent = Math.min(99, Math.max(1, Math.floor(fraction * 100)));
  return { phase: 'running', percent, startedAtMs, endedAtMs: undefined };
}

/** Unix seconds, as both APIs write times. */
export function unixSeconds(ms: number): number {
  return Math.floor(ms / 1000);
}
