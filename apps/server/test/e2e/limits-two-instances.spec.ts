import type { LimitWindow, Token } from '@chat-relay/contract';
import { adminCall } from '../testing/spawned-setup';
import { chat, countBy, errorOf, openReservations, spread, usageRowsOf, type ChatOutcome } from './scale/relay-calls';
import { describeTwoInstances, MICRO_USD_PER_COMPLETION_TOKEN, useTwoInstances, type TwoInstances } from './scale/two-instances';

/** Each request: max_tokens 5, prompts free → reserves and costs exactly 5,000 micro-USD. */
const MAX_TOKENS = 5;
const PER_REQUEST = MAX_TOKENS * MICRO_USD_PER_COMPLETION_TOKEN;
const ADMITTED = 20;
const REQUESTS = 50;

/**
 * Issue 32: a daily window is exact across instances — two relay processes on one PostgreSQL and
 * one Redis, 50 concurrent requests spread over both, and exactly the window's limit admitted,
 * for a requests window and for a cost window; once settled, the usage rows and what the window
 * counts agree, and nothing stays reserved.
 */
describeTwoInstances('two relays, one daily window (issue 32)', () => {
  const cluster = useTwoInstances();

  async function burst(limits: Token['periodic_limits']): Promise<{ id: number; outcomes: ChatOutcome[]; window: (metric: string) => Promise<LimitWindow | undefined> }> {
    const { relay, createToken } = cluster();
    const token = await createToken({ periodic_limits: limits });
    const call = (target: Parameters<typeof chat>[0]) => chat(target, token.key, { maxTokens: MAX_TOKENS, latencyMsPerToken: 20 });
    // One request through each instance first, so both count into the window whatever the timing
    // of the burst (a fast instance could otherwise fill it alone); then the rest at once, 20 ms a
    // token: each admitted request holds its reservation ~100 ms, so they overlap.
    const first = [await call(relay('a')), await call(relay('b'))];
    const outcomes = [...first, ...(await spread([relay('a'), relay('b')], REQUESTS - first.length, call))];
    const window = async (metric: string) => (await adminCall<Token>(relay('b'), 'GET', `/api/tokens/${token.id}`)).windows.find((each) => each.metric === metric);
    return { id: token.id, outcomes, window };
  }

  async function expectExact(two: TwoInstances, id: number, outcomes: ChatOutcome[], message: RegExp): Promise<number> {
    const admitted = outcomes.filter((outcome) => outcome.status === 200);
    const refused = outcomes.filter((outcome) => outcome.status !== 200);
    for (const outcome of refused) {
      expect({ status: outcome.status, type: errorOf(outcome)?.type, code: errorOf(outcome)?.code }).toEqual({ status: 429, type: 'insufficient_quota', code: 'insufficient_quota' });
      expect(errorOf(outcome)?.message).toMatch(message);
      expect(Number(outcome.retryAfter)).toBeGreaterThan(0);
    }
    expect(admitted).toHaveLength(ADMITTED);
    const byInstance = countBy(admitted.map((outcome) => (outcome.url === two.relay('a').url ? 'A' : 'B')));
    // Both admitted some (the first request of each, at least), and together exactly the limit: one window.
    expect(byInstance.get('A') ?? 0).toBeGreaterThan(0);
    expect(byInstance.get('B') ?? 0).toBeGreaterThan(0);
    const rows = await usageRowsOf(
      two.db,
      outcomes.map((outcome) => outcome.requestId),
    );
    expect(rows).toHaveLength(REQUESTS);
    expect(await openReservations(two.db, id)).toEqual([]);
    return rows.reduce((sum, row) => sum + row.cost, 0);
  }

  it(`${REQUESTS} concurrent requests over A and B: exactly ${ADMITTED} pass a daily requests window of ${ADMITTED}, and a daily cost window of ${ADMITTED} requests' cost`, async () => {
    const two = cluster();
    // Each instance answers one request first: a cold instance still loading the price table
    // and the tokenizer would leave the whole window to the other.
    const warm = await two.createToken({ periodic_limits: [{ period: 'day', metric: 'requests', limit: 1_000 }] });
    for (const target of [two.relay('a'), two.relay('b')]) expect((await chat(target, warm.key, { maxTokens: MAX_TOKENS })).status).toBe(200);

    const requests = await burst([{ period: 'day', metric: 'requests', limit: ADMITTED }]);
    const requestsCost = await expectExact(two, requests.id, requests.outcomes, /^The daily request limit of this API key \(20 requests per day, UTC\) is reached: 20 requests used; it resets at \d{4}-\d\d-\d\dT00:00:00Z/);
    expect(await requests.window('requests')).toMatchObject({ used: ADMITTED, remaining: 0, time_zone: 'UTC' });
    expect(requestsCost).toBe(ADMITTED * PER_REQUEST);

    const cost = await burst([{ period: 'day', metric: 'cost', limit: ADMITTED * PER_REQUEST }]);
    const costCharged = await expectExact(two, cost.id, cost.outcomes, /^The daily cost limit of this API key \(0\.100000 USD per day, UTC\) is reached: 0\.100000 USD used/);
    // After settle, the window counts what the rows charged, to the micro-dollar.
    expect(await cost.window('cost')).toMatchObject({ used: costCharged, limit: ADMITTED * PER_REQUEST, remaining: 0 });
    expect(costCharged).toBe(ADMITTED * PER_REQUEST);
    console.info(`two-instance windows: ${REQUESTS} concurrent over A and B → ${ADMITTED} admitted for a requests/day window of ${ADMITTED}, ${ADMITTED} for a cost/day window of ${ADMITTED * PER_REQUEST} µUSD (Σ row costs ${costCharged})`);
  }, 30_000);
});
