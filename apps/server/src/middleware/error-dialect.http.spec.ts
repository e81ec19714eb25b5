import request from 'supertest';
import { AnthropicErrorResponseSchema, ErrorResponseSchema } from '@chat-relay/contract';
import { bearer, createToken } from '../../test/testing/system-api';
import { createTestRelay, type TestRelay } from '../../test/testing/test-relay';

/**
 * The error shape follows the route's dialect: Anthropic's on the Messages routes, Anthropic's on
 * the shared model list only when `anthropic-version` is sent, OpenAI's everywhere else.
 */
describe('errors in the caller dialect', () => {
  let relay: TestRelay;
  let key: string;

  beforeAll(async () => {
    relay = await createTestRelay();
    key = (await createToken(relay, { name: 'app' })).key;
  });
  afterAll(() => relay.close());

  const version = { 'anthropic-version': '2023-06-01' };

  /** An Anthropic error body, its `request_id` the `request-id` header, which is the request's id. */
  function anthropicError(response: request.Response) {
    const body = AnthropicErrorResponseSchema.parse(response.body);
    expect(Object.keys(response.body as object).sort()).toEqual(['error', 'request_id', 'type']);
    expect(response.headers['request-id']).toBe(response.headers['x-request-id']);
    expect(body.request_id).toBe(response.headers['request-id']);
    return body.error;
  }

  function openAiError(response: request.Response) {
    expect(response.body).not.toHaveProperty('type');
    expect(response.headers['request-id']).toBeUndefined();
    return ErrorResponseSchema.parse(response.body).error;
  }

  describe('/v1/messages', () => {
    it('401 without a key', async () => {
      const response = await request(relay.app).post('/v1/messages').send({}).expect(401);
      expect(anthropicError(response).type).toBe('authentication_error');
    });

    it('400 for a request that does not validate, with or without anthropic-version', async () => {
      for (const headers of [{}, version]) {
        const response = await request(relay.app)
          .post('/v1/messages')
          .set({ ...bearer(key), ...headers })
          .send({ model: 'claude-sonnet-4-5', messages: [{ role: 'user', content: 'Hi' }] })
          .expect(400);
        expect(anthropicError(response)).toMatchObject({ type: 'invalid_request_error', message: expect.stringContaining('max_tokens') });
      }
    });

    it('400 for a body that is not JSON', async () => {
      const response = await request(relay.app)
        .post('/v1/messages')
        .set({ ...bearer(key), 'content-type': 'application/json' })
        .send('{"model":')
        .expect(400);
      expect(anthropicError(response).type).toBe('invalid_request_error');
    });

    it('404 not_found_error for a model no channel serves, on count_tokens too', async () => {
      const body = { model: 'claude-nowhere', max_tokens: 8, messages: [{ role: 'user', content: 'Hi' }] };
      expect(anthropicError(await request(relay.app).post('/v1/messages').set(bearer(key)).send(body).expect(404)).type).toBe('not_found_error');
      const { max_tokens: _unused, ...count } = body;
      const counted = await request(relay.app).post('/v1/messages/count_tokens').set(bearer(key)).send(count).expect(404);
      expect(anthropicError(counted).type).toBe('not_found_error');
    });
  });

  describe('/v1/models', () => {
    it('OpenAI-shaped without anthropic-version', async () => {
      expect(openAiError(await request(relay.app).get('/v1/models').expect(401)).code).toBe('invalid_api_key');
      expect(openAiError(await request(relay.app).get('/v1/models/claude-nowhere').set(bearer(key)).expect(404)).code).toBe('model_not_found');
    });

    it('Anthropic-shaped with anthropic-version', async () => {
      expect(anthropicError(await request(relay.app).get('/v1/models').set(version).expect(401)).type).toBe('authentication_error');
      const missing = await request(relay.app).get('/v1/models/claude-nowhere').set({ ...bearer(key), ...version }).expect(404);
      expect(anthropicError(missing).type).toBe('not_found_error');
      const badLimit = await request(relay.app).get('/v1/models?limit=0').set({ ...bearer(key), ...version }).expect(400);
      expect(anthropicError(badLimit)).toMatchObject({ type: 'invalid_request_error', message: expect.stringContaining('limit') });
    });

    it('pages in Anthropic shape with anthropic-version, lists in OpenAI shape without', async () => {
      expect((await request(relay.app).get('/v1/models').set({ ...bearer(key), ...version }).expect(200)).body).toEqual({
        data: [],
        has_more: false,
        first_id: null,
        last_id: null,
      });
      expect((await request(relay.app).get('/v1/models').set(bearer(key)).expect(200)).body).toEqual({ object: 'list', data: [] });
    });
  });

  describe('/v1/chat/completions', () => {
    it('always OpenAI-shaped, anthropic-version or not', async () => {
      for (const headers of [{}, version]) {
        expect(openAiError(await request(relay.app).post('/v1/chat/completions').set(headers).send({}).expect(401)).code).toBe('invalid_api_key');
        const invalid = await request(relay.app).post('/v1/chat/completions').set({ ...bearer(key), ...headers }).send({ model: 'gpt-4o' }).expect(400);
        expect(openAiError(invalid).param).toBe('messages');
        const missing = await request(relay.app)
          .post('/v1/chat/completions')
          .set({ ...bearer(key), ...headers })
          .send({ model: 'gpt-nowhere', messages: [{ role: 'user', content: 'Hi' }] })
          .expect(404);
        expect(openAiError(missing).code).toBe('model_not_found');
      }
    });
  });

  it('an unknown /v1 path is OpenAI-shaped, anthropic-version or not', async () => {
    expect(openAiError(await request(relay.app).get('/v1/nothing').set({ ...bearer(key), ...version }).expect(404)).code).toBe('unknown_url');
  });
});
