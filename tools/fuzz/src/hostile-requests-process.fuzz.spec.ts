import { startUpstreamSim, type UpstreamSim } from '@chat-relay/upstream-sim';
import { DEFAULT_SIM_KEY as SIM_KEY } from './cli-options';
import { seedFuzzTargets } from './fuzz-fixtures';
import { fuzzOptionsFromEnv } from './fuzz-options';
import { failureReport, runFuzz, summaryLine } from './run-fuzz';
import { stillServing } from './still-serving';
import { spawnRelayBundle, type SpawnedRelay } from './testing/spawn-relay-bundle';

/**
 * The same generators against the production bundle in its own process, where a crash is a
 * dead process rather than an event a test can catch: fewer requests, other cases (seed + 1).
 */
describe('hostile requests against the production bundle in its own process', () => {
  const inProcess = fuzzOptionsFromEnv({ runs: 1_500, concurrency: 12 });
  const options = { ...inProcess, seed: inProcess.seed + 1, runs: process.env['FUZZ_PROCESS_RUNS'] ? Number(process.env['FUZZ_PROCESS_RUNS']) : 1_500 };
  let sim: UpstreamSim;
  let relay: SpawnedRelay;

  beforeAll(async () => {
    sim = await startUpstreamSim({ acceptedKeys: [SIM_KEY] });
    relay = await spawnRelayBundle();
  }, 60_000);

  afterAll(async () => {
    await relay?.close();
    await sim?.close();
  });

  it('keeps the process alive, answers in shape, and serves a chat afterwards', async () => {
    const context = await seedFuzzTargets(relay.url, relay.adminKey, { ...sim, key: SIM_KEY });
    const result = await runFuzz(relay.url, context, options);
    const alive = relay.child.exitCode === null && relay.child.signalCode === null;

    process.stderr.write(`${summaryLine('fuzz (spawned bundle)', result, options)}\n`);
    if (result.failures.length > 0) process.stderr.write(`${failureReport(result, options)}\n`);
    if (!alive) process.stderr.write(`relay exited (${relay.child.exitCode ?? relay.child.signalCode}):\n${relay.output().slice(-4_000)}\n`);
    expect(alive).toBe(true);

    const after = await stillServing(relay.url, context);
    expect({
      ...after,
      failures: result.failures.map((failure) => `${failure.problem} ← ${failure.family}`).slice(0, 30),
    }).toEqual({ health: 200, chat: 200, content: 'You said: still there?', failures: [] });
  }, 180_000);
});
