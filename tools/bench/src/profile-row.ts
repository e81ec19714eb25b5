// `--profile=<mode>:<connections>` (issue 30): one row of the table against the bare Express proxy
// and the relay, both under --cpu-prof; each profile is cut to its measured load and its self time
// attributed by module, in CPU µs per request (from /proc) and % of the main thread's busy time.
import { readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import type { BenchOptions } from './cli-options';
import { parseCpuProfile } from './cpu-profile';
import { relayLocator, waitForProfile } from './cpu-profile-files';
import { compareModules, moduleTable, sampledMicrosPerRequest, type ModuleComparisonRow, type ProfiledProcess } from './cpu-profile-modules';
import { runLoadWindowed, type WindowedMeasurement } from './load-runner';
import { preflight } from './preflight';
import { measureSystemBusy } from './proc-stats';
import { stolenNote, type LoadMeasurement, type Mode } from './report';
import { bundles, cpuProfileDirs, startStack, type Stack } from './stack';
import { buildWorkloads, embeddingInputCount, expectedStreamChunks } from './workloads';

/** The two processes compared, in column order. */
const profiledTargets = ['express', 'relay'] as const;
type ProfiledTarget = (typeof profiledTargets)[number];

export interface ProfiledRun {
  target: ProfiledTarget;
  file: string | undefined;
  /** False when the profile was not cut to the measured load (the window missed it): whole-run figures. */
  windowed: boolean;
  samples: number;
  busyMs: number;
  idlePercent: number;
  /** What the main thread's samples add up to per request, beside /proc's whole-process figure. */
  sampledMicrosPerRequest: number | undefined;
  measurement: LoadMeasurement;
}

export interface ProfileRowReport {
  mode: Mode;
  connections: number;
  durationSeconds: number;
  loadAverageAtStart: string;
  /** Share of the CPUs other processes kept busy just before the run. */
  busyBeforeRun: number | undefined;
  runs: ProfiledRun[];
  /** Per module, one cell per run in `runs` order. */
  modules: ModuleComparisonRow[];
  notes: string[];
}

interface Measured {
  target: ProfiledTarget;
  load: WindowedMeasurement;
}

async function measureTargets(stack: Stack, options: BenchOptions, mode: Mode, connections: number, notes: string[], log: (line: string) => void): Promise<Measured[]> {
  const workloads = buildWorkloads();
  const measured: Measured[] = [];
  for (const id of profiledTargets) {
    const target = stack.targets.find((candidate) => candidate.id === id);
    if (!target) throw new Error(`the stack has no ${id} target`);
    const { problems } = await preflight(target, workloads, { streamChunks: expectedStreamChunks, vectors: embeddingInputCount });
    if (problems.length > 0) throw new Error(`${id} answers wrongly: ${problems.join('; ')}`);
    const load = await runLoadWindowed(target, {
      mode,
      url: target.url,
      body: workloads[mode].body,
      connections,
      durationSeconds: options.durationSeconds,
      warmupSeconds: options.warmupSeconds,
    });
    const { measurement } = load;
    const failed = measurement.errors + measurement.non2xx;
    if (failed > 0) notes.push(`${id}: ${measurement.errors} errors (${measurement.timeouts} timeouts), ${measurement.non2xx} non-2xx`);
    const foreign = measurement.foreignCpuShare ?? 0;
    if (foreign > 0.05) notes.push(`${id}: other processes used ${Math.round(foreign * 100)} % of the CPUs during its load`);
    const stolen = stolenNote(measurement);
    if (stolen) notes.push(`${id}: ${stolen}`);
    log(`${mode} c=${connections} ${id}: ${Math.round(measurement.rps)} rps, ${Math.round(measurement.cpuMicrosPerRequest ?? NaN)} CPU µs/req`);
    measured.push({ target: id, load });
  }
  return measured;
}

/** A stopped process's profile, cut to its measured load and attributed by module. */
async function attribute(root: string, dir: string, sinceMs: number, measured: Measured): Promise<{ run: ProfiledRun; profiled: ProfiledProcess }> {
  const { target, load } = measured;
  const { measurement } = load;
  const requests = measurement.requests + measurement.non2xx;
  const file = await waitForProfile(dir, sinceMs);
  if (!file) throw new Error(`no .cpuprofile from ${target} appeared in ${dir}`);
  const profile = parseCpuProfile(JSON.parse(readFileSync(file, 'utf8')));
  const script = target === 'relay' ? bundles.relay : bundles.express;
  const table = moduleTable(profile, { locate: relayLocator(root, script), relayScript: target === 'relay' ? script : undefined, window: load.window });
  const profiled: ProfiledProcess = { label: target, table, cpuMicrosPerRequest: measurement.cpuMicrosPerRequest, requests };
  const run: ProfiledRun = {
    target,
    file,
    windowed: table.windowed,
    samples: table.samples,
    busyMs: Math.round(table.busyMicros / 100) / 10,
    idlePercent: table.sampledMicros > 0 ? Math.round((table.idleMicros / table.sampledMicros) * 1000) / 10 : 0,
    sampledMicrosPerRequest: sampledMicrosPerRequest(profiled),
    measurement,
  };
  return { run, profiled };
}

/**
 * Starts the usual stack with the Express proxy and the relay profiled, loads the row on each,
 * stops everything (`stopAll`: so the profiles are written) and attributes both profiles.
 */
export async function runProfileRow(
  root: string,
  options: BenchOptions,
  stopAll: () => Promise<void>,
  log: (line: string) => void,
): Promise<ProfileRowReport> {
  const row = options.profileRow;
  if (!row) throw new Error('runProfileRow needs --profile=<mode>:<connections>');
  const started = Date.now();
  const busyBeforeRun = await measureSystemBusy();
  const loadAverageAtStart = os.loadavg().map((load) => load.toFixed(2)).join(' ');
  const notes: string[] = [];
  const stack = await startStack(root, options, log);
  const measured = await measureTargets(stack, options, row.mode, row.connections, notes, log);
  await stopAll();
  for (const dir of stack.tempDirs) rmSync(dir, { recursive: true, force: true });
  const dirs = cpuProfileDirs(root, options);
  const attributed = [];
  for (const entry of measured) {
    const dir = dirs[entry.target];
    if (!dir) throw new Error(`no profile directory for ${entry.target}`);
    attributed.push(await attribute(root, dir, started, entry));
  }
  for (const { run } of attributed) {
    if (!run.windowed) notes.push(`${run.target}: the measured window missed the profile's clock; the whole profile is attributed (start-up and warm-up included)`);
  }
  if (busyBeforeRun !== undefined && busyBeforeRun > 0.1) {
    notes.push(`other processes kept the CPUs ${Math.round(busyBeforeRun * 100)} % busy just before the run: figures are noisier`);
  }
  return {
    mode: row.mode,
    connections: row.connections,
    durationSeconds: options.durationSeconds,
    loadAverageAtStart,
    busyBeforeRun,
    runs: attributed.map(({ run }) => run),
    modules: compareModules(attributed.map(({ profiled }) => profiled)),
    notes,
  };
}
