const HOUR_MS = 3_600_000;

/** A half-open time range, ISO strings: `from` included, `to` excluded. */
export interface TimeSpan {
  from: string;
  to: string;
}

/**
 * How an aggregate over [from, to) is read: the whole UTC hours inside it from the hourly rollup
 * (`hours`, none when the range holds no whole hour) and the partial hours at its ends from the
 * raw log (`raw`, each shorter than an hour, so a few rows of an index range). The ends keep the
 * caller's own strings, so the raw log is compared exactly as the plain query compared it.
 */
export function aggregateSpans(from: string, to: string): { hours: TimeSpan | null; raw: TimeSpan[] } {
  const start = Date.parse(from);
  const end = Date.parse(to);
  const firstHour = Math.ceil(start / HOUR_MS) * HOUR_MS;
  const lastHour = Math.floor(end / HOUR_MS) * HOUR_MS;
  if (!(firstHour < lastHour)) return { hours: null, raw: start < end ? [{ from, to }] : [] };
  const raw: TimeSpan[] = [];
  if (start < firstHour) raw.push({ from, to: new Date(firstHour).toISOString() });
  if (lastHour < end) raw.push({ from: new Date(lastHour).toISOString(), to });
  return { hours: { from: new Date(firstHour).toISOString(), to: new Date(lastHour).toISOString() }, raw };
}
