import request from 'supertest';
import { AnthropicErrorResponseSchema, ErrorResponseSchema } from '@chat-relay/contract';
import { bearer, createToken } from '../../test/testing/system-api';
import { createTestRelay, type TestRelay } from '../../test/testing/test-relay';

/**
 * `x-api-key` (what Anthropic's SDKs and Claude Code send) is a way to present an API token on
 * API-token routes; management routes take only `Authorization: Bearer`.
 */
describe('bearerAuth: x-api-key', () => {
  let relay: TestRelay;
  let key: string;

  beforeAll(async () => {
    relay = await createTestRelay();
    key = (await createToken(relay, { name: 'claude-code' })).key;
  });
  afterAll(() => relay.close());

  const apiKey = (value: string) => ({ 'x-api-key': value });
  const message = { model: 'claude-nowhere', max_tokens: 16, messages: [{ role: 'user', content: 'Hi' }] };

  it('accepts a token in x-api-key on GET /v1/models', async () => {
    const response = await request(relay.app).get('/v1/models').set(apiKey(key)).expect(200);
    expect(response.body).toEqual({ object: 'list', data: [] });
  });

  it('accepts a token in x-api-key on POST /v1/messages (the request gets as far as routing)', async () => {
    const response = await request(relay.app).post('/v1/messages').set(apiKey(key)).send(message).expect(404);
    expect(AnthropicErrorResponseSchema.parse(response.body).error).toEqual({
      type: 'not_found_error',
      message: "The model 'claude-nowhere' does not exist or you do not have access to it.",
    });
  });

  it('refuses an unknown key in x-api-key', async () => {
    const response = await request(relay.app).get('/v1/models').set(apiKey('sk-not-a-token-0000000000')).expect(401);
    expect(ErrorResponseSchema.parse(response.body).error.code).toBe('invalid_api_key');
  });

  it.each(['', '   '])('treats a blank x-api-key (%p) as no key', async (value) => {
    const response = await request(relay.app).get('/v1/models').set(apiKey(value)).expect(401);
    expect(ErrorResponseSchema.parse(response.body).error.message).toMatch(/didn't provide an API key/);
  });

  it('does not take x-api-key on management routes: the admin key there is 401, as Bearer 200', async () => {
    const response = await request(relay.app).get('/api/tokens').set(apiKey(relay.adminKey)).expect(401);
    expect(ErrorResponseSchema.parse(response.body).error.code).toBe('invalid_api_key');
    await request(relay.app).post('/api/tokens').set(apiKey(relay.adminKey)).send({ name: 'x' }).expect(401);
    await request(relay.app).get('/api/tokens').set(bearer(relay.adminKey)).expect(200);
  });

  it('Bearer wins when both are sent', async () => {
    await request(relay.app).get('/v1/models').set({ ...bearer(key), ...apiKey('sk-not-a-token-0000000000') }).expect(200);
    const response = await request(relay.app).get('/v1/models').set({ ...bearer('sk-not-a-token-0000000000'), ...apiKey(key) }).expect(401);
    expect(ErrorResponseSchema.parse(response.body).error.code).toBe('invalid_api_key');
  });

  it('without a key on /v1/messages, says in Anthropic shape to send x-api-key', async () => {
    const response = await request(relay.app).post('/v1/messages').send(message).expect(401);
    expect(AnthropicErrorResponseSchema.parse(response.body).error).toEqual({
      type: 'authentication_error',
      message: "You didn't provide an API key. Send it in an x-api-key header, or as Authorization: Bearer YOUR_KEY.",
    });
  });

  it('HEAD / answers 200 without a key (Claude Code checks its base URL so)', async () => {
    const response = await request(relay.app).head('/').expect(200);
    expect(response.headers['x-request-id']).toMatch(/^req_/);
  });
});
