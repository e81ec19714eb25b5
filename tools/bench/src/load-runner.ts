import autocannon from 'autocannon';
import { benchmarkPids } from './processes';
import { clockTicksPerSecond, foreignCpuTicks, readCpuTicks, RssPeakSampler, snapshotCpu, waitUntilIdle, type ForeignTicks } from './proc-stats';
import type { LoadMeasurement, Mode, TargetId } from './report';
import { cpuMicrosPerRequest, difference, latencyPercentiles } from './stats';
import type { Endpoint } from './workloads';

/** Where a target listens, what it needs in headers, and which process does its work. */
export interface Target {
  id: TargetId;
  /** Its chat completions URL. */
  url: string;
  /** Its embeddings URL; undefined when it routes only chat, so it has no embeddings row. */
  embeddingsUrl: string | undefined;
  headers: Record<string, string>;
  /** The process whose CPU and memory the row reports. */
  pid: number;
  /**
   * The simulator behind it, when it is a separate process (not for `direct`): its CPU a request
   * is reported beside the target's, since on a shared machine what a target asks of its upstream
   * is CPU the target does not get (the relay's `include_usage`, one more chunk a stream).
   */
  upstreamPid?: number;
}

/** The URL a target takes a workload's endpoint on, if it takes it at all. */
export function urlFor(target: Target, endpoint: Endpoint): string | undefined {
  return endpoint === 'chat' ? target.url : target.embeddingsUrl;
}

export interface LoadPlan {
  mode: Mode;
  /** The target's URL for the mode's endpoint (see urlFor). */
  url: string;
  body: string;
  connections: number;
  durationSeconds: number;
  warmupSeconds: number;
}

function fire(target: Target, plan: LoadPlan, duration: number): autocannon.Instance {
  return autocannon({
    url: plan.url,
    method: 'POST',
    headers: { 'content-type': 'application/json', ...target.headers },
    body: plan.body,
    connections: plan.connections,
    duration,
    timeout: 10,
    // autocannon checks for the end of `duration` only when it samples (every second by
    // default), so a 0.3 s warm-up would run a whole second.
    sampleInt: 100,
  });
}

/** µs of CLOCK_MONOTONIC (`process.hrtime`), the clock of a V8 profile's timestamps on Linux. */
function nowMicros(): number {
  return Number(process.hrtime.bigint() / 1000n);
}

/** A load and when its measured window began and ended (µs, see nowMicros), for cutting a profile to it. */
export interface WindowedMeasurement {
  measurement: LoadMeasurement;
  window: { fromMicros: number; toMicros: number };
}

/** What one measured window of a load read, before the windows of a row are summed (see summariseWindows). */
export interface LoadWindow {
  /** Fractional ms of each 2xx response. */
  latencies: number[];
  elapsedSeconds: number;
  errors: number;
  timeouts: number;
  non2xx: number;
  /** Answers autocannon counted, 2xx or not: what the window's CPU is divided by. */
  answered: number;
  /** The target's utime + stime across the window, read once it went idle after it. */
  ticks: number | undefined;
  /** The simulator's behind it (Target.upstreamPid), read at the same moments; undefined without one. */
  upstreamTicks: number | undefined;
  /** This process's: the load generator (autocannon runs in it), reading the target's answers. */
  loadTicks: number | undefined;
  peakRssBytes: number | undefined;
  foreignTicks: ForeignTicks | undefined;
  fromMicros: number;
  toMicros: number;
}

/** Load the target is not measured on: its JIT and pools reach their steady state first. */
export async function warmUp(target: Target, plan: LoadPlan): Promise<void> {
  if (plan.warmupSeconds > 0) await fire(target, plan, plan.warmupSeconds);
}

/**
 * One measured window of `seconds` against one target, started once it is idle. Latencies come
 * from autocannon's per-response event in fractional milliseconds, because its own histogram
 * keeps whole milliseconds — too coarse for sub-millisecond added latency. CPU is the target
 * process's utime + stime across the window, read once it has gone idle afterwards.
 */
export async function measureWindow(target: Target, plan: LoadPlan, seconds: number): Promise<LoadWindow> {
  await waitUntilIdle(target.pid);
  const latencies: number[] = [];
  const ticksBefore = readCpuTicks(target.pid);
  const upstreamBefore = target.upstreamPid === undefined ? undefined : readCpuTicks(target.upstreamPid);
  const loadBefore = readCpuTicks(process.pid);
  const cpuBefore = snapshotCpu(benchmarkPids());
  const rssSampler = new RssPeakSampler(target.pid);
  const fromMicros = nowMicros();
  const started = process.hrtime.bigint();
  const instance = fire(target, plan, seconds);
  instance.on('response', (_client, statusCode, _bytes, responseTime) => {
    if (Number(statusCode) >= 200 && Number(statusCode) < 300) latencies.push(responseTime);
  });
  const result = await instance;
  const elapsedSeconds = Number(process.hrtime.bigint() - started) / 1e9;
  const peakRssBytes = rssSampler.stop();
  const foreignTicks = foreignCpuTicks(cpuBefore, snapshotCpu(benchmarkPids()));
  const loadTicks = difference(readCpuTicks(process.pid), loadBefore);
  await waitUntilIdle(target.pid);
  const ticks = difference(readCpuTicks(target.pid), ticksBefore);
  const upstreamTicks = target.upstreamPid === undefined ? undefined : difference(readCpuTicks(target.upstreamPid), upstreamBefore);
  return {
    latencies,
    elapsedSeconds,
    errors: result.errors,
    timeouts: result.timeouts,
    non2xx: result.non2xx,
    answered: result['2xx'] + result.non2xx,
    ticks,
    upstreamTicks,
    loadTicks,
    peakRssBytes,
    foreignTicks,
    fromMicros,
    toMicros: nowMicros(),
  };
}

/** The sum, or undefined when any value is: one reading missing makes the total unknown. */
function sumKnown(values: readonly (number | undefined)[]): number | undefined {
  let sum = 0;
  for (const value of values) {
    if (value === undefined) return undefined;
    sum += value;
  }
  return sum;
}

/**
 * One row's measurement of a target from its windows: rates over their summed time, CPU over
 * their summed requests, percentiles over every latency, the highest RSS any window saw.
 */
export function summariseWindows(target: TargetId, plan: Pick<LoadPlan, 'mode' | 'connections'>, windows: readonly LoadWindow[]): LoadMeasurement {
  const latencies = windows.flatMap((window) => window.latencies);
  const elapsedSeconds = windows.reduce((sum, window) => sum + window.elapsedSeconds, 0);
  const errors = windows.reduce((sum, window) => sum + window.errors, 0);
  const non2xx = windows.reduce((sum, window) => sum + window.non2xx, 0);
  const peaks = windows.map((window) => window.peakRssBytes).filter((peak): peak is number => peak !== undefined);
  const foreign = windows.map((window) => window.foreignTicks);
  const foreignSum = sumKnown(foreign.map((ticks) => ticks?.foreign));
  const stolenSum = sumKnown(foreign.map((ticks) => ticks?.stolen));
  const totalSum = sumKnown(foreign.map((ticks) => ticks?.total));
  const { p50, p99 } = latencyPercentiles(latencies);
  const answered = windows.reduce((sum, window) => sum + window.answered, 0);
  const perRequest = (ticks: readonly (number | undefined)[]) => cpuMicrosPerRequest(sumKnown(ticks), clockTicksPerSecond(), answered);
  return {
    target,
    mode: plan.mode,
    connections: plan.connections,
    requests: latencies.length,
    rps: elapsedSeconds > 0 ? latencies.length / elapsedSeconds : 0,
    p50Ms: p50,
    p99Ms: p99,
    errors,
    timeouts: windows.reduce((sum, window) => sum + window.timeouts, 0),
    non2xx,
    cpuMicrosPerRequest: perRequest(windows.map((window) => window.ticks)),
    upstreamCpuMicrosPerRequest: perRequest(windows.map((window) => window.upstreamTicks)),
    loadCpuMicrosPerRequest: perRequest(windows.map((window) => window.loadTicks)),
    peakRssBytes: peaks.length === windows.length && peaks.length > 0 ? Math.max(...peaks) : undefined,
    foreignCpuShare: foreignSum === undefined || totalSum === undefined || totalSum <= 0 ? undefined : foreignSum / totalSum,
    stolenCpuShare: stolenSum === undefined || totalSum === undefined || totalSum <= 0 ? undefined : stolenSum / totalSum,
  };
}

/** One load against one target: a warm-up (not measured), then one measured window. */
export async function runLoadWindowed(target: Target, plan: LoadPlan): Promise<WindowedMeasurement> {
  await warmUp(target, plan);
  const window = await measureWindow(target, plan, plan.durationSeconds);
  return { measurement: summariseWindows(target.id, plan, [window]), window: { fromMicros: window.fromMicros, toMicros: window.toMicros } };
}
