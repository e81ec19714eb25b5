import request from 'supertest';
import { AnthropicErrorResponseSchema, AnthropicModelListSchema, ModelListSchema } from '@chat-relay/contract';
import { bearer, createToken } from '../../test/testing/system-api';
import { createTestRelay, type TestRelay } from '../../test/testing/test-relay';

/**
 * Issue 29 item 7: the Anthropic-shaped `GET /v1/models` (an `anthropic-version` caller, as
 * Claude Code and Anthropic's SDKs are) listed dall-e, tts, whisper and embedding models that
 * `/v1/messages` then refuses. It lists, and describes, the chat models only; OpenAI's shape
 * still lists everything with its endpoints.
 */
describe('GET /v1/models in Anthropic’s shape lists chat models only', () => {
  let relay: TestRelay;
  let key: string;
  const anthropic = { 'anthropic-version': '2023-06-01' };

  beforeAll(async () => {
    relay = await createTestRelay();
    await request(relay.app)
      .post('/api/channels')
      .set(bearer(relay.adminKey))
      .send({
        name: 'everything',
        type: 'openai',
        base_url: 'http://127.0.0.1:9/v1',
        keys: ['sk-upstream'],
        models: ['gpt-4o', 'dall-e-3', 'tts-1', 'whisper-1', 'text-embedding-3-small'],
      })
      .expect(201);
    key = (await createToken(relay, { name: 't' })).key;
  });
  afterAll(() => relay.close());

  it('leaves out image, speech, transcription and embedding models', async () => {
    const page = AnthropicModelListSchema.parse((await request(relay.app).get('/v1/models').set(bearer(key)).set(anthropic).expect(200)).body);
    expect(page.data.map((model) => model.id)).toEqual(['gpt-4o']);
    expect(page).toMatchObject({ has_more: false, first_id: 'gpt-4o', last_id: 'gpt-4o' });
  });

  it('answers 404 not_found_error for one of them, as /v1/messages would refuse it', async () => {
    const response = await request(relay.app).get('/v1/models/dall-e-3').set(bearer(key)).set(anthropic).expect(404);
    expect(AnthropicErrorResponseSchema.parse(response.body).error.type).toBe('not_found_error');
    await request(relay.app).get('/v1/models/gpt-4o').set(bearer(key)).set(anthropic).expect(200);
  });

  it('still lists them all in OpenAI’s shape, each with its endpoints', async () => {
    const list = ModelListSchema.parse((await request(relay.app).get('/v1/models').set(bearer(key)).expect(200)).body);
    expect(list.data.map((model) => model.id).sort()).toEqual(['dall-e-3', 'gpt-4o', 'text-embedding-3-small', 'tts-1', 'whisper-1']);
  });
});
