import request from 'supertest';
import { TokenCreatedSchema, TokenPageSchema, TokenSchema } from '@chat-relay/contract';
import { digestKey } from '../security/keys';
import { createTestRelay, type TestRelay } from '../../test/testing/test-relay';

describe('token admin API', () => {
  let relay: TestRelay;
  const admin = () => ({ authorization: `Bearer ${relay.adminKey}` });

  beforeEach(async () => {
    relay = await createTestRelay();
  });
  afterEach(() => relay.close());

  it('creates a token whose key is shown once and stored only as a digest', async () => {
    const created = await request(relay.app).post('/api/tokens').set(admin()).send({ name: 'app' }).expect(201);
    const token = TokenCreatedSchema.parse(created.body);
    expect(token.key).toMatch(/^sk-[0-9A-Za-z]{48}$/);
    expect(token.key_hint).toBe(`...${token.key.slice(-4)}`);
    expect(token).toMatchObject({ name: 'app', status: 'active', quota_used: 0, models: null, last_used_at: null });

    const fetched = await request(relay.app).get(`/api/tokens/${token.id}`).set(admin()).expect(200);
    expect(fetched.body.key).toBeUndefined();
    expect(TokenSchema.parse(fetched.body).id).toBe(token.id);
    const stored = await relay.storage.tokens.findByKeyDigest(digestKey(token.key));
    expect(stored?.id).toBe(token.id);
  });

  it('generates a different key every time', async () => {
    const keys = new Set<string>();
    for (let i = 0; i < 5; i++) {
      const { body } = await request(relay.app).post('/api/tokens').set(admin()).send({ name: `t${i}` }).expect(201);
      keys.add(body.key);
    }
    expect(keys.size).toBe(5);
  });

  it('lists with pagination and a status filter', async () => {
    for (let i = 0; i < 3; i++) await request(relay.app).post('/api/tokens').set(admin()).send({ name: `t${i}` });
    const page = TokenPageSchema.parse(
      (await request(relay.app).get('/api/tokens?page=2&per_page=2').set(admin()).expect(200)).body,
    );
    expect(page).toMatchObject({ total: 3, page: 2, per_page: 2 });
    expect(page.data.map((token) => token.name)).toEqual(['t2']);
    const disabled = await request(relay.app).get('/api/tokens?status=disabled').set(admin()).expect(200);
    expect(disabled.body).toMatchObject({ total: 0, data: [] });
    const bad = await request(relay.app).get('/api/tokens?status=sleepy').set(admin()).expect(400);
    expect(bad.body.error.param).toBe('status');
  });

  it('deletes a token, after which its key no longer works', async () => {
    const { body: token } = await request(relay.app).post('/api/tokens').set(admin()).send({ name: 'gone' });
    await request(relay.app).get('/v1/models').set('authorization', `Bearer ${token.key}`).expect(200);
    await request(relay.app).delete(`/api/tokens/${token.id}`).set(admin()).expect(204);
    await request(relay.app).delete(`/api/tokens/${token.id}`).set(admin()).expect(404);
    const denied = await request(relay.app).get('/v1/models').set('authorization', `Bearer ${token.key}`).expect(401);
    expect(denied.body.error.code).toBe('invalid_api_key');
  });

  it('rejects unknown fields and a missing name', async () => {
    const unknown = await request(relay.app).post('/api/tokens').set(admin()).send({ name: 'x', quota: 5 }).expect(400);
    expect(unknown.body.error).toMatchObject({ param: 'quota', type: 'invalid_request_error' });
    const missing = await request(relay.app).post('/api/tokens').set(admin()).send({}).expect(400);
    expect(missing.body.error).toMatchObject({ param: 'name', code: 'missing_required_parameter' });
  });
});
