import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

/**
 * utime + stime (fields 14 and 15 of `/proc/<pid>/stat`, in clock ticks). The command name in
 * field 2 is in parentheses and may itself hold spaces or parentheses, so fields are counted
 * from the last `)`.
 */
export function parseCpuTicks(statLine: string): number | undefined {
  const end = statLine.lastIndexOf(')');
  if (end < 0) return undefined;
  // After ")": field 3 (state) is index 0, so field N is index N - 3.
  const fields = statLine.slice(end + 1).trim().split(/\s+/);
  const utime = Number(fields[14 - 3]);
  const stime = Number(fields[15 - 3]);
  return Number.isInteger(utime) && Number.isInteger(stime) ? utime + stime : undefined;
}

/** A `kB` line of `/proc/<pid>/status` (`VmRSS`, `VmHWM`) in bytes. */
export function parseStatusBytes(status: string, field: 'VmRSS' | 'VmHWM'): number | undefined {
  const match = new RegExp(`^${field}:\\s+(\\d+)\\s+kB$`, 'm').exec(status);
  return match?.[1] === undefined ? undefined : Number(match[1]) * 1024;
}

function readProcFile(pid: number, name: string): string | undefined {
  try {
    return readFileSync(`/proc/${pid}/${name}`, 'utf8');
  } catch {
    return undefined; // Not Linux, or the process is gone.
  }
}

export function readCpuTicks(pid: number): number | undefined {
  const stat = readProcFile(pid, 'stat');
  return stat === undefined ? undefined : parseCpuTicks(stat);
}

export function readRssBytes(pid: number): number | undefined {
  const status = readProcFile(pid, 'status');
  return status === undefined ? undefined : parseStatusBytes(status, 'VmRSS');
}

/**
 * Process time (user + nice + system), total time of all CPUs and the time the hypervisor took
 * from them (steal: a virtual machine's CPUs running another guest), in clock ticks, from the first
 * line of `/proc/stat`: the same unit as a process's utime + stime.
 */
export function parseSystemCpu(stat: string): SystemCpu | undefined {
  const line = stat.split('\n').find((candidate) => candidate.startsWith('cpu '));
  if (!line) return undefined;
  const values = line.trim().split(/\s+/).slice(1).map(Number);
  if (values.length < 5 || values.some((value) => !Number.isFinite(value))) return undefined;
  // user nice system idle iowait irq softirq steal (guest time is already inside user).
  const total = values.slice(0, 8).reduce((sum, value) => sum + value, 0);
  return { busy: (values[0] ?? 0) + (values[1] ?? 0) + (values[2] ?? 0), total, stolen: values[7] ?? 0 };
}

export interface SystemCpu {
  busy: number;
  total: number;
  stolen: number;
}

function readSystemCpu(): SystemCpu | undefined {
  try {
    return parseSystemCpu(readFileSync('/proc/stat', 'utf8'));
  } catch {
    return undefined;
  }
}

/** Share of all CPUs busy over `ms` (before the run: is something else loading the machine?). */
export async function measureSystemBusy(ms = 1000): Promise<number | undefined> {
  const before = readSystemCpu();
  await new Promise((resolve) => setTimeout(resolve, ms));
  const after = readSystemCpu();
  if (!before || !after || after.total <= before.total) return undefined;
  return (after.busy - before.busy) / (after.total - before.total);
}

export interface CpuSnapshot {
  system: SystemCpu;
  /** utime + stime of the benchmark's own processes. */
  ours: number;
}

export function snapshotCpu(ourPids: readonly number[]): CpuSnapshot | undefined {
  const system = readSystemCpu();
  if (!system) return undefined;
  return { system, ours: ourPids.reduce((sum, pid) => sum + (readCpuTicks(pid) ?? 0), 0) };
}

/** Between two snapshots: ticks the processes outside the benchmark used, and the hypervisor took, of all CPUs' ticks. */
export interface ForeignTicks {
  foreign: number;
  /** Steal: time the machine's CPUs were running another guest of the host — no quiet machine then. */
  stolen: number;
  total: number;
}

/** Kept as ticks, not a share, so that a row's windows can be summed before dividing. */
export function foreignCpuTicks(before: CpuSnapshot | undefined, after: CpuSnapshot | undefined): ForeignTicks | undefined {
  if (!before || !after || after.system.total <= before.system.total) return undefined;
  const foreign = after.system.busy - before.system.busy - (after.ours - before.ours);
  return { foreign: Math.max(0, foreign), stolen: Math.max(0, after.system.stolen - before.system.stolen), total: after.system.total - before.system.total };
}

let cachedTicksPerSecond: number | undefined;

/** `getconf CLK_TCK`: the unit of the CPU times in `/proc/<pid>/stat` (100 on Linux, nearly always). */
export function clockTicksPerSecond(): number {
  if (cachedTicksPerSecond !== undefined) return cachedTicksPerSecond;
  let ticks = 100;
  try {
    const answer = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());
    if (Number.isInteger(answer) && answer > 0) ticks = answer;
  } catch {
    // getconf missing: keep Linux's usual 100.
  }
  cachedTicksPerSecond = ticks;
  return ticks;
}

/** Polls a process's VmRSS while a load runs and keeps the highest value seen. */
export class RssPeakSampler {
  private peak: number | undefined;
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly pid: number,
    intervalMs = 100,
  ) {
    this.sample();
    this.timer = setInterval(() => this.sample(), intervalMs);
  }

  /** Stops polling; the peak in bytes, or undefined when /proc could not be read. */
  stop(): number | undefined {
    clearInterval(this.timer);
    this.sample();
    return this.peak;
  }

  private sample(): void {
    const rss = readRssBytes(this.pid);
    if (rss !== undefined && (this.peak === undefined || rss > this.peak)) this.peak = rss;
  }
}

/**
 * Waits until the process has used at most one tick over `windowMs` (work deferred past the last
 * response, like batched usage writes, belongs to the requests that caused it), or `maxMs`.
 */
export async function waitUntilIdle(pid: number, windowMs = 200, maxMs = 3000): Promise<void> {
  const deadline = Date.now() + maxMs;
  let previous = readCpuTicks(pid);
  while (previous !== undefined && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, windowMs));
    const current = readCpuTicks(pid);
    if (current === undefined || current - previous <= 1) return;
    previous = current;
  }
}
