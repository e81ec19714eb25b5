import { startUpstreamSim, type UpstreamSim } from '@chat-relay/upstream-sim';
import type { LogEntry, Token } from '@chat-relay/contract';
import { spawnRelay, type SpawnedRelay } from '../testing/spawn-relay';
import { adminCall } from '../testing/spawned-setup';

// A relay restarted with a video in flight (issue 17): the task lives in the database, so the next
// process resumes polling it, and it is charged exactly once when it completes — whether the
// first process was killed outright or stopped cleanly. The real bundle in its own process.
jest.setTimeout(60_000);

const SIM_KEY = 'sk-sim-restart';
const SECOND = 100_000;
const env = { RELAY_TASK_POLL_MS: '150', RELAY_TASK_POLL_MAX_MS: '300' };

let sim: UpstreamSim;
const relays: SpawnedRelay[] = [];

beforeAll(async () => {
  sim = await startUpstreamSim({ acceptedKeys: [SIM_KEY], taskDurationMs: 2_500 });
});
afterAll(async () => {
  for (const relay of relays.reverse()) await relay.close();
  await sim.close();
});

async function start(dataDir?: string): Promise<SpawnedRelay> {
  const relay = await spawnRelay({ dataDir, env });
  relays.push(relay);
  return relay;
}

const polls = () => sim.requests.filter((request) => request.method === 'GET' && request.path.startsWith('/v1/videos/')).length;

async function until<T>(what: string, read: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

it.each([
  ['killed (SIGKILL)', 'SIGKILL'],
  ['stopped (SIGTERM)', 'SIGTERM'],
] as const)('a video submitted before the relay was %s completes after the restart and is charged once', async (_how, signal) => {
  const first = await start();
  await adminCall(first, 'POST', '/api/channels', { name: 'sim', type: 'openai', base_url: sim.baseUrl, keys: [SIM_KEY], models: ['sora-2'], endpoints: ['videos'] });
  await adminCall(first, 'PUT', '/api/prices', { data: [{ model: 'sora-2', input: 0, output: 0, video_second: SECOND }] });
  const token = await adminCall<{ id: number; key: string }>(first, 'POST', '/api/tokens', { name: 'restart', quota_limit: 10_000_000 });

  const submitted = await fetch(`${first.url}/v1/videos`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token.key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ prompt: `A lighthouse through a restart (${signal})` }),
  });
  expect(submitted.status).toBe(200);
  const requestId = submitted.headers.get('x-request-id') ?? '';
  const video = (await submitted.json()) as { id: string; status: string };
  expect(video.status).toBe('queued');
  // The first process is polling it when it goes.
  const before = polls();
  await until('a poll by the first relay', async () => (polls() > before ? true : undefined));
  first.child.kill(signal);
  await first.exited;

  const second = await start(first.dataDir);
  const done = await until('the video to complete after the restart', async () => {
    const answer = await fetch(`${second.url}/v1/videos/${video.id}`, { headers: { authorization: `Bearer ${token.key}` } });
    expect(answer.status).toBe(200);
    const body = (await answer.json()) as { status: string; progress: number };
    return body.status === 'completed' || body.status === 'failed' ? body : undefined;
  });
  expect(done).toMatchObject({ status: 'completed', progress: 100 });

  // One row, the whole charge, nothing held — and still so a few polls' time later.
  await new Promise((resolve) => setTimeout(resolve, 600));
  const rows = (await adminCall<{ data: LogEntry[] }>(second, 'GET', '/api/logs?per_page=100')).data.filter((row) => row.request_id === requestId);
  expect(rows).toHaveLength(1);
  expect(rows[0]).toMatchObject({ endpoint: 'videos', status: 200, units: 4, cost: 4 * SECOND });
  expect((await adminCall<Token>(second, 'GET', `/api/tokens/${token.id}`)).quota_used).toBe(4 * SECOND);
  expect(second.output()).toContain('resuming tasks in flight');
  second.child.kill('SIGTERM');
  await second.exited;
});
