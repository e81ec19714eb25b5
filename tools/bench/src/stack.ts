import { existsSync, rmSync } from 'node:fs';
import path from 'node:path';
import type { BenchOptions } from './cli-options';
import type { Target } from './load-runner';
import { startPortkey } from './peers';
import { findFreePort, startNode, stopChild, waitUntilAnswering, type Child } from './processes';
import { startRelay } from './relay-setup';
import { redactUrl, SHARED_RELAY_TARGET, sharedRelayEnv, type SharedStoreSpace, type SharedStoreUrls } from './shared-stores';

/** Bundles, relative to the workspace root (`npm run bench` builds them first). */
export const bundles = {
  /** The upstream simulator, minus its request log (see reference/simulator.ts). */
  simulator: 'dist/tools/bench/simulator.js',
  relay: 'dist/apps/server/main.js',
  floor: 'dist/tools/bench/floor-proxy.js',
  express: 'dist/tools/bench/express-proxy.js',
  /** The large-bodies check's health-check probe. */
  probe: 'dist/tools/bench/healthz-probe.js',
};

/** A target started for one check alone, so its memory is its own and nothing loaded it before. */
export interface FreshTarget {
  target: Target;
  /** Stops it (and removes the relay's data directory). */
  close(): Promise<void>;
}

export interface Stack {
  /** In table order: direct (the simulator itself), floor, express, relay, then peers. */
  targets: Target[];
  /**
   * Another relay on the same simulator that nothing has loaded yet: memory measured on it is not
   * hidden by a heap the loads already grew, and does not inflate the load rows either.
   */
  startFreshRelay(): Promise<FreshTarget>;
  /** The same for the bare Express proxy (the table's `express`): the slow streams' reference. */
  startFreshExpress(): Promise<FreshTarget>;
  /** Directories to remove at the end. */
  tempDirs: string[];
  notes: string[];
  /** The simulator's OpenAI-style base URL (`…/v1`), for relays a check starts itself. */
  simulatorBaseUrl: string;
}

const chatPath = '/v1/chat/completions';
const embeddingsPath = '/v1/embeddings';

function requireBundles(root: string): void {
  const missing = Object.values(bundles).filter((bundle) => !existsSync(path.join(root, bundle)));
  if (missing.length > 0) {
    throw new Error(`missing ${missing.join(', ')}: run \`npx nx run-many -t build -p server upstream-sim bench\` (npm run bench does)`);
  }
}

/** `--cpu-prof` into `dir`, or nothing. */
const cpuProfArgs = (dir: string | undefined): string[] => (dir ? ['--cpu-prof', `--cpu-prof-dir=${dir}`] : []);

/**
 * Where each profiled process writes its `.cpuprofile`: with --cpu-prof the relay, in the directory
 * given; with --profile the relay and the Express proxy, each in a folder of its own under it.
 */
export function cpuProfileDirs(root: string, options: Pick<BenchOptions, 'cpuProfileDir' | 'profileRow'>): { relay?: string; express?: string } {
  if (options.profileRow) {
    const base = path.resolve(root, options.cpuProfileDir ?? 'tmp/bench-profiles');
    return { relay: path.join(base, 'relay'), express: path.join(base, 'express') };
  }
  return options.cpuProfileDir ? { relay: path.resolve(root, options.cpuProfileDir) } : {};
}

async function startReferenceProxy(
  root: string,
  name: 'floor' | 'express',
  simulatorOrigin: string,
  nodeArgs: readonly string[] = [],
): Promise<{ child: Child; port: number }> {
  const port = await findFreePort();
  const child = startNode(`${name}-proxy`, [...nodeArgs, path.join(root, bundles[name])], {
    PORT: String(port),
    UPSTREAM_ORIGIN: simulatorOrigin,
  });
  // Any answer proves it listens; GET is not routed by the proxies and gets a 404 or a 502.
  await waitUntilAnswering(child, `http://127.0.0.1:${port}/ready`);
  return { child, port };
}

/** With --shared-stores: where the second relay keeps its data and limits. */
export interface SharedStores {
  urls: SharedStoreUrls;
  space: SharedStoreSpace;
}

/**
 * Starts the simulator, the relay, both reference proxies, (with --shared-stores) the relay on
 * PostgreSQL + Redis, and (with --peers) Portkey, all on 127.0.0.1.
 */
export async function startStack(root: string, options: BenchOptions, log: (line: string) => void, shared?: SharedStores): Promise<Stack> {
  requireBundles(root);
  const notes: string[] = [];

  const simulatorPort = await findFreePort();
  const simulatorOrigin = `http://127.0.0.1:${simulatorPort}`;
  const simulatorBaseUrl = `${simulatorOrigin}/v1`;
  const simulator = startNode('upstream-sim', [path.join(root, bundles.simulator)], {
    PORT: String(simulatorPort),
    HOST: '127.0.0.1',
    SIM_LATENCY_MS_PER_TOKEN: '0',
  });
  await waitUntilAnswering(simulator, `${simulatorBaseUrl}/models`);
  log(`simulator on ${simulatorOrigin} (pid ${simulator.pid})`);

  const profileDirs = cpuProfileDirs(root, options);
  const relay = await startRelay(path.join(root, bundles.relay), simulatorBaseUrl, cpuProfArgs(profileDirs.relay));
  log(`relay on ${relay.origin} (pid ${relay.child.pid}), data in ${relay.dataDir}`);

  // Set up as the SQLite one (same channel, token and policy: its rpm limit sends every request
  // through the Redis limiter), on the run's own schema and key prefix.
  const sharedRelay = shared
    ? await startRelay(path.join(root, bundles.relay), simulatorBaseUrl, [], sharedRelayEnv(shared.urls, shared.space))
    : undefined;
  if (sharedRelay && shared) {
    log(`${SHARED_RELAY_TARGET} on ${sharedRelay.origin} (pid ${sharedRelay.child.pid}), schema ${shared.space.schema}, keys ${shared.space.keyPrefix}*`);
    notes.push(
      `${SHARED_RELAY_TARGET}: PostgreSQL ${redactUrl(shared.urls.databaseUrl)} (schema ${shared.space.schema}), Redis ` +
        `${redactUrl(shared.urls.redisUrl)}; its CPU µs/req and peak RSS are the relay process's ` +
        'alone, the work of PostgreSQL and Redis is not in them',
    );
  }

  const floor = await startReferenceProxy(root, 'floor', simulatorOrigin);
  const express = await startReferenceProxy(root, 'express', simulatorOrigin, cpuProfArgs(profileDirs.express));

  const auth = { authorization: `Bearer ${relay.tokenKey}` };
  const targetOf = (id: Target['id'], child: Child, origin: string, routesEmbeddings: boolean, headers = auth): Target => ({
    id,
    url: `${origin}${chatPath}`,
    embeddingsUrl: routesEmbeddings ? `${origin}${embeddingsPath}` : undefined,
    headers,
    pid: child.pid,
    // The simulator answers every target but itself.
    ...(child === simulator ? {} : { upstreamPid: simulator.pid }),
  });
  const local = (port: number): string => `http://127.0.0.1:${port}`;
  // The floor forwards every path as it comes; the Express proxy routes the chat path alone.
  const targets: Target[] = [
    targetOf('direct', simulator, simulatorOrigin, true),
    targetOf('floor', floor.child, local(floor.port), true),
    targetOf('express', express.child, local(express.port), false),
    targetOf('relay', relay.child, relay.origin, true),
  ];
  if (sharedRelay) {
    targets.push(targetOf(SHARED_RELAY_TARGET, sharedRelay.child, sharedRelay.origin, true, { authorization: `Bearer ${sharedRelay.tokenKey}` }));
  }

  if (options.peers) {
    const peer = await startPortkey(simulatorBaseUrl, relay.tokenKey, log);
    if ('failed' in peer) {
      notes.push(`--peers: ${peer.failed}`);
      log(`peers: ${peer.failed}; carrying on without it`);
    } else {
      targets.push({ ...peer.target, upstreamPid: simulator.pid });
      log(`portkey on ${new URL(peer.target.url).origin} (pid ${peer.child.pid})`);
    }
  }
  const tempDirs = [relay.dataDir, ...(sharedRelay ? [sharedRelay.dataDir] : [])];
  const startFreshRelay = async (): Promise<FreshTarget> => {
    const fresh = await startRelay(path.join(root, bundles.relay), simulatorBaseUrl, []);
    tempDirs.push(fresh.dataDir);
    log(`fresh relay on ${fresh.origin} (pid ${fresh.child.pid})`);
    return {
      target: {
        id: 'relay',
        url: `${fresh.origin}${chatPath}`,
        embeddingsUrl: `${fresh.origin}${embeddingsPath}`,
        headers: { authorization: `Bearer ${fresh.tokenKey}` },
        pid: fresh.child.pid,
        upstreamPid: simulator.pid,
      },
      close: async () => {
        await stopChild(fresh.child);
        rmSync(fresh.dataDir, { recursive: true, force: true });
      },
    };
  };
  const startFreshExpress = async (): Promise<FreshTarget> => {
    // Never profiled, as the fresh relay is not: a profiler's own memory would count as the streams'.
    const fresh = await startReferenceProxy(root, 'express', simulatorOrigin);
    log(`fresh express proxy on ${local(fresh.port)} (pid ${fresh.child.pid})`);
    return { target: targetOf('express', fresh.child, local(fresh.port), false), close: () => stopChild(fresh.child) };
  };
  return { targets, startFreshRelay, startFreshExpress, tempDirs, notes, simulatorBaseUrl };
}
