// The upstream simulator as the benchmark runs it: the same server as
// dist/tools/upstream-sim/main.js, except that it forgets the requests it records. The simulator
// keeps every request for tests to inspect; under load that is gigabytes (64 KiB bodies) and a
// heap whose garbage collection slows every target measured behind it.
import { startUpstreamSim } from '@chat-relay/upstream-sim';

async function main(): Promise<void> {
  const port = Number(process.env['PORT']);
  const latencyMsPerToken = Number(process.env['SIM_LATENCY_MS_PER_TOKEN'] ?? '0');
  if (!Number.isInteger(port) || port <= 0 || !Number.isFinite(latencyMsPerToken) || latencyMsPerToken < 0) {
    throw new Error('set PORT (and optionally SIM_LATENCY_MS_PER_TOKEN)');
  }
  const sim = await startUpstreamSim({ host: '127.0.0.1', port, latencyMsPerToken });
  setInterval(() => sim.reset(), 100).unref();
  console.log(`bench simulator on ${sim.baseUrl}`);
  process.once('SIGTERM', () => {
    sim.close().finally(() => process.exit(0));
  });
}

main().catch((error: unknown) => {
  console.error(`bench simulator: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
