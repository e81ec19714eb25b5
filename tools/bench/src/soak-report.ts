import type { SoakMemory, SoakReport } from './soak';
import { formatMegabytes, formatNumber } from './table';

const memoryLine = (label: string, memory: SoakMemory): string =>
  `${label.padEnd(10)} before ${formatMegabytes(memory.before).padStart(7)}  peak ${formatMegabytes(memory.peak).padStart(7)}  ` +
  `after ${formatMegabytes(memory.after).padStart(7)}  idle ${formatMegabytes(memory.idle).padStart(7)}  ` +
  `idle after GC ${formatMegabytes(memory.idleAfterGc).padStart(7)}`;

/** The soak as text: requests, memory at each moment, notes. */
export function formatSoakReport(report: SoakReport): string {
  const { requests } = report;
  const byKind = Object.entries(requests.byKind)
    .map(([kind, counts]) => `${kind} ${counts.done}${counts.failed > 0 ? ` (${counts.failed} failed)` : ''}`)
    .join(', ');
  return [
    `soak: ${report.seconds} s of mixed load, ${report.connections} callers, then ${report.idleSeconds} s idle — ` +
      `${report.machine.cpus} CPUs, node ${report.machine.node}, load average ${report.machine.loadAverageAtStart} → ${report.machine.loadAverageAtEnd}`,
    `requests  ${requests.done} done, ${requests.failed} failed, ${formatNumber(requests.perSecond, 0)} per second: ${byKind}`,
    memoryLine('RSS MB', report.rss),
    memoryLine('heap MB', report.heapUsed),
    `relay ${report.aliveAfter ? 'still answering /healthz' : 'NOT answering /healthz'} after the idle wait`,
    ...report.notes.map((note) => `note: ${note}`),
  ].join('\n');
}
