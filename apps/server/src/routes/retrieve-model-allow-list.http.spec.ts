import { AnthropicErrorResponseSchema, ErrorResponseSchema } from '@chat-relay/contract';
import request from 'supertest';
import { closedPort } from '../../test/testing/closed-port';
import { patchToken } from '../../test/testing/patch-token';
import { bearer, createToken } from '../../test/testing/system-api';
import { createTestRelay, type TestRelay } from '../../test/testing/test-relay';

/**
 * Issue 26: `GET /v1/models/{id}` answered 200 for a model the token's allow-list excludes,
 * although the model list hides it. Like OpenAI for a model a key cannot use: 404
 * model_not_found, in the shape the route negotiates (Anthropic's with `anthropic-version`).
 */
describe('GET /v1/models/{id} and the token allow-list', () => {
  let relay: TestRelay;
  let key: string;

  beforeAll(async () => {
    relay = await createTestRelay();
    await request(relay.app)
      .post('/api/channels')
      .set(bearer(relay.adminKey))
      .send({ name: 'c', type: 'openai', base_url: `http://127.0.0.1:${await closedPort()}/v1`, keys: ['sk-x'], models: ['gpt-4o', 'gpt-4o-mini'] })
      .expect(201);
    const token = await createToken(relay, { name: 'mini only' });
    await patchToken(relay, token.id, { models: ['gpt-4o-mini'] });
    key = token.key;
  });
  afterAll(() => relay.close());

  it('a model the allow-list admits is described', async () => {
    const response = await request(relay.app).get('/v1/models/gpt-4o-mini').set(bearer(key)).expect(200);
    expect(response.body).toMatchObject({ id: 'gpt-4o-mini', object: 'model' });
  });

  it('a model it excludes is 404 model_not_found, as the list hides it', async () => {
    const list = await request(relay.app).get('/v1/models').set(bearer(key)).expect(200);
    expect((list.body as { data: Array<{ id: string }> }).data.map((model) => model.id)).toEqual(['gpt-4o-mini']);
    const response = await request(relay.app).get('/v1/models/gpt-4o').set(bearer(key)).expect(404);
    expect(ErrorResponseSchema.parse(response.body).error).toMatchObject({ type: 'invalid_request_error', code: 'model_not_found', param: 'model' });
  });

  it('in Anthropic shape when the request carries anthropic-version', async () => {
    const response = await request(relay.app).get('/v1/models/gpt-4o').set({ ...bearer(key), 'anthropic-version': '2023-06-01' }).expect(404);
    expect(AnthropicErrorResponseSchema.parse(response.body).error.type).toBe('not_found_error');
  });
});
