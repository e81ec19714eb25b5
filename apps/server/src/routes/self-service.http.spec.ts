import request from 'supertest';
import { AccountInfoSchema, DEFAULT_CHANNEL_ENDPOINTS, ModelListSchema } from '@chat-relay/contract';
import { bearer, createAccount, createToken, type AccountCreated } from '../../test/testing/system-api';
import { createTestRelay, type TestRelay } from '../../test/testing/test-relay';

describe('GET /api/account', () => {
  let relay: TestRelay;
  const info = async (key: string) =>
    AccountInfoSchema.parse((await request(relay.app).get('/api/account').set(bearer(key)).expect(200)).body);

  beforeEach(async () => {
    relay = await createTestRelay();
  });
  afterEach(() => relay.close());

  it('a token sees its account, itself (without its key), and the smaller of what both have left', async () => {
    const account = await createAccount(relay, { name: 'team', quota_limit: 5_000 });
    const token = await createToken(relay, { name: 't', quota_limit: 1_000, account_id: account.id });
    await relay.storage.tokens.update(token.id, { quotaUsed: 400 });

    const shown = await info(token.key);
    expect(shown.account).toMatchObject({ id: account.id, name: 'team', quota_limit: 5_000, key_hint: account.key_hint });
    expect(shown.token).toMatchObject({ id: token.id, name: 't', quota_used: 400, quota_used_usd: '0.000400' });
    expect(JSON.stringify(shown)).not.toContain(token.key);
    expect(shown.quota_remaining).toBe(600);

    await relay.storage.accounts.update(account.id, { quotaUsed: 4_800 });
    expect((await info(token.key)).quota_remaining).toBe(200);
    await relay.storage.accounts.update(account.id, { quotaUsed: 6_000 });
    expect((await info(token.key)).quota_remaining).toBe(0);
  });

  it('null means unlimited: a limit on either side alone decides', async () => {
    const account = await createAccount(relay, { name: 'open' });
    const unlimited = await createToken(relay, { name: 'u', account_id: account.id });
    expect((await info(unlimited.key)).quota_remaining).toBeNull();
    const limited = await createToken(relay, { name: 'l', quota_limit: 70, account_id: account.id });
    expect((await info(limited.key)).quota_remaining).toBe(70);
    await relay.storage.accounts.update(account.id, { quotaLimit: 50, quotaUsed: 20 });
    expect((await info(unlimited.key)).quota_remaining).toBe(30);
  });

  it('a management key sees its own account and no token', async () => {
    const account = await createAccount(relay, { name: 'team', quota_limit: 9_000 });
    await relay.storage.accounts.update(account.id, { quotaUsed: 1_000 });
    expect(await info(account.access_key)).toMatchObject({ account: { id: account.id, quota_used: 1_000 }, token: null, quota_remaining: 8_000 });
    expect(await info(relay.adminKey)).toMatchObject({ account: { id: 1, role: 'admin' }, token: null, quota_remaining: null });
  });

  it('needs a valid, enabled key', async () => {
    await request(relay.app).get('/api/account').expect(401);
    const token = await createToken(relay, { name: 'off', status: 'disabled' });
    expect((await request(relay.app).get('/api/account').set(bearer(token.key)).expect(401)).body.error.code).toBe('token_disabled');
  });
});

describe('GET /api/models', () => {
  let relay: TestRelay;
  let alice: AccountCreated;
  const models = async (key: string) =>
    ModelListSchema.parse((await request(relay.app).get('/api/models').set(bearer(key)).expect(200)).body).data.map((model) => model.id);
  const tokenWith = async (allowList: string[] | null) =>
    (await createToken(relay, { name: 't', models: allowList, account_id: alice.id })).key;

  beforeEach(async () => {
    relay = await createTestRelay();
    const admin = bearer(relay.adminKey);
    await request(relay.app)
      .post('/api/channels')
      .set(admin)
      .send({
        name: 'main',
        type: 'openai',
        base_url: 'http://127.0.0.1:9/v1',
        keys: ['sk-upstream'],
        models: ['gpt-4o', 'gpt-4o-mini', 'claude-sonnet-4*'],
        model_mapping: { house: 'gpt-4o' },
      })
      .expect(201);
    alice = await createAccount(relay, { name: 'alice' });
    const bob = await createAccount(relay, { name: 'bob' });
    const assistant = (key: string, body: object) => request(relay.app).post('/api/assistants').set(bearer(key)).send(body).expect(201);
    // Bob's, published by the admin (only the admin publishes: issue 26).
    await assistant(bob.access_key, { id: 'g-pub', name: 'public', models: ['gpt-4o'] });
    await request(relay.app).patch(`/api/assistants/g-pub?account_id=${bob.id}`).set(admin).send({ visibility: 'public' }).expect(200);
    await assistant(bob.access_key, { id: 'g-secret', name: 'private to bob' });
    await assistant(alice.access_key, { id: 'g-mine', name: 'private to alice', models: ['gpt-4o-mini'] });
  });
  afterEach(() => relay.close());

  const everythingAliceMayUse = ['gpt-4o', 'gpt-4o-mini', 'house', 'gpt-4o-gizmo-g-pub', 'gpt-4o-mini-gizmo-g-mine'];

  it('a token without an allow-list sees what the channels serve and the assistants its account may use', async () => {
    expect(await models(await tokenWith(null))).toEqual(everythingAliceMayUse);
  });

  it("a token sees the intersection with its allow-list, globs and gizmo names included", async () => {
    expect(await models(await tokenWith(['gpt-4o*']))).toEqual(['gpt-4o', 'gpt-4o-mini', 'gpt-4o-gizmo-g-pub', 'gpt-4o-mini-gizmo-g-mine']);
    expect(await models(await tokenWith(['house', '*-gizmo-g-pub']))).toEqual(['house', 'gpt-4o-gizmo-g-pub']);
    expect(await models(await tokenWith(['gpt-4o']))).toEqual(['gpt-4o']);
    expect(await models(await tokenWith(['gpt-4o-gizmo-g-secret', 'o3']))).toEqual([]);
  });

  it('a name the channels serve only through a glob is listed when the allow-list names it', async () => {
    const listed = await request(relay.app).get('/api/models').set(bearer(await tokenWith(['claude-sonnet-4-5', 'claude-*']))).expect(200);
    expect(listed.body.data).toEqual([
      {
        id: 'claude-sonnet-4-5',
        object: 'model',
        created: expect.any(Number),
        owned_by: 'openai',
        endpoints: DEFAULT_CHANNEL_ENDPOINTS.openai,
        // What the model catalogue knows of it (issue 28), priced by the seeded `claude-sonnet-4*` entry.
        context_window: 200_000,
        max_output_tokens: 64_000,
        pricing: { input: 3, output: 15, cache_read: 0.3, cache_write: 3.75 },
      },
    ]);
  });

  it('a management key sees everything served to its account', async () => {
    expect(await models(alice.access_key)).toEqual(everythingAliceMayUse);
    expect(await models(relay.adminKey)).toEqual(['gpt-4o', 'gpt-4o-mini', 'house', 'gpt-4o-gizmo-g-pub']);
  });

  it('a disabled channel serves nothing', async () => {
    await request(relay.app).patch('/api/channels/1').set(bearer(relay.adminKey)).send({ enabled: false }).expect(200);
    expect(await models(await tokenWith(['claude-sonnet-4-5']))).toEqual([]);
    expect(await models(alice.access_key)).toEqual([]);
  });
});
