import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { BenchOptions } from './cli-options';
import { findFreePort, startNode, stopChild, waitUntilAnswering } from './processes';
import { readRssBytes, RssPeakSampler } from './proc-stats';
import { startRelay } from './relay-setup';
import { runSoakLoad, type SoakTally } from './soak-load';
import { bundles } from './stack';

/** RSS (and heap used, from the preloaded sampler) at each moment of the soak, in bytes. */
export interface SoakMemory {
  before: number | undefined;
  peak: number | undefined;
  after: number | undefined;
  idle: number | undefined;
  /** At idle, right after a forced full garbage collection: what the relay really keeps. */
  idleAfterGc: number | undefined;
}

export interface SoakReport {
  machine: { cpus: number; node: string; loadAverageAtStart: string; loadAverageAtEnd: string };
  seconds: number;
  idleSeconds: number;
  connections: number;
  requests: { done: number; failed: number; perSecond: number; byKind: SoakTally };
  rss: SoakMemory;
  heapUsed: SoakMemory;
  /** The relay answered /healthz after the idle wait. */
  aliveAfter: boolean;
  notes: string[];
}

const heapSamplerBundle = 'dist/tools/bench/heap-sampler.js';

function readHeapUsed(file: string): number | undefined {
  try {
    return (JSON.parse(readFileSync(file, 'utf8')) as { heapUsed?: number }).heapUsed;
  } catch {
    return undefined;
  }
}

/** Polls the sampler's file during the load and keeps the highest heap used. */
function heapPeakPoller(file: string): { stop(): number | undefined } {
  let peak: number | undefined;
  const sample = () => {
    const used = readHeapUsed(file);
    if (used !== undefined && (peak === undefined || used > peak)) peak = used;
  };
  const timer = setInterval(sample, 200);
  return {
    stop: () => {
      clearInterval(timer);
      sample();
      return peak;
    },
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * `--soak`: the production bundle behind the simulator under a steady mixed load for
 * `soakSeconds`, then left alone for `soakIdleSeconds`; RSS and heap before, at peak, right after
 * and at idle — a leak shows as an idle figure that does not come back towards `before`.
 */
export async function runSoak(root: string, options: BenchOptions, log: (line: string) => void): Promise<SoakReport> {
  const missing = [bundles.simulator, bundles.relay, heapSamplerBundle].filter((bundle) => !existsSync(path.join(root, bundle)));
  if (missing.length > 0) throw new Error(`missing ${missing.join(', ')}: run \`npx nx run-many -t build -p server upstream-sim bench\` (npm run bench does)`);
  const loadAverageAtStart = os.loadavg().map((load) => load.toFixed(2)).join(' ');
  const notes: string[] = [];
  const tempDir = mkdtempSync(path.join(os.tmpdir(), 'chat-relay-soak-'));
  const heapFile = path.join(tempDir, 'heap.json');

  const simulatorPort = await findFreePort();
  const simulatorBaseUrl = `http://127.0.0.1:${simulatorPort}/v1`;
  const simulator = startNode('upstream-sim', [path.join(root, bundles.simulator)], {
    PORT: String(simulatorPort),
    HOST: '127.0.0.1',
    SIM_LATENCY_MS_PER_TOKEN: '0',
  });
  try {
    await waitUntilAnswering(simulator, `${simulatorBaseUrl}/models`);
    const relay = await startRelay(path.join(root, bundles.relay), simulatorBaseUrl, ['--expose-gc', '--require', path.join(root, heapSamplerBundle)], {
      BENCH_HEAP_FILE: heapFile,
    });
    try {
      log(`soak: relay on ${relay.origin} (pid ${relay.child.pid}), ${options.soakConnections} callers for ${options.soakSeconds} s, then ${options.soakIdleSeconds} s idle`);
      await sleep(500); // the sampler's first figures after start-up
      const before = { rss: readRssBytes(relay.child.pid), heap: readHeapUsed(heapFile) };
      const rssPeak = new RssPeakSampler(relay.child.pid);
      const heapPeak = heapPeakPoller(heapFile);
      const started = Date.now();
      const progress = setInterval(() => log(`soak: ${Math.round((Date.now() - started) / 1000)} s, RSS ${Math.round((readRssBytes(relay.child.pid) ?? 0) / 1_048_576)} MB`), 30_000);
      const tally = await runSoakLoad(
        { url: `${relay.origin}/v1/chat/completions`, headers: { authorization: `Bearer ${relay.tokenKey}` } },
        options.soakConnections,
        started + options.soakSeconds * 1000,
      );
      clearInterval(progress);
      const elapsedSeconds = (Date.now() - started) / 1000;
      const peak = { rss: rssPeak.stop(), heap: heapPeak.stop() };
      const after = { rss: readRssBytes(relay.child.pid), heap: readHeapUsed(heapFile) };
      log(`soak: load done, idle for ${options.soakIdleSeconds} s`);
      await sleep(options.soakIdleSeconds * 1000);
      const idle = { rss: readRssBytes(relay.child.pid), heap: readHeapUsed(heapFile) };
      relay.child.process.kill('SIGUSR2');
      await sleep(1000);
      const idleAfterGc = { rss: readRssBytes(relay.child.pid), heap: readHeapUsed(heapFile) };
      const aliveAfter = await fetch(`${relay.origin}/healthz`).then((response) => response.status === 200, () => false);

      const kinds = Object.values(tally);
      const done = kinds.reduce((sum, counts) => sum + counts.done, 0);
      const failed = kinds.reduce((sum, counts) => sum + counts.failed, 0);
      if (failed > 0) notes.push(`${failed} requests did not get the answer they should (see requests by kind)`);
      if (!aliveAfter) notes.push(`the relay did not answer /healthz after the soak:\n${relay.child.output()}`);
      if (before.heap === undefined) notes.push('heap used unavailable: the preloaded sampler wrote nothing');
      return {
        machine: { cpus: os.cpus().length, node: process.versions.node, loadAverageAtStart, loadAverageAtEnd: os.loadavg().map((load) => load.toFixed(2)).join(' ') },
        seconds: options.soakSeconds,
        idleSeconds: options.soakIdleSeconds,
        connections: options.soakConnections,
        requests: { done, failed, perSecond: done / elapsedSeconds, byKind: tally },
        rss: { before: before.rss, peak: peak.rss, after: after.rss, idle: idle.rss, idleAfterGc: idleAfterGc.rss },
        heapUsed: { before: before.heap, peak: peak.heap, after: after.heap, idle: idle.heap, idleAfterGc: idleAfterGc.heap },
        aliveAfter,
        notes,
      };
    } finally {
      await stopChild(relay.child);
      rmSync(relay.dataDir, { recursive: true, force: true });
    }
  } finally {
    await stopChild(simulator);
    rmSync(tempDir, { recursive: true, force: true });
  }
}
