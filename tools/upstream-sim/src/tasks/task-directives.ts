import { maxTaskDurationMs } from './task-clock';

/** How a task ends: done (the default), failed at the end of its time, or refused at submit. */
export type TaskOutcome = 'succeed' | 'fail' | 'refuse';

export interface TaskDirectives {
  /** The request's own duration, undefined when it set none (the `taskDurationMs` option then). */
  durationMs: number | undefined;
  outcome: TaskOutcome;
}

export type TaskDirectivesResult =
  | { kind: 'directives'; directives: TaskDirectives }
  | { kind: 'invalid'; param: string; message: string };

const markerPattern = /\[sim:(task_ms|task)=([^\]\s]*)\]/gi;
const outcomes: readonly TaskOutcome[] = ['succeed', 'fail', 'refuse'];

function parseDuration(value: unknown): number | undefined {
  const duration = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  return typeof duration === 'number' && Number.isFinite(duration) && duration >= 0 && duration <= maxTaskDurationMs
    ? duration
    : undefined;
}

function parseOutcome(value: unknown): TaskOutcome | undefined {
  const word = typeof value === 'string' ? value.trim().toLowerCase() : '';
  return outcomes.find((outcome) => outcome === word);
}

const durationRule = `a number of milliseconds from 0 to ${maxTaskDurationMs}`;
const outcomeRule = 'succeed, fail or refuse';

/**
 * `"x_sim": {"task_ms": 300, "task": "fail"}` (wins) and the markers `[sim:task_ms=300]`,
 * `[sim:task=fail]` in `text` (a video's prompt, a song's prompt or description): how long the
 * task runs and how it ends. `textParam` names the field an invalid marker was found in.
 */
export function readTaskDirectives(xSim: unknown, text: string, textParam: string): TaskDirectivesResult {
  let durationMs: number | undefined;
  let outcome: TaskOutcome | undefined;
  for (const [, name, value = ''] of text.matchAll(markerPattern)) {
    if (name?.toLowerCase() === 'task_ms') {
      durationMs = parseDuration(value);
      if (durationMs === undefined) return { kind: 'invalid', param: textParam, message: `[sim:task_ms=${value}] must be ${durationRule}.` };
    } else {
      outcome = parseOutcome(value);
      if (!outcome) return { kind: 'invalid', param: textParam, message: `[sim:task=${value}] must be ${outcomeRule}.` };
    }
  }
  if (typeof xSim === 'object' && xSim !== null && !Array.isArray(xSim)) {
    const askedDuration: unknown = 'task_ms' in xSim ? xSim.task_ms : undefined;
    if (askedDuration !== undefined && askedDuration !== null) {
      durationMs = parseDuration(askedDuration);
      if (durationMs === undefined) return { kind: 'invalid', param: 'x_sim.task_ms', message: `x_sim.task_ms must be ${durationRule}.` };
    }
    const askedOutcome: unknown = 'task' in xSim ? xSim.task : undefined;
    if (askedOutcome !== undefined && askedOutcome !== null) {
      outcome = parseOutcome(askedOutcome);
      if (!outcome) return { kind: 'invalid', param: 'x_sim.task', message: `x_sim.task must be ${outcomeRule}.` };
    }
  }
  return { kind: 'directives', directives: { durationMs, outcome: outcome ?? 'succeed' } };
}
