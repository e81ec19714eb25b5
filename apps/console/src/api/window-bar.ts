import type { LimitWindow } from '@chat-relay/contract';
import { formatCount, formatMicroUsd } from './format';

/** How full a window is: `warn` from 80 %, `full` at 100 % (the relay refuses the next request). */
export type WindowLevel = 'ok' | 'warn' | 'full';

export const WARN_RATIO = 0.8;

/** One window's bar, as the token and account views draw it. */
export interface WindowBar {
  /** "Cost per day". */
  label: string;
  used: string;
  limit: string;
  /** used / limit, not clamped (a window may end past its limit by the last request's cost). */
  ratio: number;
  /** The bar's width in percent, 0–100. */
  width: number;
  /** Whole percent, floored so 99.6 % does not read as full. */
  percent: number;
  level: WindowLevel;
  /** "resets in 5h 12m". */
  resetsIn: string;
  /** The reset in the browser's local time, for the hover. */
  resetsAtLocal: string;
}

const METRIC_WORDS = { cost: 'Cost', requests: 'Requests', tokens: 'Tokens' } as const;

/** A span as a person reads it, two units at most: `3d 4h`, `5h 12m`, `12m`, `under a minute`. */
export function formatSpan(ms: number): string {
  const minutes = Math.floor(Math.max(0, ms) / 60_000);
  if (minutes < 1) return 'under a minute';
  const days = Math.floor(minutes / 1440);
  const hours = Math.floor((minutes % 1440) / 60);
  const mins = minutes % 60;
  if (days > 0) return hours > 0 ? `${days}d ${hours}h` : `${days}d`;
  if (hours > 0) return mins > 0 ? `${hours}h ${mins}m` : `${hours}h`;
  return `${mins}m`;
}

export function levelOf(ratio: number): WindowLevel {
  return ratio >= 1 ? 'full' : ratio >= WARN_RATIO ? 'warn' : 'ok';
}

/** What a window's bar shows at `nowMs`. */
export function windowBarOf(window: LimitWindow, nowMs: number): WindowBar {
  const ratio = window.limit > 0 ? window.used / window.limit : 0;
  const amount = (value: number) => (window.metric === 'cost' ? formatMicroUsd(value) : formatCount(value));
  const resetsAt = new Date(window.resets_at);
  return {
    label: `${METRIC_WORDS[window.metric]} per ${window.period}`,
    used: amount(window.used),
    limit: amount(window.limit),
    ratio,
    width: Math.min(100, Math.max(0, ratio * 100)),
    percent: Math.floor(ratio * 100),
    level: levelOf(ratio),
    resetsIn: `resets in ${formatSpan(resetsAt.getTime() - nowMs)}`,
    resetsAtLocal: Number.isNaN(resetsAt.getTime()) ? window.resets_at : `${resetsAt.toLocaleString()} (counted in ${window.time_zone})`,
  };
}
