import type { BenchOptions } from './cli-options';
import { loadCases } from './load-cases';
import { urlFor, type Target } from './load-runner';
import { measureRow, prewarm, type TargetLoad } from './measure-row';
import { preflight } from './preflight';
import { runLargeBodies } from './large-bodies';
import {
  IDLE_SETTLE_MS,
  stolenNote,
  type IdleRss,
  type LargeBodyRow,
  type LoadMeasurement,
  type Mode,
  type SlowStreamsResult,
  type SlowStreamsTarget,
  type TtfbMeasurement,
} from './report';
import { readRssBytes } from './proc-stats';
import { SHARED_RELAY_TARGET } from './shared-stores';
import { runSlowStreams } from './slow-streams';
import { bundles, type FreshTarget, type Stack } from './stack';
import { cpuShares, formatIdle, formatNumber, formatSlowStreams } from './table';
import { probeTimeToFirstByte } from './ttfb-probe';
import {
  buildWorkloads,
  countStreamChunks,
  embeddingInputCount,
  expectedStreamChunks,
  model,
  slowStreamBody,
  slowUserText,
} from './workloads';


export interface BenchResults {
  idle: IdleRss[];
  measurements: LoadMeasurement[];
  ttfbs: TtfbMeasurement[];
  /** The relay's, then the Express proxy's; empty when not run. */
  slowStreams: SlowStreamsResult[];
  largeBodies: LargeBodyRow[];
  notes: string[];
}

/** The slow streams' body at full speed: no latency marker, the same answer. */
const fastSlowStreamBody = (): string => JSON.stringify({ model, stream: true, messages: [{ role: 'user', content: slowUserText }] });

/** Fast streams each fresh target answers before its RSS is read "before" (see slow-streams.ts). */
const slowStreamsWarmups = 5;

/** The chunks of a whole slow stream, counted once from the simulator at full speed. */
async function countSlowStreamChunks(direct: Target): Promise<number> {
  const response = await fetch(direct.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...direct.headers },
    body: fastSlowStreamBody(),
  });
  return countStreamChunks(await response.text()).chunks;
}

/**
 * Drops targets that do not answer chat correctly, and the embeddings URL of those that route
 * only chat or answer embeddings wrongly (each with a note); the simulator itself must answer both.
 */
async function checkTargets(targets: readonly Target[], notes: string[], log: (line: string) => void): Promise<Target[]> {
  const workloads = buildWorkloads();
  const expected = { streamChunks: expectedStreamChunks, vectors: embeddingInputCount };
  const usable: Target[] = [];
  for (const target of targets) {
    const { problems, embeddingsProblems, streamChunks } = await preflight(target, workloads, expected);
    if (target.id === 'direct' && (problems.length > 0 || embeddingsProblems.length > 0)) {
      throw new Error(`the simulator does not answer as the benchmark expects: ${[...problems, ...embeddingsProblems].join('; ')}`);
    }
    if (problems.length > 0) {
      notes.push(`${target.id} left out, its answers are wrong: ${problems.join('; ')}`);
      log(`${target.id}: left out — ${problems.join('; ')}`);
      continue;
    }
    log(`${target.id}: answers correctly (stream of ${streamChunks} chunks + [DONE])`);
    if (target.embeddingsUrl === undefined) {
      notes.push(`${target.id} not in the embeddings row: it routes only ${new URL(target.url).pathname}`);
    } else if (embeddingsProblems.length > 0) {
      notes.push(`${target.id} left out of the embeddings row, its answer is wrong: ${embeddingsProblems.join('; ')}`);
      log(`${target.id}: left out of the embeddings row — ${embeddingsProblems.join('; ')}`);
      usable.push({ ...target, embeddingsUrl: undefined });
      continue;
    }
    usable.push(target);
  }
  return usable;
}

/**
 * Runs last, on a fresh relay: on the loaded one, a heap the loads already grew would hide what
 * the streams cost, and the streams would inflate the peak RSS of the load rows that follow. Then
 * the same on a fresh bare Express proxy: the relay's figure (what it is judged on) needs a
 * reference, what a Node proxy that only pipes the stream pays for holding one. One at a time, so
 * neither shares the CPUs or the simulator with the other; each failure is a note of its own.
 */
async function slowStreamsCheck(
  stack: Stack,
  targets: readonly Target[],
  options: BenchOptions,
  notes: string[],
  log: (line: string) => void,
): Promise<SlowStreamsResult[]> {
  const direct = targets.find((target) => target.id === 'direct');
  if (options.slowStreams <= 0 || !direct || !targets.some((target) => target.id === 'relay')) return [];
  const expectedChunks = await countSlowStreamChunks(direct);
  const plan = {
    streams: options.slowStreams,
    body: slowStreamBody(),
    expectedChunks,
    warmup: { streams: slowStreamsWarmups, body: fastSlowStreamBody() },
    batch: 250,
    timeoutMs: 60_000,
  };
  const runs: { id: SlowStreamsTarget; what: string; start(): Promise<FreshTarget> }[] = [
    { id: 'relay', what: 'a fresh relay', start: () => stack.startFreshRelay() },
    // Left out when the table left it out: its answers were wrong, so would its figure be.
    ...(targets.some((target) => target.id === 'express')
      ? [{ id: 'express' as const, what: 'a fresh bare Express proxy', start: () => stack.startFreshExpress() }]
      : []),
  ];
  const results: SlowStreamsResult[] = [];
  for (const run of runs) {
    try {
      const fresh = await run.start();
      try {
        log(
          `slow streams ${run.id}: ${plan.streams} through ${run.what} after ${plan.warmup.streams} warm-up streams, ` +
            `${expectedChunks} chunks each at 100 ms per token`,
        );
        const result = await runSlowStreams({ ...fresh.target, id: run.id }, plan);
        log(formatSlowStreams(result));
        results.push(result);
        if (result.peakOpen < result.requested) {
          notes.push(
            `slow streams ${run.id}: only ${result.peakOpen} of ${result.requested} were streaming at once; the others waited ` +
              `for their headers (queued in the ${run.id === 'relay' ? 'relay' : 'proxy'} or its upstream pool), so RSS per ` +
              'stream counts waiting requests too',
          );
        }
      } finally {
        await fresh.close();
      }
    } catch (error) {
      notes.push(`slow streams ${run.id}: could not run: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  return results;
}

interface LoadRun {
  mode: Mode;
  connections: number;
  target: Target;
  url: string;
}

/** The progress line of one load; failures and noisy neighbours also become notes. */
function describeLoad({ mode, connections, target }: LoadRun, measurement: LoadMeasurement, notes: string[]): string {
  const failed = measurement.errors + measurement.non2xx;
  const foreign = measurement.foreignCpuShare ?? 0;
  if (foreign > 0.05) {
    const share = Math.round(foreign * 100);
    // PostgreSQL and Redis are outside the benchmark's processes, but this target is what loads them.
    const whose = target.id === SHARED_RELAY_TARGET ? ' (PostgreSQL and Redis, serving this target, among them)' : '';
    notes.push(`${target.id} ${mode} c=${connections}: other processes${whose} used ${share} % of the CPUs during the load`);
  }
  const stolen = stolenNote(measurement);
  if (stolen) notes.push(`${target.id} ${mode} c=${connections}: ${stolen}`);
  if (failed > 0) {
    notes.push(
      `${target.id} ${mode} c=${connections}: ${measurement.errors} errors ` +
        `(${measurement.timeouts} timeouts), ${measurement.non2xx} non-2xx`,
    );
  }
  return (
    `${mode} c=${connections} ${target.id}: ` +
    `${formatNumber(measurement.rps, 0)} rps, p50 ${formatNumber(measurement.p50Ms, 2)} ms` +
    cpuShares(measurement) +
    (failed > 0 ? `, ${measurement.errors} errors, ${measurement.non2xx} non-2xx` : '')
  );
}

/** Last, on a relay of its own: the large bodies' heap and garbage would weigh on every row measured after them. */
async function largeBodiesCheck(root: string, stack: Stack, notes: string[], log: (line: string) => void): Promise<LargeBodyRow[]> {
  try {
    return await runLargeBodies(root, bundles, stack.simulatorBaseUrl, log);
  } catch (error) {
    notes.push(`large bodies: could not run: ${error instanceof Error ? error.message : String(error)}`);
    return [];
  }
}

export async function runBench(root: string, stack: Stack, options: BenchOptions, log: (line: string) => void): Promise<BenchResults> {
  const notes = [...stack.notes];
  if (options.largeBodies === 'only') return { idle: [], measurements: [], ttfbs: [], slowStreams: [], largeBodies: await largeBodiesCheck(root, stack, notes, log), notes };
  const targets = await checkTargets(stack.targets, notes, log);
  const idle = await measureIdle(targets);
  log(formatIdle(idle));
  const workloads = buildWorkloads();
  log(`64k body: ${workloads['64k'].body.length} bytes`);

  // A target without the mode's endpoint has no row in that block.
  const rows = (options.rows ?? loadCases).map(({ mode, connections }) =>
    targets.flatMap((target): LoadRun[] => {
      const url = urlFor(target, workloads[mode].endpoint);
      return url === undefined ? [] : [{ mode, connections, target, url }];
    }),
  );
  const total = rows.reduce((sum, row) => sum + row.length, 0);
  const loadOf = (run: LoadRun): TargetLoad => ({
    target: run.target,
    plan: {
      mode: run.mode,
      url: run.url,
      body: workloads[run.mode].body,
      connections: run.connections,
      durationSeconds: options.durationSeconds,
      warmupSeconds: options.warmupSeconds,
    },
  });
  if (options.prewarmSeconds > 0) {
    log(`pre-warm: ${options.prewarmSeconds} s of each workload per target, before the first row`);
    await prewarm(rows.flat().map(loadOf), options.prewarmSeconds);
  }
  const measurements: LoadMeasurement[] = [];
  const measure = async (row: readonly LoadRun[]): Promise<void> => {
    const rowMeasurements = await measureRow(row.map(loadOf), options.slices);
    rowMeasurements.forEach((measurement, index) => {
      measurements.push(measurement);
      log(`[${String(measurements.length).padStart(2)}/${total}] ${describeLoad(row[index] as LoadRun, measurement, notes)}`);
    });
  };
  // The chat loads and the TTFB probe run back to back as before the embeddings row existed, so
  // its large answers do not change the conditions of the chat figures.
  for (const row of rows.filter((row) => row[0]?.mode !== 'embeddings')) await measure(row);

  const ttfbs: TtfbMeasurement[] = [];
  for (const target of targets) {
    const ttfb = await probeTimeToFirstByte(target, workloads.stream.body, options.ttfbRequests);
    ttfbs.push(ttfb);
    log(`TTFB ${target.id}: p50 ${formatNumber(ttfb.p50Ms, 2)} ms, p99 ${formatNumber(ttfb.p99Ms, 2)} ms`);
    if (ttfb.failures > 0) notes.push(`TTFB probe of ${target.id}: ${ttfb.failures} failed requests`);
  }
  for (const row of rows.filter((row) => row[0]?.mode === 'embeddings')) await measure(row);

  let slowStreams: SlowStreamsResult[] = [];
  try {
    slowStreams = await slowStreamsCheck(stack, targets, options, notes, log);
  } catch (error) {
    // The load rows are measured already: report them with the reason rather than nothing.
    notes.push(`slow streams: could not run: ${error instanceof Error ? error.message : String(error)}`);
  }
  const largeBodies = options.largeBodies === 'skip' ? [] : await largeBodiesCheck(root, stack, notes, log);
  return { idle, measurements, ttfbs, slowStreams, largeBodies, notes };
}

/** Every target's RSS, read once they all sat {@link IDLE_SETTLE_MS} without load after the preflight's requests. */
async function measureIdle(targets: readonly Target[]): Promise<IdleRss[]> {
  await new Promise((resolve) => setTimeout(resolve, IDLE_SETTLE_MS));
  return targets.map((target) => ({ target: target.id, rssBytes: readRssBytes(target.pid) }));
}
