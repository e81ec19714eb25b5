import request from 'supertest';
import { AnthropicErrorResponseSchema, ErrorResponseSchema } from '@chat-relay/contract';
import { createToken } from '../../test/testing/system-api';
import { createTestRelay, type TestRelay } from '../../test/testing/test-relay';

/**
 * Found by the fuzz suite: a request to an Anthropic path that no route matched — another method
 * (`GET /v1/messages`), a path beside the routes (`/v1/messages/batches`), or a model id that does
 * not decode (`GET /v1/models/%ff` with `anthropic-version`) — was answered in OpenAI's error
 * shape, which Anthropic's SDKs and Claude Code cannot read. Those answers are Anthropic's now.
 */
describe('Anthropic paths no route matched answer in Anthropic error shape', () => {
  let relay: TestRelay;
  let key: string;

  beforeAll(async () => {
    relay = await createTestRelay();
    key = (await createToken(relay, { name: 'claude code' })).key;
  });
  afterAll(() => relay.close());

  const anthropicError = (body: unknown) => AnthropicErrorResponseSchema.parse(body).error.type;

  it.each([
    ['get', '/v1/messages'],
    ['put', '/v1/messages/count_tokens'],
    ['post', '/v1/messages/batches'],
    ['get', '/V1/Messages/msg_01'],
  ] as const)('%s %s: 401 authentication_error without a key, 404 not_found_error with one, with a request-id', async (method, path) => {
    const refused = await request(relay.app)[method](path).expect(401);
    expect(anthropicError(refused.body)).toBe('authentication_error');
    expect(refused.body.error.message).toContain('x-api-key');
    const missing = await request(relay.app)[method](path).set('x-api-key', key).expect(404);
    expect(anthropicError(missing.body)).toBe('not_found_error');
    expect(missing.headers['request-id']).toBe(missing.body.request_id);
  });

  it('GET /v1/models/%ff: 400 invalid_request_error with anthropic-version, OpenAI shape without it', async () => {
    const anthropic = await request(relay.app).get('/v1/models/%ff').set('x-api-key', key).set('anthropic-version', '2023-06-01').expect(400);
    expect(anthropicError(anthropic.body)).toBe('invalid_request_error');
    const openai = await request(relay.app).get('/v1/models/%ff').set('authorization', `Bearer ${key}`).expect(400);
    expect(ErrorResponseSchema.parse(openai.body).error.code).toBe('invalid_url');
  });

  it('other unknown /v1 paths keep OpenAI shape, anthropic-version or not', async () => {
    const unknown = await request(relay.app).get('/v1/messagesx').set('x-api-key', key).set('anthropic-version', '2023-06-01').expect(404);
    expect(ErrorResponseSchema.parse(unknown.body).error.code).toBe('unknown_url');
  });
});
