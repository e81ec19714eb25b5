import { execFile } from 'node:child_process';
import { spawnRelayBundle, workspaceBundle, type SpawnedRelay } from './testing/spawn-relay-bundle';

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function runCli(args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    execFile(process.execPath, [workspaceBundle('tools/fuzz/src/main.ts'), ...args], { env: { PATH: process.env['PATH'] ?? '' }, timeout: 120_000 }, (error, stdout, stderr) =>
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : null) : 0, stdout, stderr }),
    );
  });
}

/** The CLI's bundle aimed by `--url` at a relay it did not start, with the simulator it starts itself. */
describe('the fuzz CLI', () => {
  let relay: SpawnedRelay;

  beforeAll(async () => {
    relay = await spawnRelayBundle();
  }, 60_000);

  afterAll(async () => {
    await relay?.close();
  });

  it('seeds the relay at --url, sends --runs requests and exits 0 when every answer holds', async () => {
    const run = await runCli([`--url=${relay.url}`, `--admin-key=${relay.adminKey}`, '--runs=300', '--seed=7']);
    expect({ code: run.code, summary: /fuzz \(http:\/\/127\.0\.0\.1:\d+\): 300 requests in .* \| failures 0/.test(run.stderr) }).toEqual({
      code: 0,
      summary: true,
    });
  }, 120_000);

  it('exits 2 with the usage on a bad argument, before touching any relay', async () => {
    const run = await runCli(['--url=https://relay.example', '--admin-key=k']);
    expect({ code: run.code, says: run.stderr.includes('expected http://host:port'), usage: run.stderr.includes('usage:') }).toEqual({
      code: 2,
      says: true,
      usage: true,
    });
  }, 60_000);
});
