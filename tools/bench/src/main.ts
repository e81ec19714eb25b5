// `npm run bench`: the relay against the simulator alone, a node:http + undici floor and bare
// Express, in one run on this machine. Never fails a build: exit 0 with a report, 1 only when it
// could not run at all, 2 on a bad argument.
import { rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseBenchOptions, usage, type BenchOptions } from './cli-options';
import { formatProfileSummary } from './cpu-profile-format';
import { resolveProfileArgument, summarizeProfileFile, waitForProfile } from './cpu-profile-files';
import { clockTicksPerSecond, measureSystemBusy } from './proc-stats';
import { killAllChildrenNow, stopAllChildren } from './processes';
import { runProfileRow } from './profile-row';
import { formatProfileRow } from './profile-row-format';
import { buildReportRows, type BenchReport } from './report';
import { runBench } from './run-bench';
import { checkSharedStores, newSharedStoreSpace, removeSharedStoreSpace, sharedStoreUrls } from './shared-stores';
import { runSoak } from './soak';
import { formatSoakReport } from './soak-report';
import { startStack, type SharedStores } from './stack';
import { formatReport } from './table';

// The bundle sits at dist/tools/bench/main.js.
const root = path.resolve(__dirname, '../../..');
const tempDirs: string[] = [];
/** With --shared-stores: the run's schema and key prefix, removed once the relays have stopped. */
let sharedStores: SharedStores | undefined;

function log(line: string): void {
  process.stderr.write(`bench: ${line}\n`);
}

async function cleanUp(): Promise<void> {
  await stopAllChildren();
  for (const dir of tempDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  const shared = sharedStores;
  sharedStores = undefined;
  if (shared) {
    try {
      const left = await removeSharedStoreSpace(shared.urls, shared.space);
      log(`shared stores: schema ${shared.space.schema} dropped (${left.usageRows ?? 'no'} usage rows), ${left.redisKeys} Redis keys removed`);
    } catch (error) {
      log(`shared stores: could not remove schema ${shared.space.schema} / keys ${shared.space.keyPrefix}*: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}

/** --shared-stores: both stores named in the environment and answering, before anything starts. */
async function prepareSharedStores(): Promise<SharedStores> {
  const urls = sharedStoreUrls(process.env);
  await checkSharedStores(urls);
  return { urls, space: newSharedStoreSpace() };
}

async function machine(): Promise<BenchReport['machine']> {
  const cpus = os.cpus();
  const busyBeforeRun = await measureSystemBusy();
  return {
    cpus: cpus.length,
    cpuModel: cpus[0]?.model.trim() ?? 'unknown CPU',
    node: process.versions.node,
    loadAverageAtStart: os.loadavg().map((load) => load.toFixed(2)).join(' '),
    busyBeforeRun,
    clockTicksPerSecond: clockTicksPerSecond(),
  };
}

async function run(options: BenchOptions): Promise<BenchReport> {
  const machineAtStart = await machine();
  const started = Date.now();
  const stack = await startStack(root, options, log, sharedStores);
  tempDirs.push(...stack.tempDirs);
  const results = await runBench(root, stack, options, log);
  const notes = [...results.notes];
  const [oneMinuteLoad = 0] = os.loadavg();
  const busy = machineAtStart.busyBeforeRun;
  if (busy !== undefined && busy > 0.1) {
    notes.push(`other processes kept the CPUs ${Math.round(busy * 100)} % busy just before the run: figures are noisier`);
  }
  log(`done in ${Math.round((Date.now() - started) / 1000)} s (load average now ${oneMinuteLoad.toFixed(2)})`);
  return {
    machine: machineAtStart,
    settings: {
      durationSeconds: options.durationSeconds,
      warmupSeconds: options.warmupSeconds,
      slices: options.slices,
      prewarmSeconds: options.prewarmSeconds,
      ttfbRequests: options.ttfbRequests,
      quick: options.quick,
      peers: options.peers,
      sharedStores: options.sharedStores,
    },
    idle: results.idle,
    rows: buildReportRows(results.measurements, results.ttfbs),
    ttfb: results.ttfbs,
    slowStreams: results.slowStreams,
    largeBodies: results.largeBodies,
    profile: undefined,
    notes,
  };
}

/** JSON with undefined → null, so every field is present for machines. */
function toJson(value: unknown): string {
  return JSON.stringify(value, (_key, field: unknown) => field ?? null, 2);
}

/** Once the relay has stopped: its profile (newest since the run began) summarised on stderr and into the report. */
async function withProfile(report: BenchReport, profileDir: string, sinceMs: number): Promise<BenchReport> {
  const file = await waitForProfile(profileDir, sinceMs);
  if (!file) return { ...report, notes: [...report.notes, `--cpu-prof: no .cpuprofile appeared in ${profileDir}`] };
  try {
    const profile = summarizeProfileFile(file, root);
    process.stderr.write(`${formatProfileSummary(profile, `relay CPU profile ${file}`).join('\n')}\n`);
    return { ...report, profile, notes: [...report.notes, `relay CPU profile: ${file}`] };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return { ...report, notes: [...report.notes, `relay CPU profile ${file}: could not summarise it: ${reason}`] };
  }
}

/** `--summarize-profile`: an existing profile's summary on stdout, nothing run. */
function summarizeOnly(target: string, json: boolean): number {
  try {
    const file = resolveProfileArgument(target);
    const profile = summarizeProfileFile(file, root);
    console.log(json ? toJson(profile) : formatProfileSummary(profile, file).join('\n'));
    return 0;
  } catch (error) {
    console.error(`bench: could not summarise ${target}: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  }
}

/** `--profile=<mode>:<connections>`: that row on the Express proxy and the relay, profiled and attributed by module. */
async function profileRowOnly(options: BenchOptions): Promise<number> {
  try {
    const report = await runProfileRow(root, options, cleanUp, log);
    await cleanUp();
    console.log(options.json ? toJson(report) : formatProfileRow(report));
    return 0;
  } catch (error) {
    console.error(`bench: profile could not run: ${error instanceof Error ? error.stack ?? error.message : String(error)}`);
    await cleanUp();
    return 1;
  }
}

/** `--soak`: the soak's report on stdout (JSON with --json), no table. */
async function soakOnly(options: BenchOptions): Promise<number> {
  try {
    const report = await runSoak(root, options, log);
    await cleanUp();
    console.log(options.json ? toJson(report) : formatSoakReport(report));
    return 0;
  } catch (error) {
    console.error(`bench: soak could not run: ${error instanceof Error ? error.stack ?? error.message : String(error)}`);
    await cleanUp();
    return 1;
  }
}

async function main(): Promise<number> {
  const args = process.argv.slice(2);
  if (args.includes('--help') || args.includes('-h')) {
    console.log(usage);
    return 0;
  }
  let options: BenchOptions;
  try {
    options = parseBenchOptions(args);
  } catch (error) {
    console.error(`bench: ${error instanceof Error ? error.message : String(error)}\n${usage}`);
    return 2;
  }
  if (options.summarizeProfile) return summarizeOnly(options.summarizeProfile, options.json);
  if (options.soak) return soakOnly(options);
  if (options.profileRow) return profileRowOnly(options);
  if (options.sharedStores) {
    try {
      sharedStores = await prepareSharedStores();
    } catch (error) {
      console.error(`bench: ${error instanceof Error ? error.message : String(error)}`);
      return 1;
    }
  }
  try {
    const started = Date.now();
    let report = await run(options);
    await cleanUp();
    if (options.cpuProfileDir) report = await withProfile(report, path.resolve(root, options.cpuProfileDir), started);
    console.log(options.json ? toJson(report) : formatReport(report));
    return 0;
  } catch (error) {
    console.error(`bench: could not run: ${error instanceof Error ? error.stack ?? error.message : String(error)}`);
    await cleanUp();
    return 1;
  }
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    log(`${signal}: stopping the children`);
    cleanUp().finally(() => process.exit(130));
  });
}
process.once('exit', killAllChildrenNow);

main().then((code) => process.exit(code));
