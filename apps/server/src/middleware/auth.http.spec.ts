import request from 'supertest';
import { ErrorResponseSchema } from '@chat-relay/contract';
import { createTestRelay, type TestRelay } from '../../test/testing/test-relay';

describe('authentication', () => {
  let relay: TestRelay;
  let tokenKey: string;

  beforeAll(async () => {
    relay = await createTestRelay();
    const { body } = await request(relay.app)
      .post('/api/tokens')
      .set('authorization', `Bearer ${relay.adminKey}`)
      .send({ name: 'app' });
    tokenKey = body.key;
  });
  afterAll(() => relay.close());

  const expectError = (body: unknown, status: number, code: string) => {
    const { error } = ErrorResponseSchema.parse(body);
    expect(error.code).toBe(code);
    return error;
  };

  it('401 without a key, in the OpenAI shape', async () => {
    const response = await request(relay.app).get('/v1/models').expect(401);
    expect(expectError(response.body, 401, 'invalid_api_key').type).toBe('authentication_error');
  });

  it.each(['Basic abc', 'Bearer', 'Bearer    ', 'sk-abc'])('401 for a malformed header %p', async (header) => {
    const response = await request(relay.app).get('/v1/models').set('authorization', header).expect(401);
    expectError(response.body, 401, 'invalid_api_key');
  });

  it('401 for an unknown key, without echoing it', async () => {
    const key = 'sk-000000000000000000000000000000000000000000000000';
    const response = await request(relay.app).get('/v1/models').set('authorization', `Bearer ${key}`).expect(401);
    expectError(response.body, 401, 'invalid_api_key');
    expect(JSON.stringify(response.body)).not.toContain(key);
  });

  it('never reads the key from the query string or the body', async () => {
    await request(relay.app).get(`/v1/models?api_key=${tokenKey}`).expect(401);
    await request(relay.app)
      .post('/v1/chat/completions')
      .send({ api_key: tokenKey, model: 'm', messages: [{ role: 'user', content: 'x' }] })
      .expect(401);
  });

  it('an API token may not call management routes (403), the admin key may', async () => {
    const response = await request(relay.app).get('/api/tokens').set('authorization', `Bearer ${tokenKey}`).expect(403);
    expect(expectError(response.body, 403, 'management_key_required').type).toBe('permission_error');
    await request(relay.app).get('/api/tokens').set('authorization', `Bearer ${relay.adminKey}`).expect(200);
  });

  it('the admin key is not an API token', async () => {
    await request(relay.app).get('/v1/models').set('authorization', `Bearer ${relay.adminKey}`).expect(401);
  });

  it('answers 401 before reading a large body', async () => {
    const big = JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'x'.repeat(1_000_000) }] });
    const response = await request(relay.app)
      .post('/v1/chat/completions')
      .set('content-type', 'application/json')
      .send(big)
      .expect(401);
    expectError(response.body, 401, 'invalid_api_key');
  });

  it('a disabled token is refused with token_disabled; an expired one with token_expired', async () => {
    const { body: disabled } = await request(relay.app)
      .post('/api/tokens')
      .set('authorization', `Bearer ${relay.adminKey}`)
      .send({ name: 'off' });
    const { body: expired } = await request(relay.app)
      .post('/api/tokens')
      .set('authorization', `Bearer ${relay.adminKey}`)
      .send({ name: 'old' });
    // The policy API arrives with the token-policy work; set the stored fields directly here.
    const db = (await import('better-sqlite3')).default;
    const handle = new db(`${relay.dataDir}/relay.db`);
    handle.prepare("UPDATE tokens SET status = 'disabled' WHERE id = ?").run(disabled.id);
    handle.prepare("UPDATE tokens SET expires_at = '2001-01-01T00:00:00.000Z' WHERE id = ?").run(expired.id);
    handle.close();

    const off = await request(relay.app).get('/v1/models').set('authorization', `Bearer ${disabled.key}`).expect(401);
    expectError(off.body, 401, 'token_disabled');
    const old = await request(relay.app).get('/v1/models').set('authorization', `Bearer ${expired.key}`).expect(401);
    expectError(old.body, 401, 'token_expired');
    const shown = await request(relay.app)
      .get(`/api/tokens/${expired.id}`)
      .set('authorization', `Bearer ${relay.adminKey}`)
      .expect(200);
    expect(shown.body.status).toBe('expired');
  });

  it('open routes need no key', async () => {
    await request(relay.app).get('/healthz').expect(200);
    const openapi = await request(relay.app).get('/openapi.json').expect(200);
    expect(openapi.body.paths['/v1/chat/completions']).toBeDefined();
  });
});
