// Self time of a V8 `.cpuprofile` by module (issue 30's list, cpu-profile-module-of.ts), over a
// window of the profile, and two processes' tables side by side in CPU µs per request. Pure: the
// profile, the locator and the /proc figures come from the caller.
import { pseudoFrames, sampleWeights, type CallFrame, type CpuProfile, type Locator } from './cpu-profile';
import { moduleNames, moduleOfFrame, type ModuleName } from './cpu-profile-module-of';

/** µs on the clock of the profile's timestamps (CLOCK_MONOTONIC on Linux, as `process.hrtime`). */
export interface ProfileWindow {
  fromMicros: number;
  toMicros: number;
}

export interface ModuleTableOptions {
  locate?: Locator;
  /** The bundle's path, matched as the end of a frame's URL: its unmapped frames count as `other relay`. */
  relayScript?: string;
  /** Only samples taken in this window; the whole profile when absent or when it misses the profile. */
  window?: ProfileWindow;
}

export interface ModuleRow {
  module: ModuleName;
  selfMicros: number;
  /** Share of non-idle time in the window. */
  percentOfBusy: number;
}

export interface ModuleTable {
  /** Whether the samples were cut to the window asked for. */
  windowed: boolean;
  samples: number;
  sampledMicros: number;
  idleMicros: number;
  busyMicros: number;
  /** Every module, in moduleNames order, zeros included. */
  rows: ModuleRow[];
}

const pseudoModules: Readonly<Record<string, ModuleName | 'idle'>> = {
  [pseudoFrames.idle]: 'idle',
  [pseudoFrames.gc]: 'GC',
  [pseudoFrames.program]: '(program)',
  [pseudoFrames.root]: 'other',
};

/** Each node's module: its own frame's, or (natives, wasm) its caller's. */
function modulesOfNodes(profile: CpuProfile, options: ModuleTableOptions): Map<number, ModuleName | 'idle'> {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const childIds = new Set(profile.nodes.flatMap((node) => node.children ?? []));
  const modules = new Map<number, ModuleName | 'idle'>();
  const ownModule = (frame: CallFrame): ModuleName | 'idle' | undefined => {
    if (frame.url === '') return pseudoModules[frame.functionName];
    if (frame.url.startsWith('wasm://')) return undefined;
    const normalized = frame.url.replace(/\\/g, '/');
    const isRelayBundle = options.relayScript !== undefined && normalized.endsWith(`/${options.relayScript}`);
    return moduleOfFrame({ url: frame.url, source: options.locate?.(frame)?.source, isRelayBundle });
  };
  const pending = profile.nodes.filter((node) => !childIds.has(node.id)).map((node) => ({ id: node.id, parent: 'other' as ModuleName | 'idle' }));
  for (let next = pending.pop(); next; next = pending.pop()) {
    const node = byId.get(next.id);
    if (!node || modules.has(node.id)) continue;
    const module = ownModule(node.callFrame) ?? next.parent;
    modules.set(node.id, module);
    for (const child of node.children ?? []) pending.push({ id: child, parent: module });
  }
  return modules;
}

/** Sample times: startTime plus the running sum of timeDeltas. */
function sampleTimes(profile: CpuProfile): Float64Array {
  const times = new Float64Array(profile.timeDeltas.length);
  let time = profile.startTime;
  profile.timeDeltas.forEach((delta, index) => (times[index] = time += delta));
  return times;
}

/** Self time per module, idle apart, over `options.window` when it overlaps the profile. */
export function moduleTable(profile: CpuProfile, options: ModuleTableOptions = {}): ModuleTable {
  const modules = modulesOfNodes(profile, options);
  const weights = sampleWeights(profile);
  const times = sampleTimes(profile);
  const { window } = options;
  const windowed = window !== undefined && window.fromMicros < profile.endTime && window.toMicros > profile.startTime;
  const totals = new Map<ModuleName | 'idle', number>();
  let samples = 0;
  let sampledMicros = 0;
  profile.samples.forEach((id, index) => {
    const time = times[index] ?? 0;
    if (windowed && (time < window.fromMicros || time > window.toMicros)) return;
    const module = modules.get(id);
    if (!module) throw new Error(`not a V8 CPU profile: sample ${index} names node ${id}, which is not in nodes`);
    const weight = weights[index] ?? 0;
    samples++;
    sampledMicros += weight;
    totals.set(module, (totals.get(module) ?? 0) + weight);
  });
  const idleMicros = totals.get('idle') ?? 0;
  const busyMicros = sampledMicros - idleMicros;
  const rows = moduleNames.map((module) => {
    const selfMicros = totals.get(module) ?? 0;
    return { module, selfMicros, percentOfBusy: busyMicros > 0 ? (selfMicros / busyMicros) * 100 : 0 };
  });
  return { windowed, samples, sampledMicros, idleMicros, busyMicros, rows };
}

/** One process in the comparison: its table and what /proc said of the same window. */
export interface ProfiledProcess {
  label: string;
  table: ModuleTable;
  /** utime + stime of the whole process (all threads) per answered request, from /proc. */
  cpuMicrosPerRequest: number | undefined;
  /** Requests answered in the window. */
  requests: number;
}

export interface ModuleCell {
  /** The process's label. */
  label: string;
  /** The module's share of busy time × the process's CPU µs per request. */
  microsPerRequest: number | undefined;
  percentOfBusy: number;
}

export interface ModuleComparisonRow {
  module: ModuleName;
  /** One cell per process, in the order given. */
  cells: ModuleCell[];
}

/**
 * The modules side by side. A module's µs per request is its share of the main thread's busy time
 * applied to the process's whole CPU per request; rows zero in every process are left out.
 */
export function compareModules(processes: readonly ProfiledProcess[]): ModuleComparisonRow[] {
  return moduleNames
    .map((module, index) => ({
      module,
      cells: processes.map(({ label, table, cpuMicrosPerRequest }) => {
        const percentOfBusy = table.rows[index]?.percentOfBusy ?? 0;
        return {
          label,
          microsPerRequest: cpuMicrosPerRequest === undefined ? undefined : (cpuMicrosPerRequest * percentOfBusy) / 100,
          percentOfBusy,
        };
      }),
    }))
    .filter((row) => row.cells.some((cell) => cell.percentOfBusy > 0));
}

/** The main thread's sampled busy time per request: what the profile saw, beside /proc's figure. */
export function sampledMicrosPerRequest(process: ProfiledProcess): number | undefined {
  return process.requests > 0 ? process.table.busyMicros / process.requests : undefined;
}
