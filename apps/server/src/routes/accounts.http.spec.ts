import request from 'supertest';
import { AccountPageSchema, AccountSchema, ErrorResponseSchema, PriceTableSchema } from '@chat-relay/contract';
import { digestKey } from '../security/keys';
import { storedResponseBytes } from '../storage/stored-response-size';
import { bearer, createAccount, createToken } from '../../test/testing/system-api';
import { createTestRelay, type TestRelay } from '../../test/testing/test-relay';

describe('account admin API', () => {
  let relay: TestRelay;
  const admin = () => bearer(relay.adminKey);

  beforeEach(async () => {
    relay = await createTestRelay();
  });
  afterEach(() => relay.close());

  it('creates an account whose access key is shown once, stored as a digest, and reaches /api', async () => {
    const account = await createAccount(relay, { name: 'team-a', quota_limit: 2_500_000 });
    expect(account.access_key).toMatch(/^sk-acct-[0-9A-Za-z]{40}$/);
    expect(account).toMatchObject({
      name: 'team-a',
      role: 'user',
      status: 'active',
      quota_limit: 2_500_000,
      quota_limit_usd: '2.500000',
      quota_used: 0,
      quota_used_usd: '0.000000',
      key_hint: `...${account.access_key.slice(-4)}`,
    });
    const stored = await relay.storage.accounts.findByKeyDigest(digestKey(account.access_key));
    expect(stored?.id).toBe(account.id);

    const fetched = await request(relay.app).get(`/api/accounts/${account.id}`).set(admin()).expect(200);
    expect(fetched.body.access_key).toBeUndefined();
    expect(AccountSchema.parse(fetched.body)).toEqual(AccountSchema.parse(account));
    await request(relay.app).get('/api/tokens').set(bearer(account.access_key)).expect(200);
  });

  it('issue 26: shows what an account keeps of the Responses API, and the bounds, to the admin and to the account itself', async () => {
    const account = await createAccount(relay, { name: 'keeper' });
    const token = await createToken(relay, { name: 't' }, account.access_key);
    const created = new Date().toISOString();
    const record = (id: string, accountId: number) => ({
      id,
      accountId,
      tokenId: null,
      origin: 'bridged' as const,
      channelId: null,
      keyDigest: null,
      model: 'gpt-4o',
      previousResponseId: null,
      status: 'completed',
      response: { id, output: [] },
      inputItems: [{ id: `msg_${id}`, content: 'hello' }],
      createdAt: created,
      expiresAt: new Date(Date.now() + 86_400_000).toISOString(),
    });
    await relay.services.responses.remember(record('resp_a', account.id));
    await relay.services.responses.remember(record('resp_b', account.id));
    const bytes = 2 * storedResponseBytes(record('resp_a', account.id));
    const bounds = { max_count: 10_000, max_bytes: 100 * 1024 * 1024 };
    const expected = { count: 2, bytes, ...bounds };

    const listed = AccountPageSchema.parse((await request(relay.app).get('/api/accounts').set(admin()).expect(200)).body);
    expect(listed.data.map((row) => [row.name, row.stored_responses])).toEqual([
      ['admin', { count: 0, bytes: 0, ...bounds }],
      ['keeper', expected],
    ]);
    const one = AccountSchema.parse((await request(relay.app).get(`/api/accounts/${account.id}`).set(admin()).expect(200)).body);
    expect(one.stored_responses).toEqual(expected);
    for (const key of [account.access_key, token.key]) {
      const own = await request(relay.app).get('/api/account').set(bearer(key)).expect(200);
      expect(own.body.account.stored_responses).toEqual(expected);
    }
    const patched = await request(relay.app).patch(`/api/accounts/${account.id}`).set(admin()).send({ name: 'renamed' }).expect(200);
    expect(patched.body.stored_responses).toEqual(expected);
    expect((await createAccount(relay, { name: 'new' })).stored_responses).toEqual({ count: 0, bytes: 0, ...bounds });
  });

  it('an account created with role admin holds an admin key', async () => {
    const second = await createAccount(relay, { name: 'ops', role: 'admin' });
    await request(relay.app).get('/api/accounts').set(bearer(second.access_key)).expect(200);
    const user = await createAccount(relay, { name: 'user' });
    const denied = await request(relay.app).get('/api/accounts').set(bearer(user.access_key)).expect(403);
    expect(denied.body.error.code).toBe('admin_key_required');
  });

  it('lists accounts with pagination; a page past the end is 400', async () => {
    await createAccount(relay, { name: 'a' });
    await createAccount(relay, { name: 'b' });
    const page = AccountPageSchema.parse(
      (await request(relay.app).get('/api/accounts?page=2&per_page=2').set(admin()).expect(200)).body,
    );
    expect(page).toMatchObject({ total: 3, page: 2, per_page: 2 });
    expect(page.data.map((account) => account.name)).toEqual(['b']);
    const past = await request(relay.app).get('/api/accounts?page=3&per_page=2').set(admin()).expect(400);
    expect(past.body.error).toMatchObject({ param: 'page', code: 'page_out_of_range' });
  });

  it.each([
    [{}, 'name', 'missing_required_parameter'],
    [{ name: '' }, 'name', 'invalid_value'],
    [{ name: 'x', quota_limit: -1 }, 'quota_limit', 'integer_below_min_value'],
    [{ name: 'x', quota_limit: 1.5 }, 'quota_limit', 'invalid_value'],
    [{ name: 'x', quota_limit: '100' }, 'quota_limit', 'invalid_value'],
    [{ name: 'x', role: 'root' }, 'role', 'invalid_value'],
    [{ name: 'x', access_key: 'sk-acct-mine' }, 'access_key', 'invalid_value'],
  ])('refuses to create %j: 400 naming %s', async (body, param, code) => {
    const response = await request(relay.app).post('/api/accounts').set(admin()).send(body).expect(400);
    expect(ErrorResponseSchema.parse(response.body).error).toMatchObject({ type: 'invalid_request_error', param, code });
  });

  it('patches given fields only, resets quota_used, and refuses bad patches', async () => {
    const account = await createAccount(relay, { name: 'a', quota_limit: 1_000_000 });
    await relay.storage.accounts.update(account.id, { quotaUsed: 700_000 });
    const patched = await request(relay.app)
      .patch(`/api/accounts/${account.id}`)
      .set(admin())
      .send({ quota_used: 0, quota_limit: null })
      .expect(200);
    expect(patched.body).toMatchObject({ name: 'a', role: 'user', quota_used: 0, quota_limit: null, quota_limit_usd: null });

    const patch = (body: object) => request(relay.app).patch(`/api/accounts/${account.id}`).set(admin()).send(body);
    expect((await patch({}).expect(400)).body.error.type).toBe('invalid_request_error');
    expect((await patch({ quota_used: -5 }).expect(400)).body.error.param).toBe('quota_used');
    expect((await patch({ key_hint: 'x' }).expect(400)).body.error.param).toBe('key_hint');
    expect((await patch({ status: 'paused' }).expect(400)).body.error.param).toBe('status');
    await request(relay.app).patch('/api/accounts/999').set(admin()).send({ name: 'x' }).expect(404);
  });

  it('a disabled account key stops working on its next request', async () => {
    const account = await createAccount(relay, { name: 'a' });
    await request(relay.app).get('/api/tokens').set(bearer(account.access_key)).expect(200);
    await request(relay.app).patch(`/api/accounts/${account.id}`).set(admin()).send({ status: 'disabled' }).expect(200);
    const denied = await request(relay.app).get('/api/tokens').set(bearer(account.access_key)).expect(401);
    expect(denied.body.error.code).toBe('account_disabled');
  });

  it('the admin can neither delete, demote nor disable its own account', async () => {
    const deleted = await request(relay.app).delete('/api/accounts/1').set(admin()).expect(400);
    expect(deleted.body.error).toMatchObject({ code: 'cannot_delete_self', param: 'id' });
    const demoted = await request(relay.app).patch('/api/accounts/1').set(admin()).send({ role: 'user' }).expect(400);
    expect(demoted.body.error).toMatchObject({ code: 'cannot_modify_self', param: 'role' });
    await request(relay.app).patch('/api/accounts/1').set(admin()).send({ status: 'disabled' }).expect(400);
    await request(relay.app).get('/api/accounts').set(admin()).expect(200);
    await request(relay.app).patch('/api/accounts/1').set(admin()).send({ name: 'root' }).expect(200);
  });

  it('deletes another account with its tokens: 204, then 404; its keys stop working', async () => {
    const account = await createAccount(relay, { name: 'gone' });
    const token = await createToken(relay, { name: 't' }, account.access_key);
    await request(relay.app).delete(`/api/accounts/${account.id}`).set(admin()).expect(204);
    await request(relay.app).delete(`/api/accounts/${account.id}`).set(admin()).expect(404);
    const missing = await request(relay.app).get(`/api/accounts/${account.id}`).set(admin()).expect(404);
    expect(missing.body.error).toMatchObject({ code: 'account_not_found', param: 'id' });
    expect(await relay.storage.tokens.get(token.id)).toBeUndefined();
    await request(relay.app).get('/api/tokens').set(bearer(account.access_key)).expect(401);
    await request(relay.app).get('/api/account').set(bearer(token.key)).expect(401);
  });

  it('400 for a malformed id in the path', async () => {
    const response = await request(relay.app).get('/api/accounts/abc').set(admin()).expect(400);
    expect(response.body.error.param).toBe('id');
  });

  it('only the admin key reaches accounts, channels and prices', async () => {
    const account = await createAccount(relay, { name: 'a' });
    const token = await createToken(relay, { name: 't' });
    for (const path of ['/api/accounts', '/api/accounts/1', '/api/channels', '/api/prices']) {
      const byAccount = await request(relay.app).get(path).set(bearer(account.access_key)).expect(403);
      expect(byAccount.body.error).toMatchObject({ type: 'permission_error', code: 'admin_key_required' });
      const byToken = await request(relay.app).get(path).set(bearer(token.key)).expect(403);
      expect(byToken.body.error.code).toBe('management_key_required');
      await request(relay.app).get(path).expect(401);
    }
    await request(relay.app).put('/api/prices').set(bearer(account.access_key)).send({ data: [] }).expect(403);
    await request(relay.app).post('/api/accounts').set(bearer(account.access_key)).send({ name: 'b' }).expect(403);
  });
});

describe('price table API', () => {
  let relay: TestRelay;
  const admin = () => bearer(relay.adminKey);

  beforeEach(async () => {
    relay = await createTestRelay();
  });
  afterEach(() => relay.close());

  it('is seeded with well-known models', async () => {
    const table = PriceTableSchema.parse((await request(relay.app).get('/api/prices').set(admin()).expect(200)).body);
    expect(table.data).toContainEqual({ model: 'gpt-4o*', input: 2_500_000, output: 10_000_000, cache_read: 1_250_000, cache_write: null });
    expect(table.data).toContainEqual({ model: 'claude-sonnet-4*', input: 3_000_000, output: 15_000_000, cache_read: 300_000, cache_write: 3_750_000 });
    expect(table.data.length).toBeGreaterThan(5);
  });

  it('PUT replaces the whole table, in order, and the relay prices with it at once', async () => {
    expect(await relay.services.prices.priceOf('gpt-4o')).toMatchObject({ model: 'gpt-4o*' });
    const data = [
      { model: 'house-model', input: 1_000_000, output: 2_000_000, cache_read: null, cache_write: null },
      { model: 'house-*', input: 5, output: 6, cache_read: null, cache_write: null },
    ];
    const put = await request(relay.app).put('/api/prices').set(admin()).send({ data }).expect(200);
    expect(put.body).toEqual({ data });
    expect((await request(relay.app).get('/api/prices').set(admin()).expect(200)).body).toEqual({ data });
    expect(await relay.services.prices.priceOf('gpt-4o')).toBeUndefined();
    expect(await relay.services.prices.priceOf('house-model')).toEqual({ model: 'house-model', input: 1_000_000, output: 2_000_000, cacheRead: null, cacheWrite: null });
    expect(await relay.services.prices.priceOf('house-other')).toMatchObject({ model: 'house-*', input: 5, output: 6 });
  });

  it('cache prices round-trip; left out or null they follow input', async () => {
    const sent = [
      { model: 'claude-house', input: 3_000_000, output: 15_000_000, cache_read: 300_000, cache_write: 3_750_000 },
      { model: 'read-only', input: 2_000_000, output: 8_000_000, cache_read: 0 },
      { model: 'plain', input: 1, output: 2, cache_read: null, cache_write: null },
    ];
    const shown = [sent[0], { ...sent[1], cache_write: null }, sent[2]];
    expect((await request(relay.app).put('/api/prices').set(admin()).send({ data: sent }).expect(200)).body).toEqual({ data: shown });
    expect(PriceTableSchema.parse((await request(relay.app).get('/api/prices').set(admin()).expect(200)).body)).toEqual({ data: shown });
    expect(await relay.services.prices.priceOf('claude-house')).toEqual({ model: 'claude-house', input: 3_000_000, output: 15_000_000, cacheRead: 300_000, cacheWrite: 3_750_000 });
    expect(await relay.services.prices.priceOf('read-only')).toMatchObject({ cacheRead: 0, cacheWrite: null });
    // What was read back may be sent again as it is.
    await request(relay.app).put('/api/prices').set(admin()).send({ data: shown }).expect(200);
  });

  it('the units of videos, songs and web searches round-trip, shown only where priced', async () => {
    const data = [
      { model: 'sora-2-pro', input: 0, output: 0, cache_read: null, cache_write: null, video_second: 300_000, video_second_variants: { '1792x1024': 500_000, '1024x1792': 500_000 } },
      { model: 'suno-*', input: 0, output: 0, cache_read: null, cache_write: null, song: 40_000 },
      { model: 'tavily', input: 0, output: 0, cache_read: null, cache_write: null, search_query: 8_000 },
    ];
    expect((await request(relay.app).put('/api/prices').set(admin()).send({ data }).expect(200)).body).toEqual({ data });
    expect(PriceTableSchema.parse((await request(relay.app).get('/api/prices').set(admin()).expect(200)).body)).toEqual({ data });
    expect(await relay.services.prices.priceOf('sora-2-pro')).toMatchObject({ videoSecond: 300_000, videoSecondVariants: { '1792x1024': 500_000, '1024x1792': 500_000 } });
    expect(await relay.services.prices.priceOf('suno-v4')).toMatchObject({ song: 40_000 });
    expect(await relay.services.prices.priceOf('tavily')).toMatchObject({ searchQuery: 8_000 });
  });

  it('an empty table is allowed (nothing is charged)', async () => {
    await request(relay.app).put('/api/prices').set(admin()).send({ data: [] }).expect(200);
    expect(await relay.services.prices.priceOf('gpt-4o')).toBeUndefined();
  });

  it.each([
    [{ data: [{ model: 'm', input: -1, output: 0 }] }, 'data[0].input'],
    [{ data: [{ model: 'm', input: 1.5, output: 0 }] }, 'data[0].input'],
    [{ data: [{ model: 'm', input: 1, output: '2' }] }, 'data[0].output'],
    [{ data: [{ model: '', input: 1, output: 2 }] }, 'data[0].model'],
    [{ data: [{ model: 'm', input: 1, output: 2, currency: 'eur' }] }, 'data[0].currency'],
    [{ data: [{ model: 'm', input: 1, output: 2, cache_read: -1 }] }, 'data[0].cache_read'],
    [{ data: [{ model: 'm', input: 1, output: 2, cache_write: 0.5 }] }, 'data[0].cache_write'],
    [{ data: [{ model: 'm', input: 1, output: 2, cache_write: 1e13 }] }, 'data[0].cache_write'],
    [{ data: [{ model: 'm', input: 1, output: 2, cacheRead: 1 }] }, 'data[0].cacheRead'],
    [{ data: [{ model: 'm', input: 1, output: 2 }, { model: 'm', input: 3, output: 4 }] }, 'data'],
    [{ prices: [] }, 'data'],
    [{ data: [], replace: true }, 'replace'],
  ])('refuses %j: 400 naming %s, and keeps the table', async (body, param) => {
    const before = (await request(relay.app).get('/api/prices').set(admin())).body;
    const response = await request(relay.app).put('/api/prices').set(admin()).send(body).expect(400);
    expect(response.body.error).toMatchObject({ type: 'invalid_request_error', param });
    expect((await request(relay.app).get('/api/prices').set(admin())).body).toEqual(before);
  });
});
