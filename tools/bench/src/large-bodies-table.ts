import type { LargeBodyRow } from './report';
import { formatNumber } from './table';

const statusesOf = (row: LargeBodyRow): string =>
  Object.entries(row.statuses)
    .map(([status, count]) => `${count} × ${status}`)
    .join(', ');

/** One load on one line, for the progress log and the report. */
export function formatLargeBody(row: LargeBodyRow): string {
  const { healthz } = row;
  return (
    `${row.name}: ${row.callers} × ${row.perCaller} of ${formatNumber(row.bodyBytes / 1e6, 1)} MB → ${statusesOf(row)} in ` +
    `${formatNumber(row.seconds, 1)} s (request p50 ${formatNumber(row.requestP50Ms, 0)} ms, max ${formatNumber(row.requestMaxMs, 0)} ms); ` +
    `/healthz p50 ${formatNumber(healthz.p50Ms, 1)} ms, p99 ${formatNumber(healthz.p99Ms, 1)} ms, max ${formatNumber(healthz.maxMs, 1)} ms ` +
    `(${healthz.over100Ms} of ${healthz.samples} over 100 ms); event-loop delay max ${formatNumber(row.loopLagMaxMs, 0)} ms`
  );
}

/** The large-bodies block of the report. */
export function formatLargeBodies(rows: readonly LargeBodyRow[]): string[] {
  if (rows.length === 0) return [];
  return ['large bodies (a fresh relay; /healthz every 5 ms from a process of its own; goal: p99 ≤ 100 ms)', ...rows.map((row) => `- ${formatLargeBody(row)}`)];
}
