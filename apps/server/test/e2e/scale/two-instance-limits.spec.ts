import { chat, errorOf, sleep, type ChatOutcome } from './relay-calls';
import { describeTwoInstances, redisKeys, TEST_REDIS_URL, useTwoInstances } from './two-instances';

const refusal = (outcome: ChatOutcome) => ({ status: outcome.status, code: errorOf(outcome)?.code });

describeTwoInstances('two relays, one rate limit (rpm and concurrency counted in Redis)', () => {
  const cluster = useTwoInstances();

  it('rpm 10: ten admitted across A and B, the 11th of the minute refused on either instance', async () => {
    const { relay, createToken, keyPrefix } = cluster();
    const token = await createToken({ rate_limit: { rpm: 10 } });
    const [a, b] = [relay('a'), relay('b')];
    // Alternating A, B — as a balancer spreads them; one at a time so the count is exact.
    const admitted: ChatOutcome[] = [];
    for (let i = 0; i < 10; i += 1) admitted.push(await chat(i % 2 === 0 ? a : b, token.key));
    expect(admitted.map((outcome) => outcome.status)).toEqual(Array(10).fill(200));

    const eleventhOnA = await chat(a, token.key);
    const eleventhOnB = await chat(b, token.key);
    console.info(`two-instance rpm 10: 10 × 200 alternating A/B, then A → ${eleventhOnA.status}, B → ${eleventhOnB.status}`);
    expect(refusal(eleventhOnA)).toEqual({ status: 429, code: 'rate_limit_exceeded' });
    expect(refusal(eleventhOnB)).toEqual({ status: 429, code: 'rate_limit_exceeded' });
    // Per instance it would have been 5 of 10 on each: both would still admit.
    expect(await redisKeys(TEST_REDIS_URL!, keyPrefix)).not.toEqual([]);
  }, 20_000);

  it('concurrency 2: two slow requests in flight (one on each), a third is refused on A and on B, and admitted once they end', async () => {
    const { relay, createToken } = cluster();
    const token = await createToken({ rate_limit: { concurrency: 2 } });
    const [a, b] = [relay('a'), relay('b')];
    // 5 tokens × 300 ms: each holds its slot ~1.5 s.
    const slow = [chat(a, token.key, { latencyMsPerToken: 300 }), chat(b, token.key, { latencyMsPerToken: 300 })];
    await sleep(400);
    const thirdOnA = await chat(a, token.key);
    const thirdOnB = await chat(b, token.key);
    expect(refusal(thirdOnA)).toEqual({ status: 429, code: 'concurrency_limit_exceeded' });
    expect(refusal(thirdOnB)).toEqual({ status: 429, code: 'concurrency_limit_exceeded' });
    expect((await Promise.all(slow)).map((outcome) => outcome.status)).toEqual([200, 200]);
    // The slots were given back: both instances admit again.
    expect((await chat(a, token.key)).status).toBe(200);
    expect((await chat(b, token.key)).status).toBe(200);
  }, 20_000);
});
