// The text form of a --profile run (profile-row.ts): the two processes' load figures, then self
// time by module side by side, µs of CPU per request and % of the main thread's busy time.
import type { ProfileRowReport } from './profile-row';
import { formatNumber } from './table';

/** Rows of cells padded into columns: the first aligns left, the others right. */
function alignColumns(rows: readonly (readonly string[])[]): string[] {
  const widths: number[] = [];
  for (const row of rows) row.forEach((cell, index) => (widths[index] = Math.max(widths[index] ?? 0, cell.length)));
  return rows.map((row) =>
    row
      .map((cell, index) => (index === 0 ? cell.padEnd(widths[index] ?? 0) : cell.padStart(widths[index] ?? 0)))
      .join('  ')
      .trimEnd(),
  );
}

const percent = (value: number): string => `${formatNumber(value, 1)} %`;

export function formatProfileRow(report: ProfileRowReport): string {
  const { runs } = report;
  const perRun = (label: string, cell: (run: ProfileRowReport['runs'][number]) => string): string[] => [label, ...runs.flatMap((run) => [cell(run), ''])];
  const table = alignColumns([
    ['', ...runs.flatMap((run) => [run.target, ''])],
    perRun('requests/s', (run) => formatNumber(run.measurement.rps, 0)),
    perRun('p50 ms', (run) => formatNumber(run.measurement.p50Ms, 2)),
    perRun('CPU µs/req (/proc, all threads)', (run) => formatNumber(run.measurement.cpuMicrosPerRequest, 1)),
    perRun('non-idle µs/req (profile, wall clock)', (run) => formatNumber(run.sampledMicrosPerRequest, 1)),
    perRun('idle in the window', (run) => percent(run.idlePercent)),
    ['', ...runs.flatMap(() => ['µs/req', '% busy'])],
    ...report.modules.map((row) => [row.module, ...row.cells.flatMap((cell) => [formatNumber(cell.microsPerRequest, 1), percent(cell.percentOfBusy)])]),
  ]);
  const lines = [
    `profile of ${report.mode} · ${report.connections}: ${formatNumber(report.durationSeconds, 0)} s measured per target, ` +
      `load average at start ${report.loadAverageAtStart}`,
    'self time by module in the measured window (idle excluded); a module\'s µs/req is its share of the main thread\'s busy',
    'time × the process\'s CPU µs/req. The profile\'s non-idle time is wall clock: on a busy machine it counts time the',
    'thread was ready but not running, so it can exceed /proc\'s CPU time; the shares hold if that is spread evenly.',
    '',
    ...table.map((line) => `  ${line}`),
    '',
    ...runs.map((run) => `${run.target} profile: ${run.file ?? '—'} (${formatNumber(run.samples, 0)} samples, ${formatNumber(run.busyMs, 1)} ms busy${run.windowed ? '' : ', whole profile'})`),
  ];
  if (report.notes.length > 0) lines.push('', 'notes:', ...report.notes.map((note) => `  - ${note}`));
  return lines.join('\n');
}
