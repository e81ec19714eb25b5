import type { LimitPeriod } from '@chat-relay/contract';

/**
 * Calendar windows of the periodic limits (issue 32): a day, a week (Monday first, as ISO 8601)
 * or a month, in an IANA time zone. A window is named by its first local day (`YYYY-MM-DD`):
 * its key in storage, so a new window starts empty with no job to reset it.
 */
export interface CalendarWindow {
  period: LimitPeriod;
  timeZone: string;
  /** The window's first local day, `YYYY-MM-DD`: its key. */
  start: string;
  /** Epoch ms of the window's first instant (local midnight of `start`). */
  startsAtMs: number;
  /** Epoch ms of the next window's first instant. */
  resetsAtMs: number;
}

/** The relay's time: `Date.now` in production, a clock a spec moves in tests (a day passes in a spec). */
export type Clock = () => number;
export const systemClock: Clock = () => Date.now();

interface LocalDay {
  year: number;
  /** 1–12. */
  month: number;
  day: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterOf(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    // Zones are few (the operator's); bounded all the same.
    if (formatters.size >= 1000) formatters.clear();
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/** The zone's offset from UTC at `atMs`, in ms (positive east of Greenwich). */
function offsetMs(timeZone: string, atMs: number): number {
  // UTC needs no ICU (its zone data is ~7 MB of the process once touched) and no formatting.
  if (timeZone === 'UTC') return 0;
  const parts = formatterOf(timeZone).formatToParts(new Date(atMs));
  const value = (type: Intl.DateTimeFormatPartTypes): number => Number(parts.find((part) => part.type === type)?.value ?? 0);
  const asUtc = Date.UTC(value('year'), value('month') - 1, value('day'), value('hour'), value('minute'), value('second'));
  return asUtc - Math.floor(atMs / 1000) * 1000;
}

function localDayAt(timeZone: string, atMs: number): LocalDay {
  const local = new Date(atMs + offsetMs(timeZone, atMs));
  return { year: local.getUTCFullYear(), month: local.getUTCMonth() + 1, day: local.getUTCDate() };
}

/**
 * Epoch ms of local midnight starting `day` in the zone. Where a DST change skips midnight, the
 * first instant of that day.
 */
function midnightOf(timeZone: string, day: LocalDay): number {
  const naive = Date.UTC(day.year, day.month - 1, day.day);
  let guess = naive - offsetMs(timeZone, naive);
  // Twice: the offset at the guess may differ from the offset at the naive instant (a DST change in between).
  guess = naive - offsetMs(timeZone, guess);
  const again = naive - offsetMs(timeZone, guess);
  // Midnight skipped (the clock went from 23:59:59 to 01:00): the first instant of the day is later.
  return Math.max(guess, again);
}

/** `day` moved by `days` (calendar arithmetic, any length of month). */
function addDays(day: LocalDay, days: number): LocalDay {
  const moved = new Date(Date.UTC(day.year, day.month - 1, day.day + days));
  return { year: moved.getUTCFullYear(), month: moved.getUTCMonth() + 1, day: moved.getUTCDate() };
}

function firstDayOf(period: LimitPeriod, day: LocalDay): LocalDay {
  if (period === 'day') return day;
  if (period === 'month') return { year: day.year, month: day.month, day: 1 };
  // ISO weeks start on Monday: getUTCDay() is 0 for Sunday.
  const weekday = new Date(Date.UTC(day.year, day.month - 1, day.day)).getUTCDay();
  return addDays(day, -((weekday + 6) % 7));
}

function nextFirstDay(period: LimitPeriod, first: LocalDay): LocalDay {
  if (period === 'day') return addDays(first, 1);
  if (period === 'week') return addDays(first, 7);
  return first.month === 12 ? { year: first.year + 1, month: 1, day: 1 } : { year: first.year, month: first.month + 1, day: 1 };
}

const iso = (day: LocalDay): string => `${day.year}-${String(day.month).padStart(2, '0')}-${String(day.day).padStart(2, '0')}`;

/** The window of `period` in `timeZone` that holds the instant `atMs`. */
export function calendarWindow(period: LimitPeriod, timeZone: string, atMs: number): CalendarWindow {
  let first = firstDayOf(period, localDayAt(timeZone, atMs));
  let startsAtMs = midnightOf(timeZone, first);
  // Just after a skipped midnight, the local day may read as the one before: step to the right window.
  if (atMs < startsAtMs) {
    first = firstDayOf(period, addDays(first, -1));
    startsAtMs = midnightOf(timeZone, first);
  }
  return { period, timeZone, start: iso(first), startsAtMs, resetsAtMs: midnightOf(timeZone, nextFirstDay(period, first)) };
}

const current = new Map<string, CalendarWindow>();

/**
 * {@link calendarWindow} for the hot path: the window last worked out for the period and zone is
 * kept until the clock leaves it, so a request costs a map lookup, not a time-zone conversion.
 */
export function currentWindow(period: LimitPeriod, timeZone: string, nowMs: number): CalendarWindow {
  const key = `${period}|${timeZone}`;
  const known = current.get(key);
  if (known && nowMs >= known.startsAtMs && nowMs < known.resetsAtMs) return known;
  const window = calendarWindow(period, timeZone, nowMs);
  if (current.size >= 3000) current.clear();
  current.set(key, window);
  return window;
}

/** Whole seconds until the window resets (at least 1): a refusal's Retry-After. */
export function secondsToReset(window: CalendarWindow, nowMs: number): number {
  return Math.max(1, Math.ceil((window.resetsAtMs - nowMs) / 1000));
}
