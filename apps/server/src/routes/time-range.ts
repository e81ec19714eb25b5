import { invalidRequest } from '@chat-relay/wire';

const DAY_MS = 86_400_000;

/** Normalised to `toISOString()` so that range bounds compare as strings with stored times. */
const normalise = (iso: string): string => new Date(iso).toISOString();

/**
 * A `[from, to)` range from optional query bounds: `to` defaults to now, `from` to `defaultDays`
 * before `to`. An empty or inverted range is a caller mistake (400), not an empty answer.
 */
export function timeRange(from: string | undefined, to: string | undefined, defaultDays: number): { from: string; to: string } {
  const end = to === undefined ? new Date().toISOString() : normalise(to);
  const start = from === undefined ? new Date(Date.parse(end) - defaultDays * DAY_MS).toISOString() : normalise(from);
  if (start >= end) throw invalidRequest(`'from' (${start}) must be before 'to' (${end}).`, 'from', 'invalid_value');
  return { from: start, to: end };
}

/** Optional bounds of a filter: normalised, and refused when inverted. */
export function optionalTimeRange(from: string | undefined, to: string | undefined): { from?: string; to?: string } {
  if (from !== undefined && to !== undefined) return timeRange(from, to, 0);
  return { from: from === undefined ? undefined : normalise(from), to: to === undefined ? undefined : normalise(to) };
}
