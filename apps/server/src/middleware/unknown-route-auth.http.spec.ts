import request from 'supertest';
import { ErrorResponseSchema } from '@chat-relay/contract';
import { bearer, createToken } from '../../test/testing/system-api';
import { createTestRelay, type TestRelay } from '../../test/testing/test-relay';

/**
 * Issue 11: an unknown `/v1/...` path answered 404 to a caller with no key, telling anybody which
 * routes exist. Authentication comes before routing: 401 without a valid key, 404 with one.
 */
describe('issue 11: authentication before routing', () => {
  let relay: TestRelay;
  let key: string;

  beforeAll(async () => {
    relay = await createTestRelay();
    key = (await createToken(relay, { name: 'app' })).key;
  });
  afterAll(() => relay.close());

  const codeOf = (body: unknown) => ErrorResponseSchema.parse(body).error.code;

  it.each([
    ['get', '/v1/unknown'],
    ['post', '/v1/nothing/here'],
    ['get', '/v1/chat/completions'],
    ['delete', '/v1/models'],
  ] as const)('%s %s: 401 without a key, 401 with a bad one, 401 with the admin key, 404 with a token', async (method, path) => {
    expect(codeOf((await request(relay.app)[method](path).expect(401)).body)).toBe('invalid_api_key');
    expect(codeOf((await request(relay.app)[method](path).set(bearer('sk-wrong')).expect(401)).body)).toBe('invalid_api_key');
    await request(relay.app)[method](path).set(bearer(relay.adminKey)).expect(401);
    const found = await request(relay.app)[method](path).set(bearer(key)).expect(404);
    expect(codeOf(found.body)).toBe('unknown_url');
  });

  it('an unknown /api path: 401 without a key, 403 for an API token, 404 for the admin', async () => {
    await request(relay.app).get('/api/nothing').expect(401);
    await request(relay.app).get('/api/nothing').set(bearer(key)).expect(403);
    expect(codeOf((await request(relay.app).get('/api/nothing').set(bearer(relay.adminKey)).expect(404)).body)).toBe('unknown_url');
  });

  it('paths outside /v1 and /api stay 404 without a key', async () => {
    expect(codeOf((await request(relay.app).get('/nothing').expect(404)).body)).toBe('unknown_url');
    await request(relay.app).get('/healthz').expect(200);
  });
});
