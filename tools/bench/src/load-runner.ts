import autocannon from 'autocannon';
import { benchmarkPids } from './processes';
import { clockTicksPerSecond, foreignCpuShare, readCpuTicks, RssPeakSampler, snapshotCpu, waitUntilIdle } from './proc-stats';
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

export async function runLoad(target: Target, plan: LoadPlan): Promise<LoadMeasurement> {
  return (await runLoadWindowed(target, plan)).measurement;
}

/**
 * One load against one target: a warm-up (not measured), then the measured window. Latencies
 * come from autocannon's per-response event in fractional milliseconds, because its own
 * histogram keeps whole milliseconds — too coarse for sub-millisecond added latency. CPU is the
 * target process's utime + stime across the window, read once it has gone idle afterwards.
 */
export async function runLoadWindowed(target: Target, plan: LoadPlan): Promise<WindowedMeasurement> {
  if (plan.warmupSeconds > 0) await fire(target, plan, plan.warmupSeconds);
  await waitUntilIdle(target.pid);

  const latencies: number[] = [];
  const ticksBefore = readCpuTicks(target.pid);
  const cpuBefore = snapshotCpu(benchmarkPids());
  const rssSampler = new RssPeakSampler(target.pid);
  const fromMicros = nowMicros();
  const started = process.hrtime.bigint();
  const instance = fire(target, plan, plan.durationSeconds);
  instance.on('response', (_client, statusCode, _bytes, responseTime) => {
    if (Number(statusCode) >= 200 && Number(statusCode) < 300) latencies.push(responseTime);
  });
  const result = await instance;
  const elapsedSeconds = Number(process.hrtime.bigint() - started) / 1e9;
  const peakRssBytes = rssSampler.stop();
  const cpuAfter = snapshotCpu(benchmarkPids());
  await waitUntilIdle(target.pid);
  const ticks = difference(readCpuTicks(target.pid), ticksBefore);
  const toMicros = nowMicros();

  const { p50, p99 } = latencyPercentiles(latencies);
  const answered = result['2xx'] + result.non2xx;
  const measurement: LoadMeasurement = {
    target: target.id,
    mode: plan.mode,
    connections: plan.connections,
    requests: latencies.length,
    rps: latencies.length / elapsedSeconds,
    p50Ms: p50,
    p99Ms: p99,
    errors: result.errors,
    timeouts: result.timeouts,
    non2xx: result.non2xx,
    cpuMicrosPerRequest: cpuMicrosPerRequest(ticks, clockTicksPerSecond(), answered),
    peakRssBytes,
    foreignCpuShare: foreignCpuShare(cpuBefore, cpuAfter),
  };
  return { measurement, window: { fromMicros, toMicros } };
}
