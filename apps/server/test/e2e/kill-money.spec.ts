import { startUpstreamSim, type UpstreamSim } from '@chat-relay/upstream-sim';
import Database from 'better-sqlite3';
import path from 'node:path';
import { USAGE_FLUSH_INTERVAL_MS } from '../../src/core/usage-defaults';
import { SQLITE_FILE_NAME } from '../../src/storage/sqlite/open-sqlite';
import { spawnRelay, type SpawnedRelay } from '../testing/spawn-relay';
import { SIM_KEY } from './e2e-relay';

const PRICE = { model: 'gpt-4o', input: 2_500_000, output: 10_000_000 };
const KILL_MARGIN_MS = 400;

interface Money {
  rows: number;
  /** Sum of the token's rows' costs. */
  charged: number;
  tokenUsed: number;
  accountUsed: number;
  /** Reservations left unsettled; null without the table (before issue 10). */
  reservations: number | null;
}

/** What the database holds, read straight from the file (the relay may be dead). */
function moneyIn(dataDir: string, tokenId: number): Money {
  const db = new Database(path.join(dataDir, SQLITE_FILE_NAME));
  try {
    const log = db.prepare('SELECT COUNT(*) AS rows, COALESCE(SUM(cost), 0) AS charged FROM usage_log WHERE token_id = ?').get(tokenId) as { rows: number; charged: number };
    const token = db.prepare('SELECT quota_used AS used, account_id AS accountId FROM tokens WHERE id = ?').get(tokenId) as { used: number; accountId: number };
    const account = db.prepare('SELECT quota_used AS used FROM accounts WHERE id = ?').get(token.accountId) as { used: number };
    const table = db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'quota_reservations'").get();
    const reservations = table ? (db.prepare('SELECT COUNT(*) AS n FROM quota_reservations').get() as { n: number }).n : null;
    return { ...log, tokenUsed: token.used, accountUsed: account.used, reservations };
  } finally {
    db.close();
  }
}

async function call(relay: SpawnedRelay, key: string, method: string, pathname: string, body?: unknown): Promise<Response> {
  return fetch(`${relay.url}${pathname}`, {
    method,
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

/** A channel to the simulator, gpt-4o priced, and a token with a quota limit. */
async function setUp(relay: SpawnedRelay, sim: UpstreamSim): Promise<{ key: string; id: number }> {
  const admin = relay.adminKey;
  expect((await call(relay, admin, 'POST', '/api/channels', { name: 'sim', type: 'openai', base_url: sim.baseUrl, keys: [SIM_KEY], models: ['gpt-4o'] })).status).toBe(201);
  expect((await call(relay, admin, 'PUT', '/api/prices', { data: [PRICE] })).status).toBe(200);
  const token = await call(relay, admin, 'POST', '/api/tokens', { name: 'crash', quota_limit: 1_000_000_000 });
  expect(token.status).toBe(201);
  return (await token.json()) as { key: string; id: number };
}

const chat = (relay: SpawnedRelay, key: string, body: Record<string, unknown>) =>
  call(relay, key, 'POST', '/v1/chat/completions', { model: 'gpt-4o', messages: [{ role: 'user', content: 'count these few words' }], ...body });

async function killHard(relay: SpawnedRelay): Promise<void> {
  relay.child.kill('SIGKILL');
  expect(await relay.exited).toBe('SIGKILL');
}

describe('issue 10 defect 6: money lost on kill -9', () => {
  let sim: UpstreamSim;
  let relay: SpawnedRelay | undefined;

  beforeEach(async () => {
    sim = await startUpstreamSim({ acceptedKeys: [SIM_KEY] });
  });
  afterEach(async () => {
    await relay?.close();
    relay = undefined;
    await sim.close();
  });

  it('(a) killed with 30 streams in flight: after restart quota_used is the sum of the rows written, nothing stays reserved', async () => {
    relay = await spawnRelay();
    const token = await setUp(relay, sim);
    // Five requests that complete, and whose rows are written.
    for (let i = 0; i < 5; i++) expect((await chat(relay, token.key, {})).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, USAGE_FLUSH_INTERVAL_MS * 2));

    // Thirty slow streams (about 5 s each), every one admitted and under way when the process dies.
    const slow = { stream: true, messages: [{ role: 'user', content: 'word '.repeat(50) }], x_sim: { latency_ms_per_token: 100 } };
    const inFlight = await Promise.all(Array.from({ length: 30 }, () => chat(relay!, token.key, slow)));
    expect(inFlight.map((response) => response.status)).toEqual(Array(30).fill(200));
    await killHard(relay);
    await Promise.all(inFlight.map((response) => response.arrayBuffer().catch(() => undefined)));

    const dead = moneyIn(relay.dataDir, token.id);
    relay = await spawnRelay({ dataDir: relay.dataDir });
    const after = moneyIn(relay.dataDir, token.id);
    const shown = (await (await call(relay, relay.adminKey, 'GET', `/api/tokens/${token.id}`)).json()) as { quota_used: number };
    expect(after.rows).toBe(5);
    expect(after.tokenUsed).toBe(after.charged);
    expect(after.accountUsed).toBe(after.charged);
    expect(shown.quota_used).toBe(after.charged);
    expect(after.reservations).toBe(0);
    // The crash did leave the 30 reservations taken, recorded, for the restart to give back.
    expect(dead.reservations).toBe(30);
    expect(dead.tokenUsed).toBeGreaterThan(dead.charged);
    expect(relay.output()).toContain('gave back quota reserved by requests a previous process never settled');
    console.info(
      `defect 6 (a): kill -9 with 30 streams in flight: ${dead.rows} rows, quota_used ${dead.tokenUsed} (rows ${dead.charged}, ` +
        `${dead.reservations} reservations) → after restart quota_used ${after.tokenUsed} = rows ${after.charged}`,
    );
  }, 60_000);

  it.each([
    ['the default', USAGE_FLUSH_INTERVAL_MS, {}],
    ['RELAY_USAGE_FLUSH_MS=100', 100, { RELAY_USAGE_FLUSH_MS: '100' }],
  ])('(b) killed a little more than the window (%s, %i ms) after 20 completed requests: 20 rows, quota = their cost', async (_name, windowMs, env) => {
    relay = await spawnRelay({ env });
    const token = await setUp(relay, sim);
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, index) => chat(relay!, token.key, index % 2 ? { stream: true } : {})),
    );
    await Promise.all(responses.map((response) => response.arrayBuffer()));
    expect(responses.map((response) => response.status)).toEqual(Array(20).fill(200));
    // The window: one flush interval, then the write itself; a margin for a busy CI box.
    const killAfterMs = windowMs + KILL_MARGIN_MS;
    await new Promise((resolve) => setTimeout(resolve, killAfterMs));
    await killHard(relay);

    relay = await spawnRelay({ dataDir: relay.dataDir });
    const after = moneyIn(relay.dataDir, token.id);
    expect(after.rows).toBe(20);
    expect(after.charged).toBeGreaterThan(0);
    expect(after.reservations).toBe(0);
    expect(after.tokenUsed).toBe(after.charged);
    expect(after.accountUsed).toBe(after.charged);
    console.info(`defect 6 (b): 20 completed, ${windowMs} ms window, kill -9 ${killAfterMs} ms later → ${after.rows} rows, quota_used ${after.tokenUsed} = rows ${after.charged}`);
  }, 60_000);

  it('(c) killed the moment 20 requests completed: rows of the last window may be lost, never money out of step', async () => {
    relay = await spawnRelay();
    const token = await setUp(relay, sim);
    const responses = await Promise.all(Array.from({ length: 20 }, () => chat(relay!, token.key, {})));
    await Promise.all(responses.map((response) => response.arrayBuffer()));
    await killHard(relay);

    relay = await spawnRelay({ dataDir: relay.dataDir });
    const after = moneyIn(relay.dataDir, token.id);
    expect(after.rows).toBeLessThanOrEqual(20);
    expect(after.reservations).toBe(0);
    // The requests whose rows were lost are given back, not charged: quota_used is the rows' sum.
    expect(after.tokenUsed).toBe(after.charged);
    expect(after.accountUsed).toBe(after.charged);
    console.info(`defect 6 (c): 20 completed, kill -9 at once → ${after.rows} rows kept, quota_used ${after.tokenUsed} = rows ${after.charged}`);
  }, 60_000);
});
