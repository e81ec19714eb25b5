import { chat, countBy, openReservations, pollUntil, quotaOf, sleep, usageRowsOf, usageRowsOfToken } from './relay-calls';
import { steadyLoad } from './steady-load';
import { describeTwoInstances, useTwoInstances } from './two-instances';

/** Large enough never to refuse, so every request takes and settles a reservation. */
const QUOTA = 1_000_000_000;

describeTwoInstances('two relays, a rolling restart under load — LiteLLM: "spend reseed inflates spend N× across pods"', () => {
  const cluster = useTwoInstances();

  it('SIGTERM A mid-load and a new A on the same schema: each 200 has one row, quota_used = Σ costs, no reservation left', async () => {
    const instances = cluster();
    const { db, relay, createToken } = instances;
    const token = await createToken({ quota_limit: QUOTA });
    const load = steadyLoad(instances, token.key, 4);

    await sleep(1_200);
    const oldA = relay('a');
    oldA.child.kill('SIGTERM');
    const exit = await Promise.race([oldA.exited, sleep(10_000).then(() => 'still running after 10 s')]);
    expect(exit).toBe(0);
    const newA = await instances.start('a');
    // Let the new A take its share for a while.
    const servedByNewA = () => load.outcomes.filter((outcome) => outcome.url === newA.url && outcome.status === 200).length;
    await pollUntil(async () => servedByNewA() >= 10, { withinMs: 8_000 });
    await sleep(500);
    const outcomes = await load.stop();

    const ok = outcomes.filter((outcome) => outcome.status === 200);
    const statuses = countBy(outcomes.map((outcome) => outcome.status));
    const rows = await usageRowsOf(
      db,
      ok.map((outcome) => outcome.requestId),
      8_000,
    );
    const perRequest = countBy(rows.map((row) => row.request_id));
    const drained = await pollUntil(async () => (await openReservations(db)).length === 0, { withinMs: 5_000 });
    const allRows = await usageRowsOfToken(db, token.id);
    const { quotaUsed } = await quotaOf(db, token.id);
    const sumOfCosts = allRows.reduce((sum, row) => sum + row.cost, 0);
    console.info(
      `two-instance restart: ${outcomes.length} requests (${[...statuses].map(([status, count]) => `${status || 'no answer'}: ${count}`).join(', ')}), ` +
        `old A ${ok.filter((outcome) => outcome.url === oldA.url).length} × 200, new A ${servedByNewA()} × 200, B ${ok.filter((outcome) => outcome.url === relay('b').url).length} × 200; ` +
        `${allRows.length} rows, quota_used ${quotaUsed} = Σ costs ${sumOfCosts}; reservations drained after ${Math.round(drained ?? -1)} ms`,
    );

    expect(servedByNewA()).toBeGreaterThanOrEqual(10);
    expect(ok.filter((outcome) => outcome.url === oldA.url).length).toBeGreaterThan(0);
    // Every 200 has exactly one row; no request has two.
    expect(ok.filter((outcome) => perRequest.get(outcome.requestId) !== 1).map((outcome) => outcome.requestId)).toEqual([]);
    expect([...countBy(allRows.map((row) => row.request_id)).values()].filter((count) => count > 1)).toEqual([]);
    expect(drained).toBeDefined();
    expect(await openReservations(db)).toEqual([]);
    expect(quotaUsed).toBe(sumOfCosts);
    expect(sumOfCosts).toBeGreaterThan(0);
    // The new A found nothing of the old one's to give back (it retired cleanly) — and took nothing of B's.
    expect(newA.output()).not.toContain('never settled');
    expect(newA.output()).not.toContain('unhandled promise rejection');
    expect(relay('b').output()).not.toContain('unhandled promise rejection');
  }, 40_000);

  it('kill -9 A while it holds reservations: B gives them back once A\'s heartbeat is stale; quota_used = Σ costs', async () => {
    const instances = cluster();
    const { db, relay, createToken } = instances;
    const token = await createToken({ quota_limit: QUOTA });
    const a = relay('a');
    const instanceId = /"instanceId":"([^"]+)"/.exec(a.output())?.[1];
    expect(instanceId).toBeDefined();
    // A settled request on each first, then four slow ones on A (5 tokens × 600 ms) to be killed mid-way.
    expect((await chat(a, token.key)).status).toBe(200);
    expect((await chat(relay('b'), token.key)).status).toBe(200);
    // Both settled (their rows written with their cost) before the snapshot below: a row still in
    // an instance's write batch would land between the snapshot and the check (seen: 5,000 µUSD off).
    expect(await pollUntil(async () => (await usageRowsOfToken(db, token.id)).length === 2, { withinMs: 5_000 })).toBeDefined();
    const doomed = Array.from({ length: 4 }, () => chat(a, token.key, { latencyMsPerToken: 600 }));
    const held = await pollUntil(async () => (await openReservations(db, token.id)).length === 4, { withinMs: 5_000 });
    expect(held).toBeDefined();
    a.child.kill('SIGKILL');
    expect(await a.exited).toBe('SIGKILL');
    expect((await Promise.all(doomed)).map((outcome) => outcome.status)).toEqual([0, 0, 0, 0]);
    const heldAmount = (await openReservations(db, token.id)).reduce((sum, row) => sum + row.amount, 0);
    const before = await quotaOf(db, token.id);

    // INSTANCE_STALE_MS is 30 s: instead of waiting it out, A's last heartbeat is moved a minute
    // back — what the database holds once A has been silent that long. B's next beat (every 10 s) decides.
    const aged = await db.query('UPDATE relay_instances SET heartbeat_at = now() - interval \'1 minute\' WHERE instance_id = $1', [instanceId]);
    expect(aged.rowCount).toBe(1);
    const aging = performance.now();
    const givenBack = await pollUntil(async () => (await openReservations(db, token.id)).length === 0, { since: aging, withinMs: 12_000, everyMs: 100 });
    const after = await quotaOf(db, token.id);
    const rows = await usageRowsOfToken(db, token.id);
    const sumOfCosts = rows.reduce((sum, row) => sum + row.cost, 0);
    console.info(
      `two-instance kill -9: A held 4 reservations (${heldAmount} µUSD; quota_used ${before.quotaUsed}); ` +
        `B gave them back ${Math.round(givenBack ?? -1)} ms after A's heartbeat went stale; quota_used ${after.quotaUsed} = Σ costs ${sumOfCosts} (${rows.length} rows)`,
    );
    expect(givenBack).toBeDefined();
    expect(after.quotaUsed).toBe(sumOfCosts);
    expect(after.quotaUsed).toBe(before.quotaUsed - heldAmount);
    expect(relay('b').output()).toContain('gave back quota reserved by an instance that stopped answering');
    expect(relay('b').child.exitCode).toBeNull();
  }, 30_000);
});
