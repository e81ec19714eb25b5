import OpenAI from 'openai';
import { InMemoryRateLimiter } from '../../src/policy/rate-limiter';
import { patchToken } from '../testing/patch-token';
import { startRelayWithSim, type E2eRelayWithSim } from './e2e-relay';

/** A stream the simulator takes ~1 s to finish: it holds its slot that long. */
const slowStream = {
  model: 'gpt-4o',
  stream: true,
  messages: [{ role: 'user', content: 'one two three four five six seven eight nine ten' }],
  x_sim: { latency_ms_per_token: 60 },
};
const quick = { model: 'gpt-4o', messages: [{ role: 'user', content: 'Hello' }] };

/**
 * Issue 10, defect 8 (the per-token half): with no cap, one token could hold thousands of
 * requests open at once. `rate_limit.concurrency` caps its requests in flight.
 */
describe('issue 10 defect 8: per-token cap on concurrent requests', () => {
  let e2e: E2eRelayWithSim;
  const slots = () => (e2e.relay.services.rateLimiter as InMemoryRateLimiter).slotsInUse(e2e.tokenId);

  beforeEach(async () => {
    e2e = await startRelayWithSim();
    await patchToken(e2e.relay, e2e.tokenId, { rate_limit: { concurrency: 2 } });
  });
  afterEach(() => e2e.close());

  it('a third request while two stream: 429 concurrency_limit_exceeded with Retry-After; the upstream never sees it', async () => {
    const first = await e2e.postChat(slowStream);
    const second = await e2e.postChat(slowStream);
    expect([first.status, second.status]).toEqual([200, 200]);
    expect(slots()).toBe(2);

    const error = await e2e
      .client()
      .chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'Hello' }] })
      .then(
        () => undefined,
        (caught: unknown) => caught,
      );
    expect(error).toBeInstanceOf(OpenAI.RateLimitError);
    expect(error).toMatchObject({ status: 429, type: 'rate_limit_error', code: 'concurrency_limit_exceeded' });
    expect((error as InstanceType<typeof OpenAI.APIError>).headers?.get('retry-after')).toBe('1');
    expect(e2e.sim.requests.filter((request) => request.path === '/v1/chat/completions')).toHaveLength(2);

    await Promise.all([first.text(), second.text()]);
    // The slots come back as the streams end: the next request is served.
    await waitFor(() => slots() === 0);
    expect((await e2e.postChat(quick)).status).toBe(200);
    const rows = await e2e.usageRows(4);
    expect(rows.map((row) => row.errorCode)).toContain('concurrency_limit_exceeded');
  });

  it('a caller that goes away gives its slot back; errors give theirs back too', async () => {
    const aborted = new AbortController();
    const held = await fetch(`${e2e.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${e2e.token}`, 'content-type': 'application/json' },
      body: JSON.stringify(slowStream),
      signal: aborted.signal,
    });
    expect(held.status).toBe(200);
    expect(slots()).toBe(1);
    aborted.abort();
    await waitFor(() => slots() === 0);

    // An upstream failure and a refused body each end with no slot held.
    expect((await e2e.postChat({ ...quick, x_sim: { fault: 'status:400' } })).status).toBe(400);
    expect((await e2e.postChat({ ...quick, temperature: 'hot' })).status).toBe(400);
    await waitFor(() => slots() === 0);
    const answers = await Promise.all([e2e.postChat(quick), e2e.postChat(quick)]);
    expect(answers.map((answer) => answer.status)).toEqual([200, 200]);
  });

  it('a request refused for concurrency does not use up rpm', async () => {
    await patchToken(e2e.relay, e2e.tokenId, { rate_limit: { concurrency: 1, rpm: 2 } });
    const held = await e2e.postChat(slowStream);
    for (let i = 0; i < 3; i++) expect((await e2e.postChat(quick)).status).toBe(429);
    await held.text();
    await waitFor(() => slots() === 0);
    // One rpm used by the stream, one left.
    const served = await e2e.postChat(quick);
    expect(served.status).toBe(200);
    expect(served.headers.get('x-ratelimit-remaining-requests')).toBe('0');
  });
});

async function waitFor(condition: () => boolean, timeoutMs = 3000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
