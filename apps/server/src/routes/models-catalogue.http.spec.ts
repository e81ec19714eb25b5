import request from 'supertest';
import { AnthropicModelListSchema, ModelListSchema, ModelSchema } from '@chat-relay/contract';
import { bearer, createToken } from '../../test/testing/system-api';
import { createTestRelay, type TestRelay } from '../../test/testing/test-relay';

/** GET /v1/models shows what the model catalogue knows where a client can use it (issue 28). */
describe('GET /v1/models with the catalogue', () => {
  let relay: TestRelay;
  let key: string;

  beforeEach(async () => {
    relay = await createTestRelay();
    await request(relay.app)
      .post('/api/channels')
      .set(bearer(relay.adminKey))
      .send({
        name: 'main',
        type: 'openai',
        base_url: 'http://127.0.0.1:9/v1',
        keys: ['sk-upstream'],
        models: ['gpt-4o', 'gpt-5', 'house-model'],
        model_mapping: { 'claude-cheap': 'gpt-4o' },
      })
      .expect(201);
    key = (await createToken(relay, { name: 't' })).key;
  });
  afterEach(() => relay.close());

  const listed = async () => {
    const list = ModelListSchema.strict().parse((await request(relay.app).get('/v1/models').set(bearer(key)).expect(200)).body);
    return new Map(list.data.map((model) => [model.id, model]));
  };

  it('adds the context window, output limit and price per million tokens, only when known', async () => {
    const models = await listed();
    // Priced by the price table (the seeded `gpt-4o*` entry: 2.5 / 10, cache reads 1.25).
    expect(models.get('gpt-4o')).toMatchObject({ context_window: 128_000, max_output_tokens: 16_384, pricing: { input: 2.5, output: 10, cache_read: 1.25 } });
    // The table has no gpt-5: the catalogue's list price.
    expect(models.get('gpt-5')).toMatchObject({ context_window: 400_000, max_output_tokens: 128_000, pricing: { input: 1.25, output: 10, cache_read: 0.125 } });
    // An alias is described as the model it is sent as.
    expect(models.get('claude-cheap')).toMatchObject({ context_window: 128_000, max_output_tokens: 16_384, pricing: { input: 2.5, output: 10 } });
    // Nothing known: none of the fields, not nulls.
    const house = models.get('house-model');
    expect(house && Object.keys(house).sort()).toEqual(['created', 'endpoints', 'id', 'object', 'owned_by']);
    for (const model of models.values()) ModelSchema.strict().parse(model);
  });

  it('follows an override and the price table at once, and describes one model the same way', async () => {
    await request(relay.app).put('/api/catalogue/overrides/house-model').set(bearer(relay.adminKey)).send({ context_window: 8192, cost: { input: 0.1, output: 0.2 } }).expect(201);
    await request(relay.app)
      .put('/api/prices')
      .set(bearer(relay.adminKey))
      .send({ data: [{ model: 'claude-cheap', input: 1_000_000, output: 3_000_000 }] })
      .expect(200);
    const models = await listed();
    expect(models.get('house-model')).toMatchObject({ context_window: 8192, pricing: { input: 0.1, output: 0.2 } });
    expect(models.get('house-model')?.max_output_tokens).toBeUndefined();
    // The operator priced the alias itself: that price applies; gpt-4o lost its table price, so its list price shows.
    expect(models.get('claude-cheap')?.pricing).toEqual({ input: 1, output: 3 });
    expect(models.get('gpt-4o')?.pricing).toEqual({ input: 2.5, output: 10, cache_read: 1.25 });
    const one = ModelSchema.parse((await request(relay.app).get('/v1/models/house-model').set(bearer(key)).expect(200)).body);
    expect(one).toMatchObject({ id: 'house-model', context_window: 8192, pricing: { input: 0.1, output: 0.2 } });
  });

  it('shows the same on the self-service model list (GET /api/models)', async () => {
    const list = ModelListSchema.parse((await request(relay.app).get('/api/models').set(bearer(key)).expect(200)).body);
    expect(list.data.find((model) => model.id === 'gpt-5')).toMatchObject({ context_window: 400_000, pricing: { input: 1.25, output: 10 } });
    expect(list.data.find((model) => model.id === 'house-model')?.pricing).toBeUndefined();
  });

  it("leaves Anthropic's shape as Anthropic's: no limits, no prices", async () => {
    const page = (await request(relay.app).get('/v1/models?limit=100').set(bearer(key)).set('anthropic-version', '2023-06-01').expect(200)).body;
    const parsed = AnthropicModelListSchema.parse(page);
    expect(parsed.data.length).toBeGreaterThan(0);
    for (const model of page.data) expect(Object.keys(model).sort()).toEqual(['created_at', 'display_name', 'id', 'type']);
    const one = (await request(relay.app).get('/v1/models/gpt-4o').set(bearer(key)).set('anthropic-version', '2023-06-01').expect(200)).body;
    expect(one.context_window).toBeUndefined();
  });
});
