import { InMemoryRateLimiter, type RateLimitDecision } from './rate-limiter';
import { SlidingWindow } from './sliding-window';

const SECOND = 1000;
const T0 = 1_700_000_000_000;

function refused(decision: RateLimitDecision) {
  if (decision.allowed) throw new Error('expected a refusal');
  return decision;
}

describe('InMemoryRateLimiter', () => {
  let now: number;
  let limiter: InMemoryRateLimiter;
  beforeEach(() => {
    now = T0;
    limiter = new InMemoryRateLimiter({ clock: () => now });
  });

  describe('rpm', () => {
    const limits = { rpm: 5, tpm: null };

    it('admits five requests a minute, refuses the sixth with Retry-After and the headers', async () => {
      const remaining: string[] = [];
      for (let i = 0; i < 5; i++) {
        const decision = await limiter.checkRequest(1, limits, T0 + i * 10 * SECOND);
        expect(decision.allowed).toBe(true);
        remaining.push(decision.headers['x-ratelimit-remaining-requests']!);
      }
      expect(remaining).toEqual(['4', '3', '2', '1', '0']);

      const sixth = refused(await limiter.checkRequest(1, limits, T0 + 50 * SECOND));
      expect(sixth.exceeded).toEqual(['requests']);
      // The first request leaves the window at T0 + 60 s: ten seconds from now.
      expect(sixth.retryAfterSeconds).toBe(10);
      expect(sixth.headers).toEqual({
        'x-ratelimit-limit-requests': '5',
        'x-ratelimit-remaining-requests': '0',
        // Back to the full limit once the last one (T0 + 40 s) has left: 50 s from now.
        'x-ratelimit-reset-requests': '50s',
        'retry-after': '10',
      });
    });

    it('headers on allowed requests too, decided at once (in memory: no promise)', () => {
      const decision = limiter.checkRequest(1, limits);
      expect(decision).toEqual({
        allowed: true,
        headers: {
          'x-ratelimit-limit-requests': '5',
          'x-ratelimit-remaining-requests': '4',
          'x-ratelimit-reset-requests': '1m0s',
        },
      });
    });

    it('recovers as the window slides, one request at a time', async () => {
      for (let i = 0; i < 5; i++) await limiter.checkRequest(1, limits, T0 + i * SECOND);
      expect((await limiter.checkRequest(1, limits, T0 + 59_999)).allowed).toBe(false);
      const first = await limiter.checkRequest(1, limits, T0 + 60 * SECOND);
      expect(first.allowed).toBe(true);
      expect(first.headers['x-ratelimit-remaining-requests']).toBe('0');
      expect((await limiter.checkRequest(1, limits, T0 + 60_500)).allowed).toBe(false);
      expect((await limiter.checkRequest(1, limits, T0 + 61 * SECOND)).allowed).toBe(true);
    });

    it('a refused request is not counted', async () => {
      for (let i = 0; i < 5; i++) await limiter.checkRequest(1, limits, T0);
      for (let i = 0; i < 20; i++) await limiter.checkRequest(1, limits, T0 + 30 * SECOND);
      expect((await limiter.checkRequest(1, limits, T0 + 60 * SECOND)).headers['x-ratelimit-remaining-requests']).toBe('4');
    });

    it('Retry-After is a whole number of seconds, at least 1', async () => {
      for (let i = 0; i < 5; i++) await limiter.checkRequest(1, limits, T0);
      expect(refused(await limiter.checkRequest(1, limits, T0 + 59_900)).headers['retry-after']).toBe('1');
      expect(refused(await limiter.checkRequest(1, limits, T0 + 58_500)).headers['retry-after']).toBe('2');
    });

    it('keeps tokens apart', async () => {
      for (let i = 0; i < 5; i++) await limiter.checkRequest(1, limits);
      expect((await limiter.checkRequest(1, limits)).allowed).toBe(false);
      expect((await limiter.checkRequest(2, limits)).allowed).toBe(true);
    });

    it('uses the limits of the moment: raising rpm admits at once', async () => {
      for (let i = 0; i < 5; i++) await limiter.checkRequest(1, limits);
      expect((await limiter.checkRequest(1, limits)).allowed).toBe(false);
      expect((await limiter.checkRequest(1, { rpm: 6, tpm: null })).allowed).toBe(true);
    });
  });

  describe('tpm', () => {
    const limits = { rpm: null, tpm: 1000 };

    it('counts tokens when requests complete and refuses once the window reaches tpm', async () => {
      expect((await limiter.checkRequest(1, limits, T0)).headers).toEqual({
        'x-ratelimit-limit-tokens': '1000',
        'x-ratelimit-remaining-tokens': '1000',
        'x-ratelimit-reset-tokens': '0s',
      });
      await limiter.recordTokens(1, 600, T0 + 1 * SECOND);
      const second = await limiter.checkRequest(1, limits, T0 + 2 * SECOND);
      expect(second.allowed).toBe(true);
      expect(second.headers['x-ratelimit-remaining-tokens']).toBe('400');
      expect(second.headers['x-ratelimit-reset-tokens']).toBe('59s');

      await limiter.recordTokens(1, 400, T0 + 3 * SECOND);
      const third = refused(await limiter.checkRequest(1, limits, T0 + 4 * SECOND));
      expect(third.exceeded).toEqual(['tokens']);
      // Below 1000 again once the 600 recorded at T0 + 1 s leave: 57 s from now.
      expect(third.retryAfterSeconds).toBe(57);
      expect(third.headers).toEqual({
        'x-ratelimit-limit-tokens': '1000',
        'x-ratelimit-remaining-tokens': '0',
        'x-ratelimit-reset-tokens': '59s',
        'retry-after': '57',
      });
      expect((await limiter.checkRequest(1, limits, T0 + 61 * SECOND)).allowed).toBe(true);
    });

    it('one request over the whole limit blocks until it leaves the window', async () => {
      await limiter.recordTokens(1, 5000, T0);
      expect(refused(await limiter.checkRequest(1, limits, T0 + 30 * SECOND)).retryAfterSeconds).toBe(30);
    });

    it('ignores zero, negative and non-finite counts', async () => {
      await limiter.recordTokens(1, 0);
      await limiter.recordTokens(1, -5);
      await limiter.recordTokens(1, Number.NaN);
      expect((await limiter.checkRequest(1, limits)).headers['x-ratelimit-remaining-tokens']).toBe('1000');
    });
  });

  it('both limits: both sets of headers, Retry-After for the later of the two', async () => {
    const limits = { rpm: 2, tpm: 100 };
    await limiter.checkRequest(1, limits, T0);
    await limiter.checkRequest(1, limits, T0 + 10 * SECOND);
    await limiter.recordTokens(1, 150, T0 + 20 * SECOND);
    const decision = refused(await limiter.checkRequest(1, limits, T0 + 30 * SECOND));
    expect(decision.exceeded).toEqual(['requests', 'tokens']);
    expect(decision.retryAfterSeconds).toBe(50);
    expect(Object.keys(decision.headers).sort()).toEqual([
      'retry-after',
      'x-ratelimit-limit-requests',
      'x-ratelimit-limit-tokens',
      'x-ratelimit-remaining-requests',
      'x-ratelimit-remaining-tokens',
      'x-ratelimit-reset-requests',
      'x-ratelimit-reset-tokens',
    ]);
  });

  it('no limits: allowed, no headers, no state', async () => {
    expect(await limiter.checkRequest(1, { rpm: null, tpm: null })).toEqual({ allowed: true, headers: {} });
    expect(limiter.trackedTokens).toBe(0);
  });

  describe('memory stays bounded', () => {
    it('drops tokens idle for a whole window', async () => {
      for (let id = 1; id <= 100; id++) await limiter.checkRequest(id, { rpm: 10, tpm: 10 }, T0);
      await limiter.recordTokens(7, 50, T0 + 30 * SECOND);
      expect(limiter.trackedTokens).toBe(100);
      await limiter.checkRequest(1, { rpm: 10, tpm: null }, T0 + 61 * SECOND);
      // Token 1 is back, token 7's tokens are still in their window; the rest are gone.
      expect(limiter.trackedTokens).toBe(2);
      await limiter.checkRequest(1, { rpm: 10, tpm: null }, T0 + 125 * SECOND);
      expect(limiter.trackedTokens).toBe(1);
    });

    it('prunes old entries and coalesces bursts into bounded slots', async () => {
      const busy = new InMemoryRateLimiter({ clock: () => now, slotMs: 100 });
      for (let ms = 0; ms < 120_000; ms += 7) {
        await busy.checkRequest(1, { rpm: 1_000_000, tpm: 1_000_000_000 }, T0 + ms);
        await busy.recordTokens(1, 3, T0 + ms);
      }
      const [requestSlots, tokenSlots] = busy.slotsOf(1);
      expect(requestSlots).toBeLessThanOrEqual(601);
      expect(tokenSlots).toBeLessThanOrEqual(601);
      const headers = (await busy.checkRequest(1, { rpm: 1_000_000, tpm: null }, T0 + 120_000)).headers;
      // About 60 000 / 7 requests in the last minute, counted a little strictly.
      const used = 1_000_000 - Number(headers['x-ratelimit-remaining-requests']);
      expect(used).toBeGreaterThanOrEqual(Math.floor(60_000 / 7));
      expect(used).toBeLessThanOrEqual(Math.ceil(60_100 / 7) + 1);
    });
  });
});

describe('SlidingWindow', () => {
  it('sums what is in the window and tells when it drops below a limit', () => {
    const window = new SlidingWindow(60_000, 1);
    window.add(0, 3);
    window.add(10_000, 2);
    window.add(20_000, 4);
    expect(window.sum(30_000)).toBe(9);
    expect(window.msUntilBelow(9, 30_000)).toBe(30_000);
    expect(window.msUntilBelow(5, 30_000)).toBe(40_000);
    expect(window.msUntilBelow(10, 30_000)).toBe(0);
    expect(window.msUntilEmpty(30_000)).toBe(50_000);
    expect(window.sum(60_000)).toBe(6);
    expect(window.sum(80_000)).toBe(0);
    expect(window.slotCount).toBe(0);
  });

  it('a clock that steps back joins the newest slot', () => {
    const window = new SlidingWindow(60_000, 100);
    window.add(1000, 1);
    window.add(500, 1);
    expect(window.slotCount).toBe(1);
    expect(window.sum(60_999)).toBe(2);
    expect(window.sum(61_000)).toBe(0);
  });
});
