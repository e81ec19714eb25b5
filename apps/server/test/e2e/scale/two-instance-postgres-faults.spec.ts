import { TEST_DATABASE_URL } from '../../storage/testing/store-backends';
import { chat, countBy, errorOf, pollUntil, probe, sleep, type ChatOutcome } from './relay-calls';
import { openPostgresFault, type PostgresFault } from './postgres-fault';
import { readLedger, steadyLoad, type Ledger } from './steady-load';
import { describeTwoInstances, useTwoInstances, type TwoInstances } from './two-instances';

/** Large enough never to refuse, so every request takes and settles a reservation. */
const QUOTA = 1_000_000_000;
/** The relays' bounds here (short, so the spec is quick): a query unanswered this long fails. */
const QUERY_TIMEOUT_MS = 1_500;
const DATABASE_BOUNDS = { RELAY_DB_STATEMENT_TIMEOUT_MS: '1000', RELAY_DB_QUERY_TIMEOUT_MS: String(QUERY_TIMEOUT_MS), RELAY_DB_CONNECT_TIMEOUT_MS: '1000' };
const STREAMED = { stream: true, latencyMsPerToken: 20 };

/** Neither relay exited, nor crashed on an unhandled error. */
function expectBothAlive(cluster: TwoInstances): void {
  for (const name of ['a', 'b'] as const) {
    const relay = cluster.relay(name);
    // What it said last, when it did not survive: the spec's failure shows why.
    if (relay.child.exitCode !== null || relay.child.signalCode !== null) console.error(`relay ${name} exited:\n${relay.output().slice(-4_000)}`);
    expect({ name, exitCode: relay.child.exitCode, signal: relay.child.signalCode }).toEqual({ name, exitCode: null, signal: null });
    expect(relay.output()).not.toMatch(/Unhandled 'error' event|uncaughtException|unhandled promise rejection/);
  }
}

/** Every 200 has exactly one row, no request two, no reservation left, quota_used = Σ costs. */
function expectLedgerExact(ledger: Ledger): void {
  expect(ledger.okWithoutOneRow).toEqual([]);
  expect(ledger.duplicated).toEqual([]);
  expect(ledger.openReservations).toBe(0);
  expect(ledger.quotaUsed).toBe(ledger.sumOfCosts);
  expect(ledger.sumOfCosts).toBeGreaterThan(0);
}

const describeLedger = (ledger: Ledger) =>
  `${ledger.statuses}; ${ledger.rows} rows, quota_used ${ledger.quotaUsed} = Σ costs ${ledger.sumOfCosts}; reservations drained after ${Math.round(ledger.drainedMs ?? -1)} ms`;

/** The log lines both relays wrote since `marks` (their output lengths then), that match `pattern`. */
function linesSince(cluster: TwoInstances, marks: Record<'a' | 'b', number>, pattern: RegExp): string[] {
  return (['a', 'b'] as const).flatMap((name) =>
    cluster
      .relay(name)
      .output()
      .slice(marks[name])
      .split('\n')
      .filter((line) => pattern.test(line)),
  );
}

const outputMarks = (cluster: TwoInstances) => ({ a: cluster.relay('a').output().length, b: cluster.relay('b').output().length });

/** The answers given while the database was away: 503 store_unavailable with Retry-After, or 200 (a stream under way, or a request admitted before). */
const refusedProperly = (outcome: ChatOutcome) => outcome.status === 503 && errorOf(outcome)?.code === 'store_unavailable' && outcome.retryAfter === '2';

describeTwoInstances('two relays on PostgreSQL through a proxy: a lost database fails only what needs it, and loses nothing (issue 26)', () => {
  // The proxy first (hooks run in order): the relays dial PostgreSQL through it.
  let fault: PostgresFault | undefined;
  beforeAll(async () => {
    fault = await openPostgresFault(TEST_DATABASE_URL!);
  });
  afterAll(async () => {
    await fault?.close();
  });
  const cluster = useTwoInstances(() => {
    if (!fault) throw new Error('no PostgreSQL proxy');
    return { databaseUrl: fault.url, env: DATABASE_BOUNDS };
  });
  afterEach(() => fault?.restore());

  it("pg_terminate_backend on the relays' own sessions under streamed load: both alive, each 200 has one row, quota_used = Σ costs, no reservation left", async () => {
    const instances = cluster();
    const token = await instances.createToken({ quota_limit: QUOTA });
    const load = steadyLoad(instances, token.key, 6, STREAMED);
    await sleep(400);
    let terminated = 0;
    for (let round = 0; round < 8; round += 1) {
      terminated += await fault!.terminateRelayBackends(instances.db);
      await sleep(150);
    }
    await sleep(400);
    const ledger = await readLedger(instances.db, token.id, await load.stop());
    console.info(`postgres terminate: ${terminated} relay sessions terminated; ${describeLedger(ledger)}`);
    expect(terminated).toBeGreaterThan(0);
    expectBothAlive(instances);
    expectLedgerExact(ledger);
  }, 40_000);

  it('connections reset five times under streamed load (a failover, a proxy\'s idle cut): both alive, the ledger exact', async () => {
    const instances = cluster();
    const token = await instances.createToken({ quota_limit: QUOTA });
    const load = steadyLoad(instances, token.key, 6, STREAMED);
    await sleep(400);
    for (let round = 0; round < 5; round += 1) {
      fault!.reset();
      await sleep(250);
    }
    await sleep(400);
    const ledger = await readLedger(instances.db, token.id, await load.stop());
    console.info(`postgres reset ×5: ${describeLedger(ledger)}`);
    expectBothAlive(instances);
    expectLedgerExact(ledger);
  }, 40_000);

  it('PostgreSQL down for 2 s under streamed load: new requests 503 store_unavailable with Retry-After, /readyz 503, a log line per interval; afterwards every row written once', async () => {
    const instances = cluster();
    const [a, b] = [instances.relay('a'), instances.relay('b')];
    const token = await instances.createToken({ quota_limit: QUOTA });
    const load = steadyLoad(instances, token.key, 6, STREAMED);
    await sleep(400);
    const marks = outputMarks(instances);
    const cutAt = load.outcomes.length;
    fault!.cut();
    const downStarted = performance.now();
    await sleep(800);
    const [readyA, readyB] = await Promise.all([probe(a, '/readyz'), probe(b, '/readyz')]);
    await sleep(2_000 - (performance.now() - downStarted));
    const duringOutage = load.outcomes.slice(cutAt);
    fault!.restore();
    const back = await pollUntil(async () => (await chat(a, token.key)).status === 200 && (await chat(b, token.key)).status === 200, { withinMs: 8_000, everyMs: 100 });
    await sleep(300);
    const outcomes = await load.stop();
    const ledger = await readLedger(instances.db, token.id, outcomes);
    const refused = duringOutage.filter((outcome) => outcome.status !== 200);
    const storeLines = linesSince(instances, marks, /database|PostgreSQL|usage log/i);
    const errorLines = linesSince(instances, marks, /"level":50/);
    console.info(
      `postgres down 2 s: during it ${duringOutage.length} answers (${[...countBy(duringOutage.map((outcome) => outcome.status))].map(([status, n]) => `${status}: ${n}`).join(', ')}), ` +
        `slowest refusal ${Math.round(Math.max(0, ...refused.map((outcome) => outcome.ms)))} ms; /readyz A ${readyA.status} B ${readyB.status}; ` +
        `log lines about the database ${storeLines.length} (error level ${errorLines.length}); both serving again ${Math.round(back ?? -1)} ms after the restore; ${describeLedger(ledger)}`,
    );
    expect(refused.length).toBeGreaterThan(5);
    expect(refused.filter((outcome) => !refusedProperly(outcome)).map((outcome) => [outcome.status, errorOf(outcome)?.code])).toEqual([]);
    expect(Math.max(...refused.map((outcome) => outcome.ms))).toBeLessThan(QUERY_TIMEOUT_MS + 500);
    expect([readyA.status, readyB.status]).toEqual([503, 503]);
    expect(readyA.body['reasons']).toContain('the database does not answer');
    // A line per kind of trouble and interval, never one per request, nor a stack.
    expect(errorLines).toEqual([]);
    expect(storeLines.length).toBeLessThanOrEqual(12);
    expect(storeLines.length).toBeLessThan(refused.length);
    expect(back).toBeDefined();
    expectBothAlive(instances);
    expectLedgerExact(ledger);
  }, 40_000);

  it('PostgreSQL blackholed for 3 s (connections open, nothing answers): no request waits past the query timeout, the ledger exact afterwards', async () => {
    const instances = cluster();
    const token = await instances.createToken({ quota_limit: QUOTA });
    const load = steadyLoad(instances, token.key, 6, STREAMED);
    await sleep(400);
    const holeAt = load.outcomes.length;
    fault!.blackhole();
    const readyA = probe(instances.relay('a'), '/readyz');
    await sleep(3_000);
    const duringHole = load.outcomes.slice(holeAt);
    fault!.restore();
    const ready = await readyA;
    await sleep(1_000);
    const outcomes = await load.stop();
    const ledger = await readLedger(instances.db, token.id, outcomes);
    const refused = duringHole.filter((outcome) => outcome.status !== 200);
    const slowest = Math.round(Math.max(0, ...refused.map((outcome) => outcome.ms)));
    console.info(
      `postgres blackholed 3 s: during it ${duringHole.length} answers (${[...countBy(duringHole.map((outcome) => outcome.status))].map(([status, n]) => `${status}: ${n}`).join(', ')}), ` +
        `slowest refusal ${slowest} ms (query timeout ${QUERY_TIMEOUT_MS} ms); /readyz ${ready.status} after ${Math.round(ready.ms)} ms; ${describeLedger(ledger)}`,
    );
    expect(refused.length).toBeGreaterThan(0);
    expect(refused.filter((outcome) => !refusedProperly(outcome)).map((outcome) => [outcome.status, errorOf(outcome)?.code])).toEqual([]);
    // The request waits for its connection or its reservation, each bounded; never the 44 s seen before.
    expect(slowest).toBeLessThan(2 * QUERY_TIMEOUT_MS + 500);
    expect(ready.status).toBe(503);
    expectBothAlive(instances);
    expectLedgerExact(ledger);
  }, 40_000);
});
