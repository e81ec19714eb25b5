// The text form of a CPU profile summary (cpu-profile.ts computes it): aligned columns for a
// terminal, as the benchmark prints it after a --cpu-prof run.
import type { ProfileSummary } from './cpu-profile';
import { formatNumber } from './table';

/** Rows of cells padded into columns; the columns listed in `left` align left, the others right. */
function alignColumns(rows: readonly (readonly string[])[], left: ReadonlySet<number>): string[] {
  const widths: number[] = [];
  for (const row of rows) row.forEach((cell, index) => (widths[index] = Math.max(widths[index] ?? 0, cell.length)));
  return rows.map((row) =>
    row
      .map((cell, index) => (left.has(index) ? cell.padEnd(widths[index] ?? 0) : cell.padStart(widths[index] ?? 0)))
      .join('  ')
      .trimEnd(),
  );
}

const percent = (value: number | undefined): string => (value === undefined ? '' : `${formatNumber(value, 1)} %`);
const millis = (value: number): string => `${formatNumber(value, 1)} ms`;

/** The summary as text lines: a header, the top functions, the largest groups, then the stages. */
export function formatProfileSummary(summary: ProfileSummary, title: string, maxGroups = 30): string[] {
  const shownGroups = summary.groups.slice(0, maxGroups);
  const hiddenGroups = summary.groups.slice(maxGroups);
  const lines = [
    `${title}: ${millis(summary.totalMs)} sampled (${formatNumber(summary.samples, 0)} samples), idle ${percent(summary.idlePercent)}; ` +
      `of non-idle time, GC ${percent(summary.gcPercentOfBusy)} and (program) ${percent(summary.programPercentOfBusy)}`,
    '',
    `top ${summary.topFunctions.length} functions by self time (% of non-idle time):`,
    ...alignColumns(
      summary.topFunctions.map((fn) => [percent(fn.percentOfBusy), millis(fn.selfMs), fn.functionName, fn.location, fn.group]),
      new Set([2, 3, 4]),
    ).map((line) => `  ${line}`),
    '',
    'self time by group (% of all, % of non-idle):',
    ...alignColumns(
      shownGroups.map((group) => [group.group, millis(group.selfMs), percent(group.percentOfTotal), percent(group.percentOfBusy)]),
      new Set([0]),
    ).map((line) => `  ${line}`),
  ];
  if (hiddenGroups.length > 0) {
    const hiddenMs = hiddenGroups.reduce((sum, group) => sum + group.selfMs, 0);
    lines.push(`  … ${hiddenGroups.length} more groups, ${millis(hiddenMs)} together`);
  }
  if (summary.stages.length > 0) {
    lines.push(
      '',
      'relay stages, inclusive on-CPU time (% of non-idle; what an async stage awaits is not counted):',
      ...alignColumns(
        summary.stages.map((stage) => [stage.label, millis(stage.inclusiveMs), percent(stage.percentOfBusy), stage.functionNames.join(', ')]),
        new Set([0, 3]),
      ).map((line) => `  ${line}`),
    );
  }
  return lines;
}
