import {
  isTimeZone,
  LimitMetricSchema,
  LimitPeriodSchema,
  type LimitMetric,
  type LimitPeriod,
  type PeriodicLimit,
} from '@chat-relay/contract';
import { microToUsdInput, parseUsdToMicro } from './format';

/**
 * Periodic limits, time zone and alert thresholds as a token's and an account's forms hold them
 * (issue 32): what was typed, before it becomes the API's `periodic_limits`, `time_zone` and
 * `alert_thresholds`. Cost is typed in dollars and sent as micro-USD, like the lifetime quota.
 */
export interface LimitRowForm {
  period: LimitPeriod;
  metric: LimitMetric;
  /** Dollars for `cost`, a whole number for `requests` and `tokens`. */
  limit: string;
}

export interface LimitsForm {
  rows: LimitRowForm[];
  /** IANA name; empty = the relay's default (RELAY_LIMITS_TIME_ZONE, UTC when unset). */
  timeZone: string;
  /** "50, 80, 100"; empty = the relay's default; `none` = no alerts. */
  thresholds: string;
}

/** The API's fields these forms set, each as it is sent. */
export interface LimitsBody {
  periodic_limits: PeriodicLimit[];
  time_zone: string | null;
  alert_thresholds: number[] | null;
}

/** Which part of the form a problem is about, to name it by its label. */
export type LimitsField = 'periodicLimits' | 'timeZone' | 'alertThresholds';

export const LIMITS_FIELD_LABELS: Readonly<Record<LimitsField, string>> = {
  periodicLimits: 'Periodic limits',
  timeZone: 'Time zone',
  alertThresholds: 'Alert thresholds (%)',
};

export interface LimitsProblem {
  field: LimitsField;
  reason: string;
}

export type Parsed<T> = { ok: true; value: T } | { ok: false; problem: LimitsProblem };

export const EMPTY_LIMITS_FORM: LimitsForm = { rows: [], timeZone: '', thresholds: '' };

export const PERIOD_LABELS: Readonly<Record<LimitPeriod, string>> = { day: 'day', week: 'week', month: 'month' };
export const METRIC_LABELS: Readonly<Record<LimitMetric, string>> = { cost: 'Cost (USD)', requests: 'Requests', tokens: 'Tokens' };
export const PERIODS = LimitPeriodSchema.options;
export const METRICS = LimitMetricSchema.options;
const MAX_THRESHOLDS = 10;

/** A new row: the first period and metric not already limited (a day's cost first). */
export function nextLimitRow(rows: readonly LimitRowForm[]): LimitRowForm {
  for (const metric of METRICS) {
    for (const period of PERIODS) {
      if (!rows.some((row) => row.period === period && row.metric === metric)) return { period, metric, limit: '' };
    }
  }
  return { period: 'day', metric: 'cost', limit: '' };
}

/** An owner's limits as the form starts out: cost back in plain dollars. */
export function limitsFormOf(owner: { periodic_limits: readonly PeriodicLimit[]; time_zone: string | null; alert_thresholds: readonly number[] | null }): LimitsForm {
  return {
    rows: owner.periodic_limits.map((limit) => ({
      period: limit.period,
      metric: limit.metric,
      limit: limit.metric === 'cost' ? microToUsdInput(limit.limit) : String(limit.limit),
    })),
    timeZone: owner.time_zone ?? '',
    thresholds: owner.alert_thresholds === null ? '' : owner.alert_thresholds.length === 0 ? 'none' : owner.alert_thresholds.join(', '),
  };
}

const problem = <T>(field: LimitsField, reason: string): Parsed<T> => ({ ok: false, problem: { field, reason } });

/** One row's limit as the API takes it: micro-USD for cost, else a whole count above 0. */
function limitOfRow(row: LimitRowForm): number | string {
  const text = row.limit.trim();
  if (text === '') return 'enter a limit or remove the row';
  if (row.metric === 'cost') {
    try {
      const micro = parseUsdToMicro(text);
      return micro !== null && micro > 0 ? micro : 'the amount must be above $0';
    } catch (error) {
      return error instanceof Error ? error.message : String(error);
    }
  }
  if (!/^\d+$/.test(text) || Number(text) < 1) return `"${text}" is not a whole number above 0`;
  if (!Number.isSafeInteger(Number(text))) return `"${text}" is too large`;
  return Number(text);
}

/** The rows as `periodic_limits`: each limit checked, at most one per period and metric (row numbers from 1). */
export function parseLimitRows(rows: readonly LimitRowForm[]): Parsed<PeriodicLimit[]> {
  const limits: PeriodicLimit[] = [];
  const seen = new Set<string>();
  for (const [index, row] of rows.entries()) {
    const key = `${row.period}/${row.metric}`;
    if (seen.has(key)) return problem('periodicLimits', `row ${index + 1}: a second ${row.period} limit on ${row.metric}`);
    seen.add(key);
    const limit = limitOfRow(row);
    if (typeof limit === 'string') return problem('periodicLimits', `row ${index + 1} (${row.metric} per ${row.period}): ${limit}`);
    limits.push({ period: row.period, metric: row.metric, limit });
  }
  return { ok: true, value: limits };
}

/** "50, 80 100%" → [50, 80, 100] (sorted, no repeats); empty → null (the relay's default); `none` → [] (no alerts). */
export function parseThresholds(text: string): Parsed<number[] | null> {
  const trimmed = text.trim();
  if (trimmed === '') return { ok: true, value: null };
  if (/^none$/i.test(trimmed)) return { ok: true, value: [] };
  const values = new Set<number>();
  for (const part of trimmed.split(/[\s,;]+/).filter(Boolean)) {
    const number = part.replace(/%$/, '');
    if (!/^\d+$/.test(number) || Number(number) < 1 || Number(number) > 100) return problem('alertThresholds', `"${part}" is not a percentage from 1 to 100`);
    values.add(Number(number));
  }
  if (values.size > MAX_THRESHOLDS) return problem('alertThresholds', `at most ${MAX_THRESHOLDS} thresholds`);
  return { ok: true, value: [...values].sort((a, b) => a - b) };
}

/** An IANA time zone, checked by this browser as the relay checks it; empty → null (the relay's default). */
export function parseTimeZone(text: string): Parsed<string | null> {
  const trimmed = text.trim();
  if (trimmed === '') return { ok: true, value: null };
  return isTimeZone(trimmed) ? { ok: true, value: trimmed } : problem('timeZone', `"${trimmed}" is not an IANA time zone (e.g. UTC, Europe/Paris)`);
}

/** The whole form as the API's three fields, or the first thing to fix. */
export function parseLimitsForm(form: LimitsForm): Parsed<LimitsBody> {
  const rows = parseLimitRows(form.rows);
  if (!rows.ok) return rows;
  const timeZone = parseTimeZone(form.timeZone);
  if (!timeZone.ok) return timeZone;
  const thresholds = parseThresholds(form.thresholds);
  if (!thresholds.ok) return thresholds;
  return { ok: true, value: { periodic_limits: rows.value, time_zone: timeZone.value, alert_thresholds: thresholds.value } };
}

const rowsKey = (rows: readonly LimitRowForm[]): string => JSON.stringify(rows.map((row) => [row.period, row.metric, row.limit.trim()]));

/** Only the fields that differ from the form as it started (an edit sends what changed); `{}` when none. */
export function changedLimits(initial: LimitsForm, form: LimitsForm): Parsed<Partial<LimitsBody>> {
  const parsed = parseLimitsForm(form);
  if (!parsed.ok) return parsed;
  const body: Partial<LimitsBody> = {};
  if (rowsKey(initial.rows) !== rowsKey(form.rows)) body.periodic_limits = parsed.value.periodic_limits;
  if (initial.timeZone.trim() !== form.timeZone.trim()) body.time_zone = parsed.value.time_zone;
  if (initial.thresholds.trim() !== form.thresholds.trim()) body.alert_thresholds = parsed.value.alert_thresholds;
  return { ok: true, value: body };
}

/** The time zones this browser knows, for the field's suggestions (empty where the engine cannot list them). */
export function knownTimeZones(): string[] {
  const intl = Intl as typeof Intl & { supportedValuesOf?: (key: 'timeZone') => string[] };
  try {
    const zones = intl.supportedValuesOf?.('timeZone') ?? [];
    return zones.includes('UTC') ? zones : ['UTC', ...zones];
  } catch {
    return ['UTC'];
  }
}
