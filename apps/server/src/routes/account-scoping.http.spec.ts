import request from 'supertest';
import type { TokenCreated } from '@chat-relay/contract';
import { bearer, createAccount, createToken, usageEntry, type AccountCreated } from '../../test/testing/system-api';
import { createTestRelay, type TestRelay } from '../../test/testing/test-relay';

/** An account's access key reaches only its own tokens, assistants, logs and usage (SPEC §4). */
describe('account key scoping', () => {
  let relay: TestRelay;
  let alice: AccountCreated;
  let bob: AccountCreated;
  let aliceToken: TokenCreated;
  let bobToken: TokenCreated;
  const asAlice = () => bearer(alice.access_key);
  const admin = () => bearer(relay.adminKey);

  beforeEach(async () => {
    relay = await createTestRelay();
    alice = await createAccount(relay, { name: 'alice' });
    bob = await createAccount(relay, { name: 'bob' });
    aliceToken = await createToken(relay, { name: 'shared-name a' }, alice.access_key);
    bobToken = await createToken(relay, { name: 'shared-name b' }, bob.access_key);
  });
  afterEach(() => relay.close());

  it('creates tokens for itself; naming another account is 403, naming its own is fine', async () => {
    expect(aliceToken.account_id).toBe(alice.id);
    const forBob = await request(relay.app).post('/api/tokens').set(asAlice()).send({ name: 'x', account_id: bob.id }).expect(403);
    expect(forBob.body.error).toMatchObject({ type: 'permission_error', code: 'account_forbidden' });
    expect((await createToken(relay, { name: 'own', account_id: alice.id }, alice.access_key)).account_id).toBe(alice.id);
    expect((await relay.storage.tokens.list({ page: 1, perPage: 100, now: '', accountId: bob.id })).total).toBe(1);
  });

  it('lists and searches only its own tokens; filtering on another account is 403', async () => {
    const listed = await request(relay.app).get('/api/tokens').set(asAlice()).expect(200);
    expect(listed.body).toMatchObject({ total: 1, data: [{ id: aliceToken.id }] });
    const found = await request(relay.app).get('/api/tokens/search?q=shared-name').set(asAlice()).expect(200);
    expect(found.body).toMatchObject({ total: 1, data: [{ id: aliceToken.id }] });
    await request(relay.app).get(`/api/tokens?account_id=${alice.id}`).set(asAlice()).expect(200);
    const other = await request(relay.app).get(`/api/tokens?account_id=${bob.id}`).set(asAlice()).expect(403);
    expect(other.body.error.code).toBe('account_forbidden');
    expect((await request(relay.app).get('/api/tokens').set(admin()).expect(200)).body.total).toBe(2);
  });

  it("another account's token answers 404 to get, patch, delete and usage, and is left untouched", async () => {
    for (const call of [
      request(relay.app).get(`/api/tokens/${bobToken.id}`),
      request(relay.app).patch(`/api/tokens/${bobToken.id}`).send({ status: 'disabled' }),
      request(relay.app).delete(`/api/tokens/${bobToken.id}`),
      request(relay.app).get(`/api/tokens/${bobToken.id}/usage`),
    ]) {
      const response = await call.set(asAlice()).expect(404);
      // The same answer as for a token that does not exist at all.
      expect(response.body.error).toMatchObject({ code: 'token_not_found', message: `No token with id ${bobToken.id}.` });
    }
    expect(await relay.storage.tokens.get(bobToken.id)).toMatchObject({ status: 'active', name: 'shared-name b' });
    await request(relay.app).get('/api/account').set(bearer(bobToken.key)).expect(200);
    await request(relay.app).patch(`/api/tokens/${aliceToken.id}`).set(asAlice()).send({ name: 'mine' }).expect(200);
    await request(relay.app).get(`/api/tokens/${aliceToken.id}/usage`).set(asAlice()).expect(200);
  });

  it("a batch reports another account's tokens not_found and leaves them alone", async () => {
    for (const action of ['disable', 'delete'] as const) {
      const { body } = await request(relay.app)
        .post('/api/tokens/batch')
        .set(asAlice())
        .send({ ids: [bobToken.id], action })
        .expect(200);
      expect(body.results).toEqual([{ id: bobToken.id, status: 'not_found' }]);
    }
    const mixed = await request(relay.app)
      .post('/api/tokens/batch')
      .set(asAlice())
      .send({ ids: [aliceToken.id, bobToken.id], action: 'update', update: { quota_limit: 1 } })
      .expect(200);
    expect(mixed.body.results.map((result: { status: string }) => result.status)).toEqual(['ok', 'not_found']);
    expect(await relay.storage.tokens.get(bobToken.id)).toMatchObject({ status: 'active', quotaLimit: null });
    expect((await relay.storage.tokens.get(aliceToken.id))?.quotaLimit).toBe(1);
  });

  it('sees only its own log entries, whatever it filters on', async () => {
    await relay.storage.usageLog.insertBatch([
      usageEntry({ tokenId: aliceToken.id, accountId: alice.id, requestId: 'req-alice' }),
      usageEntry({ tokenId: bobToken.id, accountId: bob.id, requestId: 'req-bob' }),
    ]);
    const own = await request(relay.app).get('/api/logs').set(asAlice()).expect(200);
    expect(own.body.data.map((entry: { request_id: string }) => entry.request_id)).toEqual(['req-alice']);
    const byBobsToken = await request(relay.app).get(`/api/logs?token_id=${bobToken.id}`).set(asAlice()).expect(200);
    expect(byBobsToken.body).toMatchObject({ total: 0, data: [] });
    const byBob = await request(relay.app).get(`/api/logs?account_id=${bob.id}`).set(asAlice()).expect(403);
    expect(byBob.body.error.code).toBe('account_forbidden');
    expect((await request(relay.app).get(`/api/logs?account_id=${bob.id}`).set(admin()).expect(200)).body.total).toBe(1);
    expect((await request(relay.app).get('/api/logs').set(admin()).expect(200)).body.total).toBe(2);
  });

  it('cannot reach accounts, channels or prices', async () => {
    for (const path of ['/api/accounts', `/api/accounts/${alice.id}`, '/api/channels', '/api/prices']) {
      const response = await request(relay.app).get(path).set(asAlice()).expect(403);
      expect(response.body.error.code).toBe('admin_key_required');
    }
    await request(relay.app).patch(`/api/accounts/${alice.id}`).set(asAlice()).send({ quota_limit: null }).expect(403);
  });

  it('an API token reaches neither tokens, assistants nor logs', async () => {
    for (const path of ['/api/tokens', `/api/tokens/${aliceToken.id}`, '/api/assistants', '/api/logs']) {
      const response = await request(relay.app).get(path).set(bearer(aliceToken.key)).expect(403);
      expect(response.body.error).toMatchObject({ type: 'permission_error', code: 'management_key_required' });
    }
    await request(relay.app).post('/api/tokens').set(bearer(aliceToken.key)).send({ name: 'x' }).expect(403);
  });
});

describe('assistant scoping', () => {
  let relay: TestRelay;
  let alice: AccountCreated;
  let bob: AccountCreated;
  const create = (key: string, body: object) => request(relay.app).post('/api/assistants').set(bearer(key)).send(body).expect(201);

  beforeEach(async () => {
    relay = await createTestRelay();
    alice = await createAccount(relay, { name: 'alice' });
    bob = await createAccount(relay, { name: 'bob' });
    await create(alice.access_key, { id: 'g-alice', name: 'A' });
    await create(bob.access_key, { id: 'g-bob', name: 'B' });
    // Published by the admin (only the admin publishes: issue 26).
    await request(relay.app).patch(`/api/assistants/g-bob?account_id=${bob.id}`).set(bearer(relay.adminKey)).send({ visibility: 'public' }).expect(200);
  });
  afterEach(() => relay.close());

  it('an account key creates assistants owned by itself and lists only its own', async () => {
    expect((await relay.storage.assistants.getOwned(alice.id, 'g-alice'))?.accountId).toBe(alice.id);
    const listed = await request(relay.app).get('/api/assistants').set(bearer(alice.access_key)).expect(200);
    expect(listed.body).toMatchObject({ total: 1, data: [{ id: 'g-alice', account_id: alice.id }] });
    const all = await request(relay.app).get('/api/assistants').set(bearer(relay.adminKey)).expect(200);
    expect(all.body.data.map((assistant: { id: string }) => assistant.id).sort()).toEqual(['g-alice', 'g-bob']);
    await request(relay.app).get('/api/assistants?page=2').set(bearer(alice.access_key)).expect(400);
  });

  it("another account's assistant, even a public one, answers 404 to get, patch and delete", async () => {
    const key = bearer(alice.access_key);
    await request(relay.app).get('/api/assistants/g-bob').set(key).expect(404);
    await request(relay.app).patch('/api/assistants/g-bob').set(key).send({ name: 'hijacked' }).expect(404);
    const deleted = await request(relay.app).delete('/api/assistants/g-bob').set(key).expect(404);
    expect(deleted.body.error.code).toBe('assistant_not_found');
    expect(await relay.storage.assistants.getOwned(bob.id, 'g-bob')).toMatchObject({ name: 'B' });

    await request(relay.app).patch('/api/assistants/g-alice').set(key).send({ name: 'A2' }).expect(200);
    await request(relay.app).get('/api/assistants/g-bob').set(bearer(relay.adminKey)).expect(200);
    await request(relay.app).delete('/api/assistants/g-alice').set(bearer(relay.adminKey)).expect(204);
  });
});
