import { spawnRelay, type SpawnedRelay } from '../testing/spawn-relay';

/** `nodejs_heap_space_size_total_bytes{space="<space>"}` from the relay's own /metrics. */
async function heapSpaceBytes(relay: SpawnedRelay, space: string): Promise<number> {
  const response = await fetch(`${relay.url}/metrics`, { headers: { authorization: `Bearer ${relay.adminKey}` } });
  expect(response.status).toBe(200);
  const text = await response.text();
  const line = text.split('\n').find((row) => row.startsWith(`nodejs_heap_space_size_total_bytes{space="${space}"}`));
  if (line === undefined) throw new Error(`no ${space} space in /metrics`);
  return Number(line.slice(line.lastIndexOf(' ') + 1));
}

// Issue 30: the start is nearly all survivors, and V8 doubled the young generation at each turn
// of them, to its 16 MB maximum per semispace (~34 MB committed) in a relay that then sat idle.
describe('the young generation after the start (the real bundle)', () => {
  let relay: SpawnedRelay | undefined;
  afterEach(async () => relay?.close());

  it('stays at a few MB after the start, not at V8\'s 16 MB per semispace', async () => {
    relay = await spawnRelay();
    const young = await heapSpaceBytes(relay, 'new');
    expect(young).toBeGreaterThan(0);
    expect(young).toBeLessThanOrEqual(8 * 1024 * 1024);
  });

  it('leaves an operator\'s own young-generation flag alone', async () => {
    // The one young-generation flag NODE_OPTIONS admits: with it, V8 grows the young generation
    // through the start as it always did.
    relay = await spawnRelay({ env: { NODE_OPTIONS: '--max-semi-space-size=32' } });
    expect(await heapSpaceBytes(relay, 'new')).toBeGreaterThan(8 * 1024 * 1024);
  });
});
