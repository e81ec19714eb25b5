// The health-check probe of the large-bodies check, in a process of its own so that the bench's own
// work (sending 18 MB bodies) never delays its timings: `GET <url>` every 5 ms until the parent
// asks for the latencies (any IPC message), which it then sends back (ms, one per check).
const url = process.argv[2];
const latencies: number[] = [];
let stopped = false;

process.once('message', () => (stopped = true));

async function probe(): Promise<void> {
  if (!url || !process.send) throw new Error('usage: fork healthz-probe.js <url> (with an IPC channel)');
  while (!stopped) {
    const started = performance.now();
    try {
      await (await fetch(url)).arrayBuffer();
    } catch {
      // A refused or reset check counts by its time like any other.
    }
    latencies.push(performance.now() - started);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  process.send(latencies, () => process.exit(0));
}

probe().catch((error: unknown) => {
  console.error(`healthz probe: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
