import request from 'supertest';
import { UsageSeriesSchema } from '@chat-relay/contract';
import { bearer, createAccount, createToken, usageEntry, type AccountCreated } from '../../test/testing/system-api';
import { createTestRelay, type TestRelay } from '../../test/testing/test-relay';
import type { TokenCreated } from '@chat-relay/contract';

const HOUR = 3_600_000;
const hourStart = (ms: number) => new Date(Math.floor(ms / HOUR) * HOUR).toISOString();

describe('GET /api/usage', () => {
  let relay: TestRelay;
  let alice: AccountCreated;
  let bob: AccountCreated;
  let aliceToken: TokenCreated;
  let bobToken: TokenCreated;
  const get = (query: string, key = relay.adminKey) => request(relay.app).get(`/api/usage${query}`).set(bearer(key));
  const series = async (query: string, key = relay.adminKey) => UsageSeriesSchema.parse((await get(query, key).expect(200)).body);

  beforeEach(async () => {
    relay = await createTestRelay();
    alice = await createAccount(relay, { name: 'alice' });
    bob = await createAccount(relay, { name: 'bob' });
    aliceToken = await createToken(relay, { name: 'a', account_id: alice.id });
    bobToken = await createToken(relay, { name: 'b', account_id: bob.id });
  });
  afterEach(() => relay.close());

  it('by default: the last 24 hours by hour in total, from rounded down to its hour, the current hour included', async () => {
    const now = Date.now();
    await relay.storage.usageLog.insertBatch([
      usageEntry({ createdAt: new Date(now - 2 * HOUR).toISOString(), tokenId: aliceToken.id, accountId: alice.id, promptTokens: 10, completionTokens: 5, cost: 1_500_000 }),
      usageEntry({ createdAt: new Date(now - 2 * HOUR).toISOString(), tokenId: bobToken.id, accountId: bob.id, status: 429, cost: 0 }),
      usageEntry({ createdAt: new Date(now - 1000).toISOString(), tokenId: aliceToken.id, accountId: alice.id, cost: 20 }),
      usageEntry({ createdAt: new Date(now - 30 * HOUR).toISOString(), tokenId: aliceToken.id, accountId: alice.id, cost: 999 }),
    ]);
    const body = await series('');
    expect(body).toMatchObject({ bucket: 'hour', group_by: 'total' });
    expect(body.from).toBe(hourStart(Date.parse(body.to) - 24 * HOUR));
    expect(Date.parse(body.to)).toBeGreaterThanOrEqual(now);
    expect(body.data).toEqual([
      { time: hourStart(now - 2 * HOUR), key: null, requests: 2, errors: 1, prompt_tokens: 10, completion_tokens: 5, cost: 1_500_000, cost_usd: '1.500000' },
      { time: hourStart(now - 1000), key: null, requests: 1, errors: 0, prompt_tokens: 0, completion_tokens: 0, cost: 20, cost_usd: '0.000020' },
    ]);
    expect(body.totals).toEqual({ requests: 3, errors: 1, prompt_tokens: 10, completion_tokens: 5, cost: 1_500_020, cost_usd: '1.500020' });
  });

  it('by day and per model, channel or token over an explicit range, with filters', async () => {
    const row = (createdAt: string, model: string | null, channelId: number | null, token: TokenCreated | null, status = 200) =>
      usageEntry({ createdAt, requestedModel: model, channelId, tokenId: token?.id ?? null, accountId: token?.account_id ?? null, status, cost: 100 });
    await relay.storage.usageLog.insertBatch([
      row('2026-01-10T03:00:00.000Z', 'gpt-4o', 2, aliceToken),
      row('2026-01-10T23:59:59.999Z', 'claude', 10, bobToken, 500),
      row('2026-01-11T00:00:00.000Z', 'gpt-4o', 2, aliceToken),
      row('2026-01-11T05:00:00.000Z', null, null, null, 401),
      row('2026-01-12T00:00:00.000Z', 'gpt-4o', 2, aliceToken),
    ]);
    const range = '?bucket=day&from=2026-01-10T12:00:00.000Z&to=2026-01-12T00:00:00.000Z';
    const points = async (query: string) => (await series(range + query)).data.map((point) => [point.time.slice(0, 10), point.key, point.requests, point.errors]);
    // `from` is rounded down to its day: the row at 03:00 counts; `to` is exclusive.
    expect((await series(range)).from).toBe('2026-01-10T00:00:00.000Z');
    expect(await points('&group_by=model')).toEqual([['2026-01-10', 'claude', 1, 1], ['2026-01-10', 'gpt-4o', 1, 0], ['2026-01-11', null, 1, 1], ['2026-01-11', 'gpt-4o', 1, 0]]);
    expect(await points('&group_by=channel')).toEqual([['2026-01-10', '2', 1, 0], ['2026-01-10', '10', 1, 1], ['2026-01-11', null, 1, 1], ['2026-01-11', '2', 1, 0]]);
    expect(await points('&group_by=token')).toEqual([
      ['2026-01-10', String(aliceToken.id), 1, 0],
      ['2026-01-10', String(bobToken.id), 1, 1],
      ['2026-01-11', null, 1, 1],
      ['2026-01-11', String(aliceToken.id), 1, 0],
    ]);
    expect(await points('&channel_id=10')).toEqual([['2026-01-10', null, 1, 1]]);
    expect(await points('&model=gpt-4o&group_by=token')).toEqual([['2026-01-10', String(aliceToken.id), 1, 0], ['2026-01-11', String(aliceToken.id), 1, 0]]);
    expect(await points(`&token_id=${bobToken.id}`)).toEqual([['2026-01-10', null, 1, 1]]);
    expect(await points(`&account_id=${alice.id}`)).toEqual([['2026-01-10', null, 1, 0], ['2026-01-11', null, 1, 0]]);
  });

  it("an account's key sees its own account only: another account is 403, another's token 404", async () => {
    const at = new Date(Date.now() - HOUR).toISOString();
    await relay.storage.usageLog.insertBatch([
      usageEntry({ createdAt: at, tokenId: aliceToken.id, accountId: alice.id, cost: 7 }),
      usageEntry({ createdAt: at, tokenId: bobToken.id, accountId: bob.id, cost: 1000 }),
    ]);
    const own = await series('?group_by=token', alice.access_key);
    expect(own.data.map((point) => [point.key, point.cost])).toEqual([[String(aliceToken.id), 7]]);
    expect((await series(`?token_id=${aliceToken.id}`, alice.access_key)).totals.cost).toBe(7);
    expect((await series(`?account_id=${alice.id}`, alice.access_key)).totals.cost).toBe(7);

    const otherAccount = await get(`?account_id=${bob.id}`, alice.access_key).expect(403);
    expect(otherAccount.body.error).toMatchObject({ type: 'permission_error', code: 'account_forbidden' });
    for (const id of [bobToken.id, 9999]) {
      const otherToken = await get(`?token_id=${id}`, alice.access_key).expect(404);
      expect(otherToken.body.error).toMatchObject({ code: 'token_not_found', param: 'token_id', message: `No token with id ${id}.` });
    }
    // The admin sees every account, and any token (also one deleted since, whose rows remain).
    expect((await series('')).totals.cost).toBe(1007);
    expect((await series(`?token_id=${bobToken.id}`)).totals.cost).toBe(1000);
    expect((await series('?token_id=9999')).data).toEqual([]);
    // An API token is not a management key.
    const byToken = await get('', aliceToken.key).expect(403);
    expect(byToken.body.error.code).toBe('management_key_required');
  });

  it('refuses a range longer than the bucket allows (naming `from`), an inverted range and unknown parameters', async () => {
    const tooLong = [
      '?from=2026-01-01T00:00:00.000Z&to=2026-02-01T00:00:00.001Z',
      '?bucket=day&from=2025-01-01T00:00:00.000Z&to=2026-01-02T00:00:00.001Z',
    ];
    for (const query of tooLong) {
      const response = await get(query).expect(400);
      expect(response.body.error).toMatchObject({ type: 'invalid_request_error', param: 'from' });
      expect(response.body.error.message).toMatch(/at most (744|366) buckets/);
    }
    // Exactly the most: 31 days of hours, 366 days.
    await get('?from=2026-01-01T00:00:00.000Z&to=2026-02-01T00:00:00.000Z').expect(200);
    await get('?bucket=day&from=2025-01-01T00:00:00.000Z&to=2026-01-02T00:00:00.000Z').expect(200);

    const inverted = await get('?from=2026-01-02T00:00:00.000Z&to=2026-01-01T00:00:00.000Z').expect(400);
    expect(inverted.body.error).toMatchObject({ type: 'invalid_request_error', param: 'from' });
    for (const query of ['?bucket=week', '?group_by=account', '?page=2', '?token_id=abc', '?from=yesterday']) {
      expect((await get(query).expect(400)).body.error.type).toBe('invalid_request_error');
    }
  });
});
