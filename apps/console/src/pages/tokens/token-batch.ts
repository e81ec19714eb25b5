import type { TokenBatch, TokenUpdate } from '@chat-relay/contract';
import { LIMITS_FIELD_LABELS, parseLimitsForm, type LimitsForm } from '../../api/limits-form';

export type BatchAction = Exclude<TokenBatch['action'], 'update'>;

interface BatchResult {
  action: TokenBatch['action'];
  results: ReadonlyArray<{ id: number; status: 'ok' | 'not_found' }>;
}

const DONE: Readonly<Record<TokenBatch['action'], string>> = { enable: 'Enabled', disable: 'Disabled', delete: 'Deleted', update: 'Updated' };

const tokens = (count: number): string => `${count} token${count === 1 ? '' : 's'}`;

/** What a batch did, in one sentence: "Disabled 2 tokens; 1 was not found (#9)." */
export function describeBatch(result: BatchResult): string {
  const done = result.results.filter((item) => item.status === 'ok');
  const missing = result.results.filter((item) => item.status === 'not_found');
  const sentence = `${DONE[result.action]} ${tokens(done.length)}`;
  if (missing.length === 0) return `${sentence}.`;
  const ids = missing.map((item) => `#${item.id}`).join(', ');
  return `${sentence}; ${missing.length === 1 ? '1 was' : `${missing.length} were`} not found (${ids}).`;
}

/** The question asked before deleting: the keys stop working at once and cannot be brought back. */
export const deleteQuestion = (count: number): string =>
  `Delete ${tokens(count)}? Their keys stop working at once; this cannot be undone.`;

/** Which of the limits fields a batch edit sets on every selected token (the others stay as each token has them). */
export interface BatchLimitsChoice {
  periodicLimits: boolean;
  timeZone: boolean;
  alertThresholds: boolean;
}

/**
 * The `update` of a batch that sets periodic limits, time zone and/or alert thresholds on the
 * selected tokens: only the chosen fields, each replacing the token's own (an empty list of
 * limits removes them); an error naming the field, or that nothing was chosen.
 */
export function batchLimitsUpdateOf(form: LimitsForm, choice: BatchLimitsChoice): { ok: true; update: TokenUpdate } | { ok: false; error: string } {
  const parsed = parseLimitsForm({
    rows: choice.periodicLimits ? form.rows : [],
    timeZone: choice.timeZone ? form.timeZone : '',
    thresholds: choice.alertThresholds ? form.thresholds : '',
  });
  if (!parsed.ok) return { ok: false, error: `${LIMITS_FIELD_LABELS[parsed.problem.field]}: ${parsed.problem.reason}` };
  const update: TokenUpdate = {};
  if (choice.periodicLimits) update.periodic_limits = parsed.value.periodic_limits;
  if (choice.timeZone) update.time_zone = parsed.value.time_zone;
  if (choice.alertThresholds) update.alert_thresholds = parsed.value.alert_thresholds;
  if (Object.keys(update).length === 0) return { ok: false, error: 'Choose what to set on the selected tokens.' };
  return { ok: true, update };
}
