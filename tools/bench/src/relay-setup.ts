import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { findFreePort, startNode, waitUntilAnswering, type Child } from './processes';
import { embeddingModel } from './workloads';

export interface StartedRelay {
  child: Child;
  origin: string;
  dataDir: string;
  /** The API token the load uses, its policy switched on. */
  tokenKey: string;
  tokenId: number;
  /** For checks that add channels or tokens of their own. */
  adminKey: string;
}

export async function adminCall(origin: string, adminKey: string, method: string, route: string, body: unknown): Promise<unknown> {
  const response = await fetch(`${origin}${route}`, {
    method,
    headers: { authorization: `Bearer ${adminKey}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${route}: ${response.status} ${text}`);
  return JSON.parse(text) as unknown;
}

/**
 * glibc's malloc as `npm start` sets it for the relay (package.json; README, "Memory"): blocks of
 * 128 KiB and more always mapped and unmapped on their own. By default glibc raises that threshold
 * after the first large block is freed, and the freed memory then stays in its arenas: the relay
 * idled at ~80 or ~90 MB by how the compile of undici's parser fragmented a thread's arena, and
 * at 70–77 MB with the threshold fixed (docs/PERFORMANCE.md, issue 30). An operator's own
 * GLIBC_TUNABLES stands. Other C libraries ignore it.
 */
export const RELAY_GLIBC_TUNABLES = 'glibc.malloc.mmap_threshold=131072';

function field(value: unknown, name: string): unknown {
  return typeof value === 'object' && value !== null && name in value ? (value as Record<string, unknown>)[name] : undefined;
}

/**
 * Starts the relay bundle on a fresh SQLite data directory, with one channel to the simulator
 * and one token whose policy is on — model allow-list, address allow-list, an rpm limit far
 * above the load — so the measured path is the full one. The seeded price table prices gpt-4o
 * and text-embedding-3-small, so every request is costed and settled; the quota stays unlimited.
 * The channel names the embedding model: a named model is served on every endpoint of its channel.
 */
export async function startRelay(
  bundle: string,
  simulatorBaseUrl: string,
  nodeArgs: readonly string[],
  extraEnv: Record<string, string> = {},
): Promise<StartedRelay> {
  const port = await findFreePort();
  const origin = `http://127.0.0.1:${port}`;
  const adminKey = `bench-admin-${randomBytes(12).toString('hex')}`;
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'chat-relay-bench-'));
  const child = startNode('relay', [...nodeArgs, bundle], {
    PORT: String(port),
    HOST: '127.0.0.1',
    RELAY_DATA_DIR: dataDir,
    RELAY_ADMIN_KEY: adminKey,
    RELAY_LOG_LEVEL: 'warn',
    // The relay as `npm start` runs it; the reference proxies run as bare `node`.
    GLIBC_TUNABLES: process.env['GLIBC_TUNABLES'] || RELAY_GLIBC_TUNABLES,
    ...extraEnv,
  });
  await waitUntilAnswering(child, `${origin}/healthz`);

  await adminCall(origin, adminKey, 'POST', '/api/channels', {
    name: 'simulator',
    type: 'openai',
    base_url: simulatorBaseUrl,
    keys: ['sk-simulator'],
    models: ['gpt-4o', 'gpt-4o-mini', embeddingModel],
  });
  const token = await adminCall(origin, adminKey, 'POST', '/api/tokens', { name: 'bench' });
  const id = field(token, 'id');
  const key = field(token, 'key');
  if (typeof id !== 'number' || typeof key !== 'string') throw new Error(`POST /api/tokens answered ${JSON.stringify(token)}`);
  await adminCall(origin, adminKey, 'PATCH', `/api/tokens/${id}`, {
    models: ['gpt-4o*', embeddingModel],
    allowed_ips: ['127.0.0.1/32', '::1'],
    // The contract's ceiling; about 16,700 requests a second, never reached here.
    rate_limit: { rpm: 1_000_000, tpm: null },
    ...tokenLimits(process.env['BENCH_TOKEN_LIMITS']),
  });
  return { child, origin, dataDir, tokenKey: key, tokenId: id, adminKey };
}

/**
 * BENCH_TOKEN_LIMITS: what the bench token is limited by, never reached — `lifetime` (a quota:
 * every request reserves and settles), `windows` (the quota and a day's cost, requests and tokens
 * windows, riding the same reservation), unset: nothing (no reservation at all).
 */
function tokenLimits(mode: string | undefined): Record<string, unknown> {
  if (mode === undefined || mode === '') return {};
  const quota = { quota_limit: 1_000_000_000_000_000 };
  if (mode === 'lifetime') return quota;
  if (mode === 'windows') {
    const huge = 1_000_000_000_000_000;
    return {
      ...quota,
      periodic_limits: [
        { period: 'day', metric: 'cost', limit: huge },
        { period: 'day', metric: 'requests', limit: huge },
        { period: 'month', metric: 'tokens', limit: huge },
      ],
    };
  }
  throw new Error(`BENCH_TOKEN_LIMITS must be lifetime or windows, not ${JSON.stringify(mode)}`);
}
