import request from 'supertest';
import { SunoErrorResponseSchema } from '@chat-relay/contract';
import { bearer, createToken } from '../../test/testing/system-api';
import { createTestRelay, type TestRelay } from '../../test/testing/test-relay';

/**
 * Issue 17: the Suno-style routes answer errors as new-api does (`{code, message, data: null}`
 * with the relay's status), read the key from `Authorization: Bearer` only, and say so for paths
 * under `/suno` no route has.
 */
describe('errors and auth of the Suno-style routes', () => {
  let relay: TestRelay;
  let key: string;

  beforeAll(async () => {
    relay = await createTestRelay();
    key = (await createToken(relay, { name: 'music app' })).key;
  });
  afterAll(() => relay.close());

  /** new-api's task error and nothing else, with the request's id in `x-request-id`. */
  function sunoError(response: request.Response) {
    expect(Object.keys(response.body as object).sort()).toEqual(['code', 'data', 'message']);
    expect(response.headers['x-request-id']).toMatch(/\S/);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    return SunoErrorResponseSchema.parse(response.body);
  }

  it('401 without a key, and with the key only in x-api-key (Bearer only)', async () => {
    const missing = sunoError(await request(relay.app).post('/suno/submit/music').send({ prompt: 'a song' }).expect(401));
    expect(missing).toEqual({ code: 'invalid_api_key', message: expect.stringContaining('Authorization: Bearer'), data: null });

    const apiKeyHeader = await request(relay.app).post('/suno/fetch').set('x-api-key', key).send({ ids: [] }).expect(401);
    expect(sunoError(apiKeyHeader).code).toBe('invalid_api_key');

    const wrongKey = await request(relay.app).get('/suno/fetch/task-1').set(bearer('sk-not-a-token')).expect(401);
    expect(sunoError(wrongKey)).toEqual({ code: 'invalid_api_key', message: 'Incorrect API key provided.', data: null });
  });

  it('400 for an action that is not music or lyrics, naming it', async () => {
    const response = await request(relay.app).post('/suno/submit/nope').set(bearer(key)).send({ prompt: 'a song' }).expect(400);
    expect(sunoError(response)).toEqual({ code: 'invalid_value', message: expect.stringMatching(/^Invalid value for 'action': .*'nope'/), data: null });
  });

  it('400 for a body that does not validate, and for one that is not JSON', async () => {
    const badField = await request(relay.app).post('/suno/submit/music').set(bearer(key)).send({ prompt: 42 }).expect(400);
    expect(sunoError(badField)).toEqual({ code: 'invalid_value', message: expect.stringContaining("'prompt'"), data: null });

    const badIds = await request(relay.app).post('/suno/fetch').set(bearer(key)).send({ ids: 'task-1' }).expect(400);
    expect(sunoError(badIds).message).toContain("'ids'");

    const notJson = await request(relay.app).post('/suno/fetch').set(bearer(key)).set('content-type', 'application/json').send('{"ids": [').expect(400);
    expect(sunoError(notJson).code).toBe('invalid_json');
  });

  it('a path under /suno no route has: 401 without a key, then 404, both in the suno shape', async () => {
    expect(sunoError(await request(relay.app).get('/suno/nothing-here').expect(401)).code).toBe('invalid_api_key');
    const unknown = await request(relay.app).get('/suno/nothing-here').set(bearer(key)).expect(404);
    expect(sunoError(unknown)).toEqual({ code: 'unknown_url', message: 'Unknown request URL: GET /suno/nothing-here.', data: null });
  });

  it('other routes keep their own shape', async () => {
    const openai = await request(relay.app).post('/v1/search').send({ query: 'x' }).expect(401);
    expect(openai.body).toMatchObject({ error: { code: 'invalid_api_key' } });
  });
});
