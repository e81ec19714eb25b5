import { startUpstreamSim, type UpstreamSim } from '@chat-relay/upstream-sim';
import Database from 'better-sqlite3';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { relayBundle } from '../testing/spawn-relay';

const ROOT = path.resolve(__dirname, '../../../..');
const ADMIN_KEY = 'shutdown-admin-key-0123456789';

/**
 * The real entry point, bundled the way `npm run build` does (into the workspace, where its
 * packages resolve — a dynamic import ignores NODE_PATH), run as its own process.
 */
async function startRelayProcess(dataDir: string): Promise<{ child: ChildProcessWithoutNullStreams; url: string }> {
  const child = spawn(process.execPath, [relayBundle()], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: '', REDIS_URL: '', PORT: '0', HOST: '127.0.0.1', RELAY_DATA_DIR: dataDir, RELAY_ADMIN_KEY: ADMIN_KEY, RELAY_LOG_LEVEL: 'info' },
  });
  const url = await new Promise<string>((resolve, reject) => {
    let output = '';
    child.stdout.on('data', (data: Buffer) => {
      output += data.toString();
      const match = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
      if (match?.[1]) resolve(match[1]);
    });
    child.once('exit', (code) => reject(new Error(`relay exited (${code}): ${output}`)));
  });
  return { child, url };
}

describe('e2e: SIGTERM drains in-flight requests and the usage log', () => {
  let sim: UpstreamSim;
  let dataDir: string;

  beforeEach(async () => {
    sim = await startUpstreamSim({ acceptedKeys: ['sk-sim'] });
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'relay-shutdown-'));
  });
  afterEach(async () => {
    await sim.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('finishes the streams under way, writes one row per request, then exits 0', async () => {
    const { child, url } = await startRelayProcess(dataDir);
    const admin = { authorization: `Bearer ${ADMIN_KEY}`, 'content-type': 'application/json' };
    await fetch(`${url}/api/channels`, {
      method: 'POST',
      headers: admin,
      body: JSON.stringify({ name: 'sim', type: 'openai', base_url: sim.baseUrl, keys: ['sk-sim'], models: ['gpt-4o'] }),
    });
    const { key } = (await (await fetch(`${url}/api/tokens`, { method: 'POST', headers: admin, body: '{"name":"t"}' })).json()) as { key: string };

    // Slow streams (40 ms a token) still running when SIGTERM arrives.
    const requests = Array.from({ length: 12 }, (_, i) =>
      fetch(`${url}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          model: 'gpt-4o',
          stream: i % 2 === 0,
          messages: [{ role: 'user', content: `request ${i} with a few words [sim:latency=40]` }],
        }),
      }).then(async (response) => ({ status: response.status, text: await response.text() })),
    );
    // Under way = reached the upstream; a request still on the wire when the listener closes
    // meets a closed connection, as with any server (a fixed wait raced that under load).
    for (let waited = 0; sim.requests.length < 12 && waited < 5000; waited += 10) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');

    const answers = await Promise.all(requests);
    expect(await exited).toBe(0);
    expect(answers.map((answer) => answer.status)).toEqual(Array(12).fill(200));
    for (const answer of answers.filter((_, i) => i % 2 === 0)) expect(answer.text.endsWith('data: [DONE]\n\n')).toBe(true);

    const db = new Database(path.join(dataDir, 'relay.db'), { readonly: true });
    const rows = db.prepare('SELECT status, completion_tokens FROM usage_log').all() as Array<{ status: number; completion_tokens: number }>;
    db.close();
    expect(rows).toHaveLength(12);
    expect(rows.every((row) => row.status === 200 && row.completion_tokens > 0)).toBe(true);
  }, 20_000);
});
