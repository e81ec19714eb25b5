import { chat, countBy, errorOf, sleep, type ChatOptions, type ChatOutcome } from './relay-calls';
import { openRedisFault, type RedisFault } from './redis-fault';
import { readLedger } from './steady-load';
import { describeTwoInstances, TEST_REDIS_URL, useTwoInstances, type TwoInstances } from './two-instances';

/**
 * `workers` callers of one token, each sending its next request as soon as its last one was
 * answered, alternating A and B, until `stop()`: together never more than `workers` in flight.
 */
function callersAtOnce(cluster: TwoInstances, key: string, workers: number, options: ChatOptions) {
  const outcomes: Array<ChatOutcome & { at: number }> = [];
  let stopped = false;
  const runs = Array.from({ length: workers }, async (_, worker) => {
    for (let i = 0; !stopped; i += 1) {
      const relay = cluster.relay((worker + i) % 2 === 0 ? 'a' : 'b');
      const outcome = await chat(relay, key, options);
      outcomes.push({ ...outcome, at: performance.now() });
    }
  });
  return {
    outcomes,
    stop: async () => {
      stopped = true;
      await Promise.all(runs);
      return outcomes;
    },
  };
}

const tally = (outcomes: readonly ChatOutcome[]) =>
  [...countBy(outcomes.map((outcome) => `${outcome.status}${outcome.status === 200 ? '' : ` ${String(errorOf(outcome)?.code)}`}`))]
    .map(([what, n]) => `${what}: ${n}`)
    .join(', ');

const refusedForConcurrency = (outcome: ChatOutcome) => outcome.status === 429 && errorOf(outcome)?.code === 'concurrency_limit_exceeded';

describeTwoInstances('two relays, concurrency slots in Redis: a caller below or at its limit is never refused (issue 26)', () => {
  let fault: RedisFault | undefined;
  beforeAll(async () => {
    fault = await openRedisFault(TEST_REDIS_URL!);
  });
  afterAll(async () => {
    await fault?.close();
  });
  const cluster = useTwoInstances(() => {
    if (!fault) throw new Error('no Redis proxy');
    return { redisUrl: fault.url };
  });

  it('4 callers of a concurrency-4 token, each sending its next request once the last is answered, over both relays for 120 requests: no 429', async () => {
    const instances = cluster();
    const token = await instances.createToken({ rate_limit: { concurrency: 4 } });
    const load = callersAtOnce(instances, token.key, 4, { latencyMsPerToken: 2 });
    // Counted in requests, not seconds: beside the other suites in CI the two relays answered ~29 a second, alone ~85.
    const deadline = performance.now() + 20_000;
    while (load.outcomes.length < 120 && performance.now() < deadline) await sleep(50);
    const outcomes = await load.stop();
    const refused = outcomes.filter(refusedForConcurrency);
    console.info(`redis slots at the limit: ${outcomes.length} requests (${tally(outcomes)}); spurious 429 ${((100 * refused.length) / outcomes.length).toFixed(2)} %`);
    expect(outcomes.length).toBeGreaterThan(100);
    expect(refused.length).toBe(0);
    expect(outcomes.every((outcome) => outcome.status === 200)).toBe(true);
  }, 30_000);

  it('Redis blackholed for 2 s under load (limits fail open), then back: a concurrency-5 token driven by 4 callers is never refused, the slots count again at once', async () => {
    const instances = cluster();
    const token = await instances.createToken({ rate_limit: { concurrency: 5 } });
    const load = callersAtOnce(instances, token.key, 4, { stream: true, latencyMsPerToken: 20 });
    await sleep(500);
    fault!.blackhole();
    await sleep(2_000);
    fault!.restore();
    const restored = performance.now();
    await sleep(2_500);
    const outcomes = await load.stop();
    const refused = outcomes.filter(refusedForConcurrency);
    const afterRestore = outcomes.filter((outcome) => outcome.at > restored);
    console.info(
      `redis slots after a 2 s blackhole: ${outcomes.length} requests (${tally(outcomes)}); after the restore ${afterRestore.length} (${tally(afterRestore)}); ` +
        `429 after the restore: ${afterRestore.filter(refusedForConcurrency).length}`,
    );
    expect(refused).toEqual([]);
    expect(afterRestore.length).toBeGreaterThan(20);
    // Shared again: a fifth and sixth at once on a concurrency-5 token — the sixth is refused.
    // The five last ~3 s: within 5 s of a Redis failure a full token is looked at for up to
    // 550 ms more before its 429, and five of ~1 s (200 ms a token) could end inside that look
    // and rightly let the sixth in (1 run in 2 failed so).
    const slow = Array.from({ length: 5 }, (_, i) => chat(instances.relay(i % 2 === 0 ? 'a' : 'b'), token.key, { latencyMsPerToken: 600 }));
    await sleep(400);
    const sixth = await chat(instances.relay('b'), token.key);
    expect(refusedForConcurrency(sixth)).toBe(true);
    expect((await Promise.all(slow)).map((outcome) => outcome.status)).toEqual([200, 200, 200, 200, 200]);
    expect((await chat(instances.relay('a'), token.key)).status).toBe(200);
  }, 30_000);

  it('Redis connections reset three times under streamed load (a Redis failover): no 429 below the limit, both alive, each 200 one row, quota_used = Σ costs', async () => {
    const instances = cluster();
    const token = await instances.createToken({ rate_limit: { concurrency: 5 }, quota_limit: 1_000_000_000 });
    const load = callersAtOnce(instances, token.key, 4, { stream: true, latencyMsPerToken: 20 });
    await sleep(400);
    for (let round = 0; round < 3; round += 1) {
      fault!.reset();
      await sleep(500);
    }
    await sleep(500);
    const outcomes = await load.stop();
    const ledger = await readLedger(instances.db, token.id, outcomes);
    console.info(`redis reset ×3: ${outcomes.length} requests (${tally(outcomes)}); ${ledger.rows} rows, quota_used ${ledger.quotaUsed} = Σ costs ${ledger.sumOfCosts}`);
    expect(outcomes.filter(refusedForConcurrency)).toEqual([]);
    expect(outcomes.every((outcome) => outcome.status === 200)).toBe(true);
    for (const name of ['a', 'b'] as const) expect(instances.relay(name).child.exitCode).toBeNull();
    expect(ledger.okWithoutOneRow).toEqual([]);
    expect(ledger.duplicated).toEqual([]);
    expect(ledger.openReservations).toBe(0);
    expect(ledger.quotaUsed).toBe(ledger.sumOfCosts);
  }, 30_000);
});
