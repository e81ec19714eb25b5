import request from 'supertest';
import { createTestRelay, type TestRelay } from '../../test/testing/test-relay';

/** The account behind a token governs it too: its quota and its status (SPEC §4). */
describe('account quota and status on /v1', () => {
  let relay: TestRelay;
  const admin = () => ({ authorization: `Bearer ${relay.adminKey}` });

  beforeEach(async () => {
    relay = await createTestRelay();
  });
  afterEach(() => relay.close());

  async function accountWithToken(quotaLimit: number | null) {
    const { body: account } = await request(relay.app).post('/api/accounts').set(admin()).send({ name: 'team', quota_limit: quotaLimit }).expect(201);
    const { body: token } = await request(relay.app)
      .post('/api/tokens')
      .set(admin())
      .send({ name: 'app', account_id: account.id })
      .expect(201);
    return { account, token };
  }
  const chat = (key: string) =>
    request(relay.app)
      .post('/v1/chat/completions')
      .set('authorization', `Bearer ${key}`)
      .send({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] });

  it('an account with no quota left refuses its tokens with 429 insufficient_quota', async () => {
    const { token } = await accountWithToken(0);
    const response = await chat(token.key).expect(429);
    expect(response.body.error).toMatchObject({ type: 'insufficient_quota', code: 'insufficient_quota' });
    expect(response.body.error.message).toContain('account');
  });

  it('an account with quota lets its unlimited token through to routing', async () => {
    const { token } = await accountWithToken(1_000_000);
    // No channel serves the model: the request got past the quota check.
    const response = await chat(token.key).expect(404);
    expect(response.body.error.code).toBe('model_not_found');
    await relay.services.recorder.flush();
    const [row] = await relay.storage.usageLog.recent(1);
    expect(row).toMatchObject({ status: 404, cost: 0 });
  });

  it('disabling the account stops its tokens on the next request', async () => {
    const { account, token } = await accountWithToken(null);
    await chat(token.key).expect(404);
    await request(relay.app).patch(`/api/accounts/${account.id}`).set(admin()).send({ status: 'disabled' }).expect(200);
    const response = await chat(token.key).expect(401);
    expect(response.body.error).toMatchObject({ type: 'authentication_error', code: 'account_disabled' });
  });

  it('a refunded reservation leaves quota_used where it was', async () => {
    const { account, token } = await accountWithToken(1_000_000);
    for (let i = 0; i < 3; i++) await chat(token.key).expect(404);
    await relay.services.recorder.flush();
    expect((await relay.storage.accounts.get(account.id))?.quotaUsed).toBe(0);
    expect((await relay.storage.tokens.get(token.id))?.quotaUsed).toBe(0);
  });
});
