import { formatLargeBodies } from './large-bodies-table';
import { IDLE_SETTLE_MS, type BenchReport, type IdleRss, type LoadMeasurement, type Mode, type ReportRow, type SlowStreamsResult } from './report';

const dash = '—';
const modeOrder: readonly Mode[] = ['non-stream', 'stream', '64k', 'embeddings'];

/** Fixed decimals with thousands separators, or a dash when missing. */
export function formatNumber(value: number | undefined, decimals: number): string {
  if (value === undefined || !Number.isFinite(value)) return dash;
  return value.toLocaleString('en-US', { minimumFractionDigits: decimals, maximumFractionDigits: decimals });
}

/** Like formatNumber, with a sign: added latencies may be negative (noise) and should say so. */
export function formatSigned(value: number | undefined, decimals: number): string {
  const text = formatNumber(value, decimals);
  return value !== undefined && Number.isFinite(value) && value >= 0 ? `+${text}` : text;
}

export function formatMegabytes(bytes: number | undefined): string {
  return formatNumber(bytes === undefined ? undefined : bytes / (1024 * 1024), 1);
}

export function formatRatio(value: number | undefined): string {
  return value === undefined ? dash : `${formatNumber(value, 2)}×`;
}

interface Column {
  title: string;
  cell(row: ReportRow): string;
  alignLeft?: boolean;
}

const columns: readonly Column[] = [
  { title: 'target', cell: (row) => row.target, alignLeft: true },
  { title: 'RPS', cell: (row) => formatNumber(row.rps, 0) },
  { title: 'p50 ms', cell: (row) => formatNumber(row.p50Ms, 2) },
  { title: 'p99 ms', cell: (row) => formatNumber(row.p99Ms, 2) },
  { title: 'added p50', cell: (row) => formatSigned(row.addedP50Ms, 2) },
  { title: 'TTFB p50', cell: (row) => formatNumber(row.ttfbP50Ms, 2) },
  { title: 'added TTFB', cell: (row) => formatSigned(row.addedTtfbP50Ms, 2) },
  { title: 'CPU µs/req', cell: (row) => formatNumber(row.cpuMicrosPerRequest, 0) },
  { title: 'peak RSS MB', cell: (row) => formatMegabytes(row.peakRssBytes) },
  { title: '× floor', cell: (row) => formatRatio(row.ratioToFloor) },
  { title: '× express', cell: (row) => formatRatio(row.ratioToExpress) },
  { title: 'failed', cell: (row) => String(row.errors + row.non2xx) },
];

/** Rows as aligned text columns, a header line and a rule under it. */
export function formatRows(rows: readonly ReportRow[]): string[] {
  const cells = rows.map((row) => columns.map((column) => column.cell(row)));
  const widths = columns.map((column, index) => Math.max(column.title.length, ...cells.map((line) => line[index]?.length ?? 0)));
  const render = (line: readonly string[]): string =>
    line
      .map((cell, index) => {
        const width = widths[index] ?? cell.length;
        return columns[index]?.alignLeft ? cell.padEnd(width) : cell.padStart(width);
      })
      .join('  ')
      .trimEnd();
  const header = render(columns.map((column) => column.title));
  return [header, '-'.repeat(header.length), ...cells.map(render)];
}

/**
 * One target's slow streams on one line, named by the target. "Before" is read after the warm-up
 * streams, so the growth leaves out the first upstream call's one-time costs.
 */
export function formatSlowStreams(result: SlowStreamsResult): string {
  const growth =
    result.growthPerStreamBytes === undefined ? dash : `${formatNumber(result.growthPerStreamBytes / 1024, 1)} KB per stream`;
  const failures = result.failed > 0 ? `, ${result.failed} failed (first: ${result.firstFailure ?? 'unknown'})` : ', none dropped';
  return (
    `slow streams ${result.target}: ${result.completed}/${result.requested} completed${failures}; ` +
    `peak ${result.peakOpen} open at once (${result.msPerToken} ms/token × ${result.chunksPerStream} chunks, ` +
    `${formatNumber(result.seconds, 1)} s); RSS ${formatMegabytes(result.rssBeforeBytes)} MB after ` +
    `${result.warmupStreams} warm-up streams → ${formatMegabytes(result.rssPeakBytes)} MB at peak, ${growth}`
  );
}

/** Every target's slow-streams line, the relay's first; one line saying so when none ran. */
export function formatSlowStreamsLines(results: readonly SlowStreamsResult[]): string[] {
  return results.length === 0 ? ['slow streams: not run'] : results.map(formatSlowStreams);
}

/** Each target's RSS with no load on it, in the order the targets run. */
export function formatIdle(idle: readonly IdleRss[]): string {
  const figures = idle.map(({ target, rssBytes }) => `${target} ${formatMegabytes(rssBytes)} MB`);
  return `idle RSS (no load, ${IDLE_SETTLE_MS / 1000} s after the first requests): ${figures.join(', ')}`;
}

/** The whole human-readable report: one block per mode and concurrency, then the slow streams. */
export function formatReport(report: BenchReport): string {
  const { machine, settings } = report;
  const lines = [
    `chat-relay bench — ${machine.cpus} × ${machine.cpuModel}, Node ${machine.node}; before the run: CPUs ` +
      `${formatNumber(machine.busyBeforeRun === undefined ? undefined : machine.busyBeforeRun * 100, 0)} % busy, ` +
      `load average ${machine.loadAverageAtStart}`,
    (settings.prewarmSeconds > 0 ? `each target warmed ${settings.prewarmSeconds} s per workload first; ` : '') +
      `${settings.durationSeconds} s per load after ${settings.warmupSeconds} s warm-up` +
      (settings.slices > 1 ? `, in ${settings.slices} windows taken in turn across the targets` : '') +
      `; TTFB from ${settings.ttfbRequests} ` +
      'sequential stream requests; latencies in ms, added = minus the simulator alone (direct)',
  ];
  if (report.idle.length > 0) lines.push('', formatIdle(report.idle));
  const blocks = [...new Set(report.rows.map((row) => `${row.mode}|${row.connections}`))];
  blocks.sort((a, b) => {
    const [modeA = '', connectionsA = '0'] = a.split('|');
    const [modeB = '', connectionsB = '0'] = b.split('|');
    const byMode = modeOrder.indexOf(modeA as Mode) - modeOrder.indexOf(modeB as Mode);
    return byMode !== 0 ? byMode : Number(connectionsA) - Number(connectionsB);
  });
  for (const block of blocks) {
    const [mode = '', connections = ''] = block.split('|');
    const rows = report.rows.filter((row) => `${row.mode}|${row.connections}` === block);
    lines.push('', `${mode} · ${connections} connection${connections === '1' ? '' : 's'}`, ...formatRows(rows));
  }
  if (report.rows.length > 0 || report.slowStreams.length > 0) lines.push('', ...formatSlowStreamsLines(report.slowStreams));
  const largeBodies = formatLargeBodies(report.largeBodies);
  if (largeBodies.length > 0) lines.push('', ...largeBodies);
  if (report.notes.length > 0) lines.push('', 'notes:', ...report.notes.map((note) => `- ${note}`));
  return lines.join('\n');
}

/**
 * CPU µs a request of the target, the simulator behind it and the load generator: on shared
 * cores their sum is what a request costs the machine, and what the requests a second follow.
 */
export function cpuShares(measurement: Pick<LoadMeasurement, 'cpuMicrosPerRequest' | 'upstreamCpuMicrosPerRequest' | 'loadCpuMicrosPerRequest'>): string {
  const { cpuMicrosPerRequest: own, upstreamCpuMicrosPerRequest: upstream, loadCpuMicrosPerRequest: load } = measurement;
  if (own === undefined) return '';
  const parts = [`CPU µs/req ${formatNumber(own, 0)}`];
  if (upstream !== undefined) parts.push(`simulator ${formatNumber(upstream, 0)}`);
  if (load !== undefined) parts.push(`load generator ${formatNumber(load, 0)}`);
  return `; ${parts.join(', ')}`;
}
