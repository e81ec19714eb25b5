import { fork } from 'node:child_process';
import path from 'node:path';
import { latencyPercentiles } from './stats';
import { bridgedModel, largeChatBody, toolsOnlyBody } from './large-body-workloads';
import { stopChild } from './processes';
import { adminCall, startRelay, type StartedRelay } from './relay-setup';
import type { HealthzLatency, LargeBodyRow } from './report';
import { formatLargeBody } from './large-bodies-table';

/** What a load of large bodies sends, and to whom. */
interface LargeLoad {
  name: string;
  body: Buffer;
  key: string;
  callers: number;
  perCaller: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The relay's event-loop delay since the last scrape (prom-client resets its histogram on every scrape), in ms. */
async function loopLagMaxMs(relay: StartedRelay): Promise<number | undefined> {
  const response = await fetch(`${relay.origin}/metrics`, { headers: { authorization: `Bearer ${relay.adminKey}` } });
  const value = /^nodejs_eventloop_lag_max_seconds (\S+)$/m.exec(await response.text())?.[1];
  return value === undefined ? undefined : Number(value) * 1000;
}

function summarise(latencies: readonly number[]): HealthzLatency {
  const { p50, p99 } = latencyPercentiles(latencies);
  return {
    samples: latencies.length,
    p50Ms: p50,
    p99Ms: p99,
    maxMs: latencies.length > 0 ? Math.max(...latencies) : undefined,
    over100Ms: latencies.filter((ms) => ms > 100).length,
  };
}

/** Starts the probe process on `url`; the returned function stops it and answers its latencies. */
function startProbe(probeBundle: string, url: string): () => Promise<number[]> {
  const probe = fork(probeBundle, [url], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  const answered = new Promise<number[]>((resolve, reject) => {
    probe.once('message', (latencies) => resolve(latencies as number[]));
    probe.once('exit', (code) => reject(new Error(`the healthz probe exited (${code}) without its latencies`)));
  });
  return () => {
    probe.send('stop');
    return answered;
  };
}

async function runLoad(relay: StartedRelay, probeBundle: string, load: LargeLoad): Promise<LargeBodyRow> {
  await loopLagMaxMs(relay);
  const stopProbe = startProbe(probeBundle, `${relay.origin}/healthz`);
  // A quiet moment first: the probe's own start is not in the figures of the load.
  await sleep(300);
  const statuses: Record<string, number> = {};
  const durations: number[] = [];
  const started = performance.now();
  const caller = async () => {
    for (let sent = 0; sent < load.perCaller; sent += 1) {
      const at = performance.now();
      let status = 'error';
      try {
        const response = await fetch(`${relay.origin}/v1/chat/completions`, {
          method: 'POST',
          headers: { authorization: `Bearer ${load.key}`, 'content-type': 'application/json' },
          body: load.body,
        });
        await response.arrayBuffer();
        status = String(response.status);
      } catch {
        // Counted as `error` below.
      }
      durations.push(performance.now() - at);
      statuses[status] = (statuses[status] ?? 0) + 1;
    }
  };
  await Promise.all(Array.from({ length: load.callers }, caller));
  const seconds = (performance.now() - started) / 1000;
  const healthz = summarise(await stopProbe());
  const { p50 } = latencyPercentiles(durations);
  return {
    name: load.name,
    bodyBytes: load.body.length,
    callers: load.callers,
    perCaller: load.perCaller,
    statuses,
    requestP50Ms: p50,
    requestMaxMs: Math.max(...durations),
    seconds,
    healthz,
    loopLagMaxMs: await loopLagMaxMs(relay),
  };
}

/**
 * Issue 26: a fresh relay (its production bundle, SQLite) with an `anthropic` channel to the
 * simulator, so that Chat Completions requests are bridged (converted, serialised again); ~18 MB
 * bodies sent four at a time and relayed, then bodies it refuses (a model nobody serves, a token
 * without quota, tool definitions over RELAY_MAX_TOOLS_BYTES); all the while a probe in its own
 * process checks `/healthz` every 5 ms, and the relay's event-loop delay is read from its metrics.
 */
export async function runLargeBodies(
  root: string,
  bundles: { relay: string; probe: string },
  simulatorBaseUrl: string,
  log: (line: string) => void,
): Promise<LargeBodyRow[]> {
  const relay = await startRelay(path.join(root, bundles.relay), simulatorBaseUrl, []);
  try {
    await adminCall(relay.origin, relay.adminKey, 'POST', '/api/channels', {
      name: 'simulator (anthropic)',
      type: 'anthropic',
      base_url: simulatorBaseUrl,
      keys: ['sk-simulator'],
      models: [bridgedModel],
    });
    await adminCall(relay.origin, relay.adminKey, 'PATCH', `/api/tokens/${relay.tokenId}`, { models: ['gpt-4o*', bridgedModel] });
    const broke = (await adminCall(relay.origin, relay.adminKey, 'POST', '/api/tokens', { name: 'no quota', quota_limit: 0 })) as { key?: unknown };
    if (typeof broke.key !== 'string') throw new Error('POST /api/tokens answered no key');
    const relayed = largeChatBody(bridgedModel);
    const loads: LargeLoad[] = [
      { name: 'relayed, bridged chat → anthropic', body: relayed, key: relay.tokenKey, callers: 4, perCaller: 2 },
      { name: 'refused: a model nobody serves (404)', body: largeChatBody('gpt-4o-no-such-model'), key: relay.tokenKey, callers: 20, perCaller: 1 },
      { name: 'refused: a token without quota (429)', body: relayed, key: broke.key, callers: 4, perCaller: 1 },
      { name: 'refused: tools over RELAY_MAX_TOOLS_BYTES (400)', body: toolsOnlyBody(bridgedModel), key: relay.tokenKey, callers: 4, perCaller: 1 },
    ];
    const rows: LargeBodyRow[] = [];
    for (const load of loads) {
      const row = await runLoad(relay, path.join(root, bundles.probe), load);
      rows.push(row);
      log(`large bodies: ${formatLargeBody(row)}`);
    }
    return rows;
  } finally {
    await stopChild(relay.child);
  }
}
