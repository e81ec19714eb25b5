// Summarises a V8 `.cpuprofile` (what `node --cpu-prof` writes): self time per function and per
// package, and the inclusive time of a few named relay stages. Pure: finding the file and reading
// source maps is cpu-profile-files.ts's job.
import { z } from 'zod';
import { groupOfUrl, relayStages, type StageSpec } from './cpu-profile-labels';

const callFrameSchema = z.object({
  functionName: z.string(),
  url: z.string(),
  /** Zero-based, like columnNumber; -1 for frames without a script. */
  lineNumber: z.number().int(),
  columnNumber: z.number().int(),
});

const cpuProfileSchema = z
  .object({
    nodes: z
      .array(z.object({ id: z.number().int(), callFrame: callFrameSchema, children: z.array(z.number().int()).optional() }))
      .min(1),
    /** µs, on the same clock as the samples. */
    startTime: z.number(),
    endTime: z.number(),
    /** The node id on top of the stack at each sample. */
    samples: z.array(z.number().int()),
    /** µs since the previous sample (the first: since startTime). */
    timeDeltas: z.array(z.number()),
  })
  .refine((profile) => profile.samples.length === profile.timeDeltas.length, {
    message: 'samples and timeDeltas differ in length',
  });

export type CpuProfile = z.infer<typeof cpuProfileSchema>;
export type CallFrame = z.infer<typeof callFrameSchema>;

/** V8's pseudo-frames: each is its own group and none is listed as a function. */
export const pseudoFrames = {
  root: '(root)',
  program: '(program)',
  idle: '(idle)',
  gc: '(garbage collector)',
} as const;
const pseudoFrameNames: ReadonlySet<string> = new Set(Object.values(pseudoFrames));

/** Where a frame's code comes from: a TS source through a source map, 1-based line. */
export interface SourceLocation {
  source: string;
  line: number;
}

/** Maps a frame of a bundled script back to its source, or undefined when it cannot. */
export type Locator = (frame: CallFrame) => SourceLocation | undefined;

export interface SummaryOptions {
  /** The relay bundle's path, matched as the end of a frame's URL (`dist/apps/server/main.js`). */
  relayScript: string;
  /** Functions to list (default 25). */
  top?: number;
  locate?: Locator;
  stages?: readonly StageSpec[];
}

export interface ProfileFunction {
  functionName: string;
  group: string;
  /** `file.ts:line` (through the source map when there is one), `(native)` without a script. */
  location: string;
  /** The mapped source path, or the frame's URL. */
  source: string;
  selfMs: number;
  /** Share of non-idle time. */
  percentOfBusy: number;
}

export interface ProfileGroup {
  group: string;
  selfMs: number;
  percentOfTotal: number;
  /** Undefined for `(idle)` itself. */
  percentOfBusy: number | undefined;
}

export interface ProfileStage {
  label: string;
  functionNames: readonly string[];
  inclusiveMs: number;
  percentOfBusy: number;
}

export interface ProfileSummary {
  samples: number;
  totalMs: number;
  idleMs: number;
  idlePercent: number;
  gcMs: number;
  gcPercentOfBusy: number;
  programMs: number;
  programPercentOfBusy: number;
  topFunctions: ProfileFunction[];
  groups: ProfileGroup[];
  /** Only stages seen in the profile. */
  stages: ProfileStage[];
}

/** Validates parsed JSON as a CPU profile; throws naming the first problem. */
export function parseCpuProfile(json: unknown): CpuProfile {
  const result = cpuProfileSchema.safeParse(json);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const where = issue && issue.path.length > 0 ? `${issue.path.join('.')}: ` : '';
  throw new Error(`not a V8 CPU profile: ${where}${issue?.message ?? 'invalid'}`);
}

/**
 * µs each sample stands for, as Chrome DevTools counts it: the time until the next sample, the
 * last one until endTime. Negative deltas (V8 emits a few) count as 0.
 */
export function sampleWeights(profile: Pick<CpuProfile, 'startTime' | 'endTime' | 'timeDeltas'>): Float64Array {
  const { timeDeltas } = profile;
  const weights = new Float64Array(timeDeltas.length);
  let time = profile.startTime;
  for (let index = 0; index < timeDeltas.length; index++) {
    time += timeDeltas[index] ?? 0;
    const next = timeDeltas[index + 1];
    weights[index] = Math.max(0, next ?? profile.endTime - time);
  }
  return weights;
}

interface NodeInfo {
  frame: CallFrame;
  group: string;
  /** Indices of the stages whose functions are on this node's stack, each once. */
  stages: readonly number[];
}

function matchingStages(frame: CallFrame, group: string, stages: readonly StageSpec[]): number[] {
  const matches: number[] = [];
  stages.forEach((stage, index) => {
    if (stage.group === group && stage.functionNames.includes(frame.functionName)) matches.push(index);
  });
  return matches;
}

/** Each node's group (inherited through script-less frames) and stages on its stack, walking down from the roots. */
function describeNodes(profile: CpuProfile, relayScript: string, stages: readonly StageSpec[]): Map<number, NodeInfo> {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const childIds = new Set(profile.nodes.flatMap((node) => node.children ?? []));
  const infos = new Map<number, NodeInfo>();
  const pending: { id: number; parent: NodeInfo | undefined }[] = profile.nodes
    .filter((node) => !childIds.has(node.id))
    .map((node) => ({ id: node.id, parent: undefined }));
  for (let next = pending.pop(); next; next = pending.pop()) {
    const node = byId.get(next.id);
    if (!node || infos.has(node.id)) continue;
    const frame = node.callFrame;
    const parent = next.parent;
    const isPseudo = frame.url === '' && pseudoFrameNames.has(frame.functionName);
    const group = isPseudo
      ? frame.functionName
      : groupOfUrl(frame.url, relayScript) ?? (parent && parent.group !== pseudoFrames.root ? parent.group : '(native)');
    const own = matchingStages(frame, group, stages);
    const inherited = parent?.stages ?? [];
    const info: NodeInfo = {
      frame,
      group,
      stages: own.some((index) => !inherited.includes(index)) ? [...new Set([...inherited, ...own])] : inherited,
    };
    infos.set(node.id, info);
    for (const child of node.children ?? []) pending.push({ id: child, parent: info });
  }
  return infos;
}

function percentOf(part: number, whole: number): number {
  return whole > 0 ? (part / whole) * 100 : 0;
}

/** ms from µs, to 0.1 ms (enough for a report, short in JSON). */
function roundMs(micros: number): number {
  return Math.round(micros / 100) / 10;
}

function roundPercent(percent: number): number {
  return Math.round(percent * 100) / 100;
}

function basename(pathOrUrl: string): string {
  return pathOrUrl.slice(pathOrUrl.replace(/\\/g, '/').lastIndexOf('/') + 1);
}

/** `file.ts:line` for a frame, through `locate` when it knows the frame. */
function locationOf(frame: CallFrame, locate: Locator | undefined): { location: string; source: string } {
  const mapped = locate?.(frame);
  if (mapped) return { location: `${basename(mapped.source)}:${mapped.line}`, source: mapped.source };
  if (frame.url === '') return { location: '(native)', source: '' };
  const line = frame.lineNumber + 1;
  const file = frame.url.startsWith('node:') ? frame.url : basename(frame.url);
  return { location: line > 0 ? `${file}:${line}` : file, source: frame.url };
}

function functionKey(frame: CallFrame): string {
  return `${frame.functionName}\u0000${frame.url}\u0000${frame.lineNumber}\u0000${frame.columnNumber}`;
}

/** Adds `amount` to `key`'s total in `totals`. */
function add<K>(totals: Map<K, number>, key: K, amount: number): void {
  totals.set(key, (totals.get(key) ?? 0) + amount);
}

/** Self time by function and by group, inclusive time of the stages, idle and GC shares. */
export function summarizeCpuProfile(profile: CpuProfile, options: SummaryOptions): ProfileSummary {
  const stages = options.stages ?? relayStages;
  const infos = describeNodes(profile, options.relayScript, stages);
  const weights = sampleWeights(profile);

  const selfByNode = new Map<number, number>();
  const stageTotals = new Float64Array(stages.length);
  let totalMicros = 0;
  profile.samples.forEach((id, index) => {
    const weight = weights[index] ?? 0;
    const info = infos.get(id);
    if (!info) throw new Error(`not a V8 CPU profile: sample ${index} names node ${id}, which is not in nodes`);
    totalMicros += weight;
    add(selfByNode, id, weight);
    for (const stage of info.stages) stageTotals[stage] = (stageTotals[stage] ?? 0) + weight;
  });

  const byGroup = new Map<string, number>();
  const byFunction = new Map<string, { frame: CallFrame; group: string; micros: number }>();
  for (const [id, micros] of selfByNode) {
    const info = infos.get(id);
    if (!info) continue;
    add(byGroup, info.group, micros);
    if (pseudoFrameNames.has(info.group)) continue;
    const key = functionKey(info.frame);
    const entry = byFunction.get(key) ?? { frame: info.frame, group: info.group, micros: 0 };
    entry.micros += micros;
    byFunction.set(key, entry);
  }

  const idleMicros = byGroup.get(pseudoFrames.idle) ?? 0;
  const busyMicros = totalMicros - idleMicros;
  const gcMicros = byGroup.get(pseudoFrames.gc) ?? 0;
  const programMicros = byGroup.get(pseudoFrames.program) ?? 0;
  const busyPercent = (micros: number): number => roundPercent(percentOf(micros, busyMicros));

  const topFunctions = [...byFunction.values()]
    .sort((a, b) => b.micros - a.micros || a.frame.functionName.localeCompare(b.frame.functionName))
    .slice(0, options.top ?? 25)
    .map(({ frame, group, micros }) => ({
      functionName: frame.functionName || '(anonymous)',
      group,
      ...locationOf(frame, options.locate),
      selfMs: roundMs(micros),
      percentOfBusy: busyPercent(micros),
    }));
  const groups = [...byGroup]
    .sort(([nameA, a], [nameB, b]) => b - a || nameA.localeCompare(nameB))
    .map(([group, micros]) => ({
      group,
      selfMs: roundMs(micros),
      percentOfTotal: roundPercent(percentOf(micros, totalMicros)),
      percentOfBusy: group === pseudoFrames.idle ? undefined : busyPercent(micros),
    }));
  const stageSummaries = stages
    .map((stage, index) => ({ stage, micros: stageTotals[index] ?? 0 }))
    .filter(({ micros }) => micros > 0)
    .map(({ stage, micros }) => ({
      label: stage.label,
      functionNames: stage.functionNames,
      inclusiveMs: roundMs(micros),
      percentOfBusy: busyPercent(micros),
    }));

  return {
    samples: profile.samples.length,
    totalMs: roundMs(totalMicros),
    idleMs: roundMs(idleMicros),
    idlePercent: roundPercent(percentOf(idleMicros, totalMicros)),
    gcMs: roundMs(gcMicros),
    gcPercentOfBusy: busyPercent(gcMicros),
    programMs: roundMs(programMicros),
    programPercentOfBusy: busyPercent(programMicros),
    topFunctions,
    groups,
    stages: stageSummaries,
  };
}
