import pino from 'pino';
import type { PriceBook } from '../billing/price-book';
import type { Caller } from '../auth/caller';
import { InMemoryRateLimiter } from '../policy/rate-limiter';
import type { TokenRecord, UsageLogEntry } from '../storage/types';
import { newTrace, type RelayTrace } from './request-context';
import { awaitSettlement, isoNow, settle, Settlement, type Ending } from './settle';
import type { UsageRecorder } from './usage-recorder';

describe('isoNow', () => {
  it('writes what new Date().toISOString() writes, across second boundaries and for each width of milliseconds', () => {
    const start = Date.UTC(2026, 10, 29, 23, 59, 58, 990);
    for (let now = start; now < start + 2_500; now += 1) expect(isoNow(now)).toBe(new Date(now).toISOString());
    for (const now of [0, 5, 42, 999, 1_000, 1_001, Date.UTC(1999, 11, 31, 23, 59, 59, 999), Date.UTC(2000, 0, 1)]) {
      expect(isoNow(now)).toBe(new Date(now).toISOString());
    }
    // Going back in time (a clock set back) is a second of its own too.
    expect(isoNow(start)).toBe(new Date(start).toISOString());
  });

  it('reads the clock when given no time', () => {
    const before = Date.now();
    const written = Date.parse(isoNow());
    expect(written).toBeGreaterThanOrEqual(before);
    expect(written).toBeLessThanOrEqual(Date.now());
  });
});

describe('settle: a stream that has ended is settled at once', () => {
  // Micro-USD per million tokens: $2.50 in, $10 out.
  const price = { model: 'gpt-4o', input: 2_500_000, output: 10_000_000, cacheRead: null, cacheWrite: null };
  const depsRecording = () => {
    const rows: UsageLogEntry[] = [];
    const prices = { knownPriceFor: () => ({ price, pricedBy: 'gpt-4o (table)' }) } as unknown as PriceBook;
    const recorder = { record: (entry: UsageLogEntry) => void rows.push(entry) } as unknown as UsageRecorder;
    return { rows, deps: { recorder, prices, rateLimiter: new InMemoryRateLimiter(), logger: pino({ level: 'silent' }) } };
  };
  const caller = (tpm: number | null): Caller => ({ kind: 'token', token: { id: 7, accountId: 3, rateLimit: { rpm: null, tpm, concurrency: null } } as unknown as TokenRecord });
  const endingOf = (trace: RelayTrace, tpm: number | null = null): Ending => ({
    trace,
    caller: caller(tpm),
    outcome: () => ({ status: 200, errorCode: null, clientIp: '127.0.0.1' }),
    route: undefined,
    holdsTpm: true,
  });
  const streamTrace = () => {
    const trace = newTrace('req_1', 0);
    Object.assign(trace, { pricedModel: 'gpt-4o', promptTokens: 1_000, completionTokens: 100 });
    return { trace, end: awaitSettlement(trace) };
  };

  it('queues the row of a stream already ended without a promise, costed at the known price', () => {
    const { rows, deps } = depsRecording();
    const { trace, end } = streamTrace();
    end();
    expect(settle(deps, endingOf(trace))).toBeUndefined();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ requestId: 'req_1', tokenId: 7, status: 200, cost: 3_500, pricedBy: 'gpt-4o (table)' });
  });

  it('waits for a stream still under way (its caller left first), then queues the row once', async () => {
    const { rows, deps } = depsRecording();
    const { trace, end } = streamTrace();
    const settling = settle(deps, endingOf(trace));
    expect(settling).toBeInstanceOf(Promise);
    await new Promise((resolve) => setImmediate(resolve));
    expect(rows).toHaveLength(0);
    end();
    await settling;
    expect(rows).toHaveLength(1);
  });

  it('returns a promise when the tokens are held against a tpm, and holds them', async () => {
    const { rows, deps } = depsRecording();
    const { trace, end } = streamTrace();
    end();
    const settling = settle(deps, endingOf(trace, 50_000));
    expect(settling).toBeInstanceOf(Promise);
    await settling;
    expect(rows).toHaveLength(1);
    expect(deps.rateLimiter.checkRequest(7, { rpm: null, tpm: 50_000 })).toMatchObject({ headers: { 'x-ratelimit-remaining-tokens': String(50_000 - 1_100) } });
  });

  it('a Settlement awaited before its end resolves at the end, and at once after it', async () => {
    const settlement = new Settlement();
    let resolved = false;
    const waiting = Promise.resolve(settlement).then(() => (resolved = true));
    await new Promise((resolve) => setImmediate(resolve));
    expect([settlement.done, resolved]).toEqual([false, false]);
    settlement.end();
    await waiting;
    expect([settlement.done, resolved]).toEqual([true, true]);
    await expect(Promise.resolve(settlement)).resolves.toBeUndefined();
  });
});
