import request from 'supertest';
import { BillingSubscriptionSchema, LogPageSchema, TokenUsageSchema } from '@chat-relay/contract';
import { bearer, createAccount, createToken, daysAgo, usageEntry } from '../../test/testing/system-api';
import { createTestRelay, type TestRelay } from '../../test/testing/test-relay';

describe('token usage API', () => {
  let relay: TestRelay;
  const admin = () => bearer(relay.adminKey);
  const usage = (id: number, query = '') => request(relay.app).get(`/api/tokens/${id}/usage${query}`).set(admin());

  beforeEach(async () => {
    relay = await createTestRelay();
  });
  afterEach(() => relay.close());

  it('sums the last 30 days by day and by model; insertBatch settled the same cost into quota_used', async () => {
    const account = await createAccount(relay, { name: 'team' });
    const token = await createToken(relay, { name: 't', account_id: account.id });
    const other = await createToken(relay, { name: 'other', account_id: account.id });
    const row = (days: number, model: string, promptTokens: number, cost: number, tokenId = token.id, cacheReadTokens = 0, cacheWriteTokens = 0) =>
      usageEntry({
        createdAt: daysAgo(days),
        tokenId,
        accountId: account.id,
        requestedModel: model,
        promptTokens,
        completionTokens: 10,
        cacheReadTokens,
        cacheWriteTokens,
        cost,
      });
    await relay.storage.usageLog.insertBatch([
      row(2, 'gpt-4o', 100, 1_500_000, token.id, 60, 0),
      row(2, 'gpt-4o-mini', 50, 20, token.id, 0, 40),
      row(1, 'gpt-4o', 300, 2_000_000, token.id, 200, 100),
      row(45, 'gpt-4o', 999, 7_000_000, token.id, 999, 0),
      row(1, 'gpt-4o', 999, 9_000_000, other.id, 0, 999),
    ]);

    const byDay = TokenUsageSchema.parse((await usage(token.id).expect(200)).body);
    expect(byDay.group_by).toBe('day');
    expect(Date.parse(byDay.to) - Date.parse(byDay.from)).toBe(30 * 86_400_000);
    expect(byDay.data).toEqual([
      { key: daysAgo(2).slice(0, 10), requests: 2, prompt_tokens: 150, completion_tokens: 20, cache_read_tokens: 60, cache_write_tokens: 40, cost: 1_500_020, cost_usd: '1.500020' },
      { key: daysAgo(1).slice(0, 10), requests: 1, prompt_tokens: 300, completion_tokens: 10, cache_read_tokens: 200, cache_write_tokens: 100, cost: 2_000_000, cost_usd: '2.000000' },
    ]);
    expect(byDay.total).toEqual({
      requests: 3,
      prompt_tokens: 450,
      completion_tokens: 30,
      cache_read_tokens: 260,
      cache_write_tokens: 140,
      cost: 3_500_020,
      cost_usd: '3.500020',
    });

    const byModel = TokenUsageSchema.parse((await usage(token.id, '?group_by=model').expect(200)).body);
    expect(byModel.data.map((bucket) => [bucket.key, bucket.requests, bucket.cache_read_tokens, bucket.cache_write_tokens, bucket.cost])).toEqual([
      ['gpt-4o', 2, 260, 100, 3_500_000],
      ['gpt-4o-mini', 1, 0, 40, 20],
    ]);

    // Every row (also the one older than 30 days) was charged when it was written.
    const shown = (await request(relay.app).get(`/api/tokens/${token.id}`).set(admin()).expect(200)).body;
    expect(shown).toMatchObject({ quota_used: 10_500_020, quota_used_usd: '10.500020' });
    const owner = (await request(relay.app).get(`/api/accounts/${account.id}`).set(admin()).expect(200)).body;
    expect(owner.quota_used).toBe(19_500_020);
  });

  it('settles cost minus the reservation already taken', async () => {
    const token = await createToken(relay, { name: 't' });
    // The reservation its request took before the call: the row settles it.
    expect(await relay.storage.quota.reserve({ requestId: 'req-settled', tokenId: token.id, accountId: 1, amount: 500 })).toEqual({ ok: true });
    await relay.storage.usageLog.insertBatch([usageEntry({ requestId: 'req-settled', tokenId: token.id, accountId: 1, cost: 300, quotaReserved: 500 })]);
    expect((await request(relay.app).get(`/api/tokens/${token.id}`).set(admin())).body.quota_used).toBe(300);
    expect((await usage(token.id).expect(200)).body.total.cost).toBe(300);
  });

  it('takes an explicit range, `to` exclusive', async () => {
    const token = await createToken(relay, { name: 't' });
    await relay.storage.usageLog.insertBatch([
      usageEntry({ tokenId: token.id, createdAt: '2025-03-01T00:00:00.000Z', cost: 1 }),
      usageEntry({ tokenId: token.id, createdAt: '2025-03-09T23:59:59.999Z', cost: 2 }),
      usageEntry({ tokenId: token.id, createdAt: '2025-03-10T00:00:00.000Z', cost: 4 }),
    ]);
    const { body } = await usage(token.id, '?from=2025-03-01T00:00:00Z&to=2025-03-10T00:00:00Z').expect(200);
    expect(body).toMatchObject({ from: '2025-03-01T00:00:00.000Z', to: '2025-03-10T00:00:00.000Z' });
    expect(body.total).toMatchObject({ requests: 2, cost: 3 });
    const onlyTo = (await usage(token.id, '?to=2025-03-10T00:00:01Z').expect(200)).body;
    expect(onlyTo.total.cost).toBe(7);
    expect(onlyTo.from).toBe('2025-02-08T00:00:01.000Z');
  });

  it.each([
    ['?group_by=week', 'group_by'],
    ['?from=yesterday', 'from'],
    ['?from=2025-03-10T00:00:00Z&to=2025-03-01T00:00:00Z', 'from'],
    ['?from=2025-03-10T00:00:00Z&to=2025-03-10T00:00:00Z', 'from'],
    ['?days=7', 'days'],
  ])('refuses %s: 400 naming %s', async (query, param) => {
    const token = await createToken(relay, { name: 't' });
    const response = await usage(token.id, query).expect(400);
    expect(response.body.error).toMatchObject({ type: 'invalid_request_error', param });
  });

  it('404 for an unknown token', async () => {
    expect((await usage(999).expect(404)).body.error.code).toBe('token_not_found');
  });
});

describe('request log API', () => {
  let relay: TestRelay;
  const admin = () => bearer(relay.adminKey);
  const logs = (query = '') => request(relay.app).get(`/api/logs${query}`).set(admin());
  const ids = async (query: string) =>
    LogPageSchema.parse((await logs(query).expect(200)).body).data.map((entry) => entry.request_id);

  beforeEach(async () => {
    relay = await createTestRelay();
    const account = await createAccount(relay, { name: 'team' });
    await relay.storage.usageLog.insertBatch([
      usageEntry({
        requestId: 'r1',
        tokenId: 1,
        accountId: 1,
        createdAt: '2025-01-01T10:00:00.000Z',
        requestedModel: 'gpt-4o',
        promptTokens: 5_000,
        completionTokens: 42,
        cacheReadTokens: 3_000,
        cacheWriteTokens: 1_500,
        cost: 1_234_567,
      }),
      usageEntry({ requestId: 'r2', tokenId: 1, accountId: 1, createdAt: '2025-01-02T10:00:00.000Z', requestedModel: 'gpt-4o-mini', status: 429, errorCode: 'rate_limit_exceeded' }),
      usageEntry({ requestId: 'r3', tokenId: 2, accountId: account.id, createdAt: '2025-01-03T10:00:00.000Z', requestedModel: 'gpt-4o', usageEstimated: true, stream: true }),
    ]);
  });
  afterEach(() => relay.close());

  it('shows every field of an entry, with the cost also in USD, newest first', async () => {
    const page = LogPageSchema.parse((await logs().expect(200)).body);
    expect(page).toMatchObject({ total: 3, page: 1, per_page: 20 });
    expect(page.data.map((entry) => entry.request_id)).toEqual(['r3', 'r2', 'r1']);
    expect(page.data[2]).toMatchObject({
      request_id: 'r1',
      token_id: 1,
      account_id: 1,
      requested_model: 'gpt-4o',
      upstream_model: 'gpt-4o-2024-08-06',
      channel_id: 1,
      stream: false,
      status: 200,
      error_code: null,
      prompt_tokens: 5_000,
      completion_tokens: 42,
      cache_read_tokens: 3_000,
      cache_write_tokens: 1_500,
      cost: 1_234_567,
      cost_usd: '1.234567',
      latency_ms: 12,
      ttfb_ms: 7,
      client_ip: '127.0.0.1',
      attempts: 1,
      usage_estimated: false,
    });
    expect(page.data[0]).toMatchObject({ usage_estimated: true, stream: true, cache_read_tokens: 0, cache_write_tokens: 0 });
  });

  it('filters by token, account, model, status and time', async () => {
    expect(await ids('?token_id=1')).toEqual(['r2', 'r1']);
    expect(await ids('?account_id=1')).toEqual(['r2', 'r1']);
    expect(await ids('?model=gpt-4o')).toEqual(['r3', 'r1']);
    expect(await ids('?status=429')).toEqual(['r2']);
    expect(await ids('?from=2025-01-02T00:00:00Z')).toEqual(['r3', 'r2']);
    expect(await ids('?to=2025-01-02T10:00:00Z')).toEqual(['r1']);
    expect(await ids('?from=2025-01-01T00:00:00Z&to=2025-01-03T00:00:00Z&model=gpt-4o')).toEqual(['r1']);
  });

  it('paginates, and a page past the end is 400', async () => {
    expect(await ids('?per_page=2&page=2')).toEqual(['r1']);
    expect((await logs('?per_page=2&page=3').expect(400)).body.error).toMatchObject({ param: 'page', code: 'page_out_of_range' });
  });

  it.each([
    ['?status=abc', 'status'],
    ['?status=99', 'status'],
    ['?token_id=-1', 'token_id'],
    ['?from=2025-01-01', 'from'],
    ['?from=2025-01-03T00:00:00Z&to=2025-01-01T00:00:00Z', 'from'],
    ['?per_page=101', 'per_page'],
    ['?prompt=hello', 'prompt'],
  ])('refuses %s: 400 naming %s', async (query, param) => {
    expect((await logs(query).expect(400)).body.error).toMatchObject({ type: 'invalid_request_error', param });
  });
});

describe('legacy billing routes', () => {
  let relay: TestRelay;

  beforeEach(async () => {
    relay = await createTestRelay();
  });
  afterEach(() => relay.close());

  const subscription = async (key: string) =>
    BillingSubscriptionSchema.parse((await request(relay.app).get('/v1/dashboard/billing/subscription').set(bearer(key)).expect(200)).body);

  it("subscription shows the token's limit, else its account's, else a large number; and the expiry", async () => {
    const account = await createAccount(relay, { name: 'team', quota_limit: 2_000_000 });
    const limited = await createToken(relay, { name: 'l', quota_limit: 5_250_000, expires_at: '2030-01-01T00:00:00Z', account_id: account.id });
    expect(await subscription(limited.key)).toEqual({
      object: 'billing_subscription',
      has_payment_method: true,
      hard_limit_usd: 5.25,
      soft_limit_usd: 5.25,
      system_hard_limit_usd: 5.25,
      access_until: Date.UTC(2030, 0, 1) / 1000,
    });
    const byAccount = await createToken(relay, { name: 'a', account_id: account.id });
    expect(await subscription(byAccount.key)).toMatchObject({ hard_limit_usd: 2, access_until: 0 });
    const unlimited = await createToken(relay, { name: 'u' });
    expect((await subscription(unlimited.key)).hard_limit_usd).toBe(100_000_000);
    expect((await subscription(account.access_key)).hard_limit_usd).toBe(2);
  });

  it("usage is the caller's cost in US cents over [start_date, end_date)", async () => {
    const account = await createAccount(relay, { name: 'team' });
    const token = await createToken(relay, { name: 't', account_id: account.id });
    const sibling = await createToken(relay, { name: 's', account_id: account.id });
    const row = (createdAt: string, cost: number, tokenId = token.id) => usageEntry({ createdAt, cost, tokenId, accountId: account.id });
    await relay.storage.usageLog.insertBatch([
      row('2024-12-31T23:59:59.999Z', 1_000_000),
      row('2025-01-01T00:00:00.000Z', 123_456),
      row('2025-01-31T23:59:59.999Z', 10_000),
      row('2025-02-01T00:00:00.000Z', 5_000_000),
      row('2025-01-15T00:00:00.000Z', 40_000, sibling.id),
    ]);
    const usage = (key: string, query: string) =>
      request(relay.app).get(`/v1/dashboard/billing/usage${query}`).set(bearer(key));
    const january = '?start_date=2025-01-01&end_date=2025-02-01';
    expect((await usage(token.key, january).expect(200)).body).toEqual({ object: 'list', total_usage: 13.3456 });
    expect((await usage(account.access_key, january).expect(200)).body.total_usage).toBe(17.3456);
    expect((await usage(token.key, '?start_date=2024-12-01&end_date=2025-03-01').expect(200)).body.total_usage).toBe(613.3456);
  });

  it('usage defaults to the current month', async () => {
    const token = await createToken(relay, { name: 't' });
    // 40 days ago always falls before the start of the current month.
    await relay.storage.usageLog.insertBatch([
      usageEntry({ tokenId: token.id, accountId: 1, cost: 250_000 }),
      usageEntry({ tokenId: token.id, accountId: 1, cost: 990_000, createdAt: daysAgo(40) }),
    ]);
    const { body } = await request(relay.app).get('/v1/dashboard/billing/usage').set(bearer(token.key)).expect(200);
    expect(body.total_usage).toBe(25);
  });

  it.each([
    ['?start_date=2025-02-30&end_date=2025-03-01', 'start_date'],
    ['?start_date=2025/01/01', 'start_date'],
    ['?start_date=2025-01-01&end_date=2025-13-01', 'end_date'],
    ['?start_date=2025-02-01&end_date=2025-01-01', 'start_date'],
    ['?start_date=2025-01-01&end_date=2025-01-01', 'start_date'],
    ['?start_date=2025-01-01&currency=usd', 'currency'],
  ])('usage refuses %s: 400 naming %s', async (query, param) => {
    const token = await createToken(relay, { name: 't' });
    const response = await request(relay.app).get(`/v1/dashboard/billing/usage${query}`).set(bearer(token.key)).expect(400);
    expect(response.body.error).toMatchObject({ type: 'invalid_request_error', param });
  });

  it('need a key; a disabled token is refused', async () => {
    const token = await createToken(relay, { name: 't', status: 'disabled' });
    for (const path of ['/v1/dashboard/billing/subscription', '/v1/dashboard/billing/usage']) {
      await request(relay.app).get(path).expect(401);
      const refused = await request(relay.app).get(path).set(bearer(token.key)).expect(401);
      expect(refused.body.error.code).toBe('token_disabled');
    }
  });
});
