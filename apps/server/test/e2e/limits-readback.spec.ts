import request from 'supertest';
import { AccountInfoSchema, AccountSchema, TokenSchema } from '@chat-relay/contract';
import { bearer, createAccount, createToken } from '../testing/system-api';
import { createTestRelay, type TestRelay } from '../testing/test-relay';

/**
 * Issue 32, the system API of periodic limits: set on create, PATCH and the batch update, read
 * back with each current window (what it used, when it resets) on tokens, accounts and the key's
 * own `GET /api/account` — a page of owners in one window read.
 */

/** 12:00 UTC on Sunday 29 November 2026. */
const NOW = Date.parse('2026-11-29T12:00:00Z');

describe('e2e: periodic limits through the system API', () => {
  let relay: TestRelay;
  let now = NOW;

  beforeAll(async () => {
    relay = await createTestRelay({ clock: () => now });
  });
  afterAll(() => relay.close());

  const admin = () => bearer(relay.adminKey);

  it('a batch update sets limits on many tokens; a page of tokens reads its windows in one call', async () => {
    const tokens = await Promise.all([1, 2, 3].map((index) => createToken(relay, { name: `batch ${index}` })));
    const limits = [{ period: 'week', metric: 'tokens', limit: 50_000 }];
    const batch = await request(relay.app)
      .post('/api/tokens/batch')
      .set(admin())
      .send({ ids: tokens.map((token) => token.id), action: 'update', update: { periodic_limits: limits, time_zone: 'America/New_York', alert_thresholds: [80] } })
      .expect(200);
    for (const result of batch.body.results) {
      expect(TokenSchema.parse(result.token)).toMatchObject({ periodic_limits: limits, time_zone: 'America/New_York', alert_thresholds: [80] });
      // Monday 23 November 00:00 in New York (UTC−5) to the next Monday.
      expect(result.token.windows).toEqual([
        {
          period: 'week',
          metric: 'tokens',
          limit: 50_000,
          used: 0,
          remaining: 50_000,
          limit_usd: null,
          used_usd: null,
          time_zone: 'America/New_York',
          starts_at: '2026-11-23T05:00:00.000Z',
          resets_at: '2026-11-30T05:00:00.000Z',
        },
      ]);
    }

    const windowUsage = jest.spyOn(relay.storage.quota, 'windowUsage');
    try {
      const page = await request(relay.app).get('/api/tokens?per_page=100').set(admin()).expect(200);
      const limited = page.body.data.filter((token: { windows: unknown[] }) => token.windows.length > 0);
      expect(limited.map((token: { id: number }) => token.id).sort()).toEqual(tokens.map((token) => token.id).sort());
      expect(windowUsage).toHaveBeenCalledTimes(1);
      expect(windowUsage.mock.calls[0]?.[0]).toHaveLength(3);
      // No limit anywhere: no window read at all.
      windowUsage.mockClear();
      const plain = await createToken(relay, { name: 'plain' });
      await request(relay.app).get(`/api/tokens/${plain.id}`).set(admin()).expect(200);
      expect(windowUsage).not.toHaveBeenCalled();
    } finally {
      windowUsage.mockRestore();
    }
  });

  it("an account's limits read back on the account routes and, with the token's, on the key's own GET /api/account", async () => {
    now = NOW;
    const account = await createAccount(relay, { name: 'team', periodic_limits: [{ period: 'month', metric: 'cost', limit: 20_000_000 }], time_zone: 'Europe/Paris' });
    expect(account.windows).toMatchObject([{ period: 'month', metric: 'cost', used: 0, limit_usd: '20.000000', used_usd: '0.000000', time_zone: 'Europe/Paris', starts_at: '2026-10-31T23:00:00.000Z' }]);
    const token = await createToken(relay, { name: 'member', account_id: account.id, periodic_limits: [{ period: 'day', metric: 'requests', limit: 10 }] });

    // Two requests counted as a reservation takes them (the relay's own store; no upstream needed).
    for (const requestId of ['r-1', 'r-2']) {
      const outcome = await relay.storage.quota.reserve({
        requestId,
        tokenId: token.id,
        accountId: account.id,
        amount: 1_500,
        tokens: 10,
        windows: [
          { owner: 'account', ownerId: account.id, period: 'month', start: '2026-11-01', limits: { cost: 20_000_000, requests: null, tokens: null } },
          { owner: 'token', ownerId: token.id, period: 'day', start: '2026-11-29', limits: { cost: null, requests: 10, tokens: null } },
        ],
      });
      expect(outcome).toEqual({ ok: true });
    }

    const shown = AccountSchema.parse((await request(relay.app).get(`/api/accounts/${account.id}`).set(admin()).expect(200)).body);
    expect(shown.windows).toMatchObject([{ used: 3_000, remaining: 19_997_000, used_usd: '0.003000' }]);
    const listed = (await request(relay.app).get('/api/accounts?per_page=100').set(admin()).expect(200)).body.data.find((each: { id: number }) => each.id === account.id);
    expect(listed.windows).toEqual(shown.windows);

    const info = AccountInfoSchema.parse((await request(relay.app).get('/api/account').set(bearer(token.key)).expect(200)).body);
    expect(info.account.windows).toEqual(shown.windows);
    expect(info.token?.windows).toMatchObject([{ period: 'day', metric: 'requests', limit: 10, used: 2, remaining: 8, time_zone: 'UTC', resets_at: '2026-11-30T00:00:00.000Z' }]);

    // The next day: the day's window is a new one, empty; the month's goes on.
    now = Date.parse('2026-11-30T00:00:00Z');
    const next = AccountInfoSchema.parse((await request(relay.app).get('/api/account').set(bearer(token.key)).expect(200)).body);
    expect(next.token?.windows).toMatchObject([{ used: 0, starts_at: '2026-11-30T00:00:00.000Z' }]);
    expect(next.account.windows).toMatchObject([{ used: 3_000 }]);
  });

  it('PATCH clears limits and the time zone; an unknown zone or a second limit on one period and metric is refused with 400', async () => {
    const token = await createToken(relay, { name: 'patched', periodic_limits: [{ period: 'day', metric: 'cost', limit: 5 }], time_zone: 'Asia/Tokyo' });
    const cleared = await request(relay.app).patch(`/api/tokens/${token.id}`).set(admin()).send({ periodic_limits: [], time_zone: null }).expect(200);
    expect(cleared.body).toMatchObject({ periodic_limits: [], time_zone: null, windows: [] });
    const zone = await request(relay.app).patch(`/api/tokens/${token.id}`).set(admin()).send({ time_zone: 'Mars/Olympus' }).expect(400);
    expect(JSON.stringify(zone.body)).toContain('IANA time zone');
    const twice = [
      { period: 'day', metric: 'cost', limit: 5 },
      { period: 'day', metric: 'cost', limit: 6 },
    ];
    const duplicate = await request(relay.app).patch(`/api/tokens/${token.id}`).set(admin()).send({ periodic_limits: twice }).expect(400);
    expect(JSON.stringify(duplicate.body)).toContain('a second day limit on cost');
  });
});
