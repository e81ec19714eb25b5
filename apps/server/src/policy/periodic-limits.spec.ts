import { RelayError } from '@chat-relay/wire';
import { calendarWindow } from '../core/limit-windows';
import type { TokenRecord } from '../storage/types';
import { hasPeriodicLimits, humanDelay, limitWindowsOf, localIso, plannedWindows, reservesQuota, windowRefusalError } from './periodic-limits';

const token = (overrides: Partial<TokenRecord> = {}): TokenRecord => ({
  id: 7,
  accountId: 3,
  name: 't',
  keyHint: 'abcd',
  status: 'active',
  expiresAt: null,
  quotaLimit: null,
  quotaUsed: 0,
  models: null,
  allowedIps: null,
  rateLimit: null,
  createdAt: '2026-01-01T00:00:00.000Z',
  lastUsedAt: null,
  periodicLimits: [],
  timeZone: null,
  alertThresholds: null,
  account: { status: 'active', quotaLimit: null, periodicLimits: [], timeZone: null },
  ...overrides,
});

/** 2026-11-29 18:11 UTC: 19:11 in Paris, 03:11 on the 30th in Tokyo. */
const NOW = Date.parse('2026-11-29T18:11:00Z');

describe('periodic limits on the hot path', () => {
  it('computes nothing for a token and account without periodic limits, and reserves only for a limit somewhere', () => {
    expect(hasPeriodicLimits(token())).toBe(false);
    expect(reservesQuota(token())).toBe(false);
    expect(reservesQuota(token({ periodicLimits: [{ period: 'day', metric: 'requests', limit: 1 }] }))).toBe(true);
    expect(reservesQuota(token({ account: { status: 'active', quotaLimit: null, periodicLimits: [{ period: 'week', metric: 'cost', limit: 5 }], timeZone: null } }))).toBe(true);
    expect(reservesQuota(token({ quotaLimit: 10 }))).toBe(true);
    // The account not read with the token: treated as limited, as the lifetime check always did.
    expect(reservesQuota(token({ account: undefined }))).toBe(true);
  });

  it("plans one window per owner and period with its limits per metric, in each owner's zone, in lock order", () => {
    const planned = plannedWindows(
      token({
        periodicLimits: [
          { period: 'week', metric: 'tokens', limit: 9_000 },
          { period: 'day', metric: 'requests', limit: 100 },
          { period: 'day', metric: 'cost', limit: 1_000_000 },
        ],
        timeZone: 'Asia/Tokyo',
        account: { status: 'active', quotaLimit: null, periodicLimits: [{ period: 'month', metric: 'cost', limit: 20_000_000 }], timeZone: null },
      }),
      'Europe/Paris',
      NOW,
    );
    expect(planned.map((window) => window.reservation)).toEqual([
      { owner: 'account', ownerId: 3, period: 'month', start: '2026-11-01', limits: { cost: 20_000_000, requests: null, tokens: null } },
      // Tokyo's day is the 30th already.
      { owner: 'token', ownerId: 7, period: 'day', start: '2026-11-30', limits: { cost: 1_000_000, requests: 100, tokens: null } },
      { owner: 'token', ownerId: 7, period: 'week', start: '2026-11-30', limits: { cost: null, requests: null, tokens: 9_000 } },
    ]);
    expect(planned[1]?.calendar.resetsAtMs).toBe(Date.parse('2026-11-30T15:00:00Z'));
    expect(planned[0]?.calendar.timeZone).toBe('Europe/Paris');
  });

  it('names the window, its zone, what it used and when it resets, with Retry-After and x-ratelimit headers', () => {
    const calendar = calendarWindow('day', 'Europe/Paris', NOW);
    const error = windowRefusalError(
      { window: { owner: 'token', ownerId: 7, period: 'day', start: calendar.start }, metric: 'requests', used: 100 },
      100,
      calendar,
      { amount: 10, tokens: 20 },
      NOW,
    );
    expect(error).toBeInstanceOf(RelayError);
    expect({ status: error.status, ...error.toBody().error }).toEqual({
      status: 429,
      type: 'insufficient_quota',
      code: 'insufficient_quota',
      param: null,
      message: 'The daily request limit of this API key (100 requests per day, Europe/Paris) is reached: 100 requests used; it resets at 2026-11-30T00:00:00+01:00 (in 4h 49m).',
    });
    expect(error.headers).toEqual({
      'retry-after': String(4 * 3600 + 49 * 60),
      'x-ratelimit-limit-requests-day': '100',
      'x-ratelimit-remaining-requests-day': '0',
      'x-ratelimit-reset-requests-day': '4h49m0s',
    });
  });

  it("tells a cost window's rest apart from a request that can never fit, in USD", () => {
    const calendar = calendarWindow('month', 'UTC', NOW);
    const window = { owner: 'account' as const, ownerId: 3, period: 'month' as const, start: calendar.start };
    const short = windowRefusalError({ window, metric: 'cost', used: 990_000 }, 1_000_000, calendar, { amount: 20_000, tokens: 0 }, NOW);
    expect(short.message).toBe(
      'The monthly cost limit of the account of this API key (1.000000 USD per month, UTC) has 0.010000 USD left (0.990000 USD used), less than this request may use (0.020000 USD); it resets at 2026-12-01T00:00:00Z (in 1d 5h).',
    );
    expect(short.headers['x-ratelimit-remaining-cost-month']).toBe('0.010000');
    const never = windowRefusalError({ window, metric: 'tokens', used: 0 }, 1_000, calendar, { amount: 0, tokens: 4_096 }, NOW);
    expect(never.message).toMatch(/^The monthly token limit of the account of this API key \(1,000 tokens per month, UTC\) is smaller than what this request may use \(4,096 tokens\), so it can never be admitted in one month/);
  });

  it('writes local times with their offset and delays to the minute', () => {
    expect(localIso(Date.parse('2026-11-30T15:00:00Z'), 'Asia/Tokyo')).toBe('2026-12-01T00:00:00+09:00');
    expect(localIso(Date.parse('2026-07-01T04:00:00Z'), 'America/New_York')).toBe('2026-07-01T00:00:00-04:00');
    expect(localIso(Date.parse('2026-07-01T04:00:00Z'), 'Asia/Kolkata')).toBe('2026-07-01T09:30:00+05:30');
    expect([humanDelay(40), humanDelay(600), humanDelay(3 * 3600 + 5 * 60 + 59), humanDelay(2 * 86_400 + 3600)]).toEqual(['40s', '10m', '3h 5m', '2d 1h']);
  });

  it('reads a window back with its use, what is left (never below 0), USD for cost and its bounds', () => {
    const windows = limitWindowsOf(
      [
        { period: 'day', metric: 'cost', limit: 1_000_000 },
        { period: 'day', metric: 'requests', limit: 2 },
      ],
      'Asia/Tokyo',
      NOW,
      (period, start) => (period === 'day' && start === '2026-11-30' ? { cost: 250_000, requests: 3, tokens: 40 } : { cost: 0, requests: 0, tokens: 0 }),
    );
    expect(windows).toEqual([
      {
        period: 'day',
        metric: 'cost',
        limit: 1_000_000,
        used: 250_000,
        remaining: 750_000,
        limit_usd: '1.000000',
        used_usd: '0.250000',
        time_zone: 'Asia/Tokyo',
        starts_at: '2026-11-29T15:00:00.000Z',
        resets_at: '2026-11-30T15:00:00.000Z',
      },
      expect.objectContaining({ metric: 'requests', limit: 2, used: 3, remaining: 0, limit_usd: null, used_usd: null }),
    ]);
  });
});
