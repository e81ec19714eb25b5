import request from 'supertest';
import { ChannelSchema, ErrorResponseSchema, ModelListSchema } from '@chat-relay/contract';
import { bearer, createToken } from '../../test/testing/system-api';
import { createTestRelay, type TestRelay } from '../../test/testing/test-relay';

const tavily = { name: 'tavily', type: 'tavily', base_url: 'https://api.tavily.com', keys: ['tvly-secret-0123'], models: ['tavily-search'] };
const openai = { name: 'openai', type: 'openai', base_url: 'http://127.0.0.1:9/v1', keys: ['sk-secret-0123'], models: ['gpt-4o'] };

/** Issue 17: a channel's endpoints stay within what its type can serve (CHANNEL_TYPE_ENDPOINTS). */
describe('channel endpoints within what the type can serve', () => {
  let relay: TestRelay;
  const admin = () => bearer(relay.adminKey);
  const create = (body: object) => request(relay.app).post('/api/channels').set(admin()).send(body);
  const patch = (id: number, body: object) => request(relay.app).patch(`/api/channels/${id}`).set(admin()).send(body);
  const refusal = (body: unknown) => ErrorResponseSchema.parse(body).error;

  beforeEach(async () => {
    relay = await createTestRelay();
  });
  afterEach(() => relay.close());

  it('refuses a search channel serving chat at create: 400 naming endpoints and what the type serves', async () => {
    const refused = await create({ ...tavily, endpoints: ['search', 'chat'] }).expect(400);
    expect(refused.headers['x-request-id']).toBeTruthy();
    expect(refusal(refused.body)).toEqual({
      message: "Invalid value for 'endpoints': a tavily channel can serve only search; chat is not among them",
      type: 'invalid_request_error',
      param: 'endpoints',
      code: 'invalid_value',
    });
    expect((await request(relay.app).get('/api/channels').set(admin()).expect(200)).body.total).toBe(0);
  });

  it('creates each new type with its defaults: search for tavily and searxng, music for suno', async () => {
    for (const [type, endpoints] of [['tavily', ['search']], ['searxng', ['search']], ['suno', ['music']]] as const) {
      const created = ChannelSchema.parse((await create({ ...tavily, name: type, type }).expect(201)).body);
      expect(created).toMatchObject({ type, endpoints, endpoints_default: true });
    }
  });

  it('refuses a PATCH of endpoints alone beyond the stored type, and of the type alone beyond the stored endpoints', async () => {
    const search = ChannelSchema.parse((await create(tavily).expect(201)).body);
    const chatOnly = refusal((await patch(search.id, { endpoints: ['chat'] }).expect(400)).body);
    expect(chatOnly).toMatchObject({ param: 'endpoints', code: 'invalid_value', message: "The endpoints do not fit the channel's type: a tavily channel can serve only search; chat is not among them." });

    const model = ChannelSchema.parse((await create({ ...openai, endpoints: ['chat', 'embeddings'] }).expect(201)).body);
    const retyped = refusal((await patch(model.id, { type: 'searxng' }).expect(400)).body);
    expect(retyped).toMatchObject({ param: 'endpoints', message: expect.stringMatching(/a searxng channel can serve only search; chat, embeddings are not among them\. Send endpoints with the type/) });
    expect(ChannelSchema.parse((await request(relay.app).get(`/api/channels/${model.id}`).set(admin()).expect(200)).body).type).toBe('openai');

    // Both in one body: the contract's check, the same 400.
    expect(refusal((await patch(model.id, { type: 'searxng', endpoints: ['chat'] }).expect(400)).body)).toMatchObject({ param: 'endpoints' });
  });

  it('takes a change of type with endpoints back to the defaults, and a type whose defaults fit', async () => {
    const model = ChannelSchema.parse((await create({ ...openai, endpoints: ['chat'] }).expect(201)).body);
    const retyped = await patch(model.id, { type: 'searxng', endpoints: null }).expect(200);
    expect(retyped.body).toMatchObject({ type: 'searxng', endpoints: ['search'], endpoints_default: true });
    const search = ChannelSchema.parse((await create(tavily).expect(201)).body);
    expect((await patch(search.id, { type: 'suno' }).expect(200)).body).toMatchObject({ type: 'suno', endpoints: ['music'] });
    expect((await patch(search.id, { endpoints: ['music'] }).expect(200)).body).toMatchObject({ endpoints: ['music'], endpoints_default: false });
  });

  it('lists search and music models in GET /v1/models with their endpoints, and no chat route reaches them', async () => {
    await create(tavily).expect(201);
    await create({ ...tavily, name: 'suno', type: 'suno', base_url: 'https://suno.example', models: ['suno_music'] }).expect(201);
    await create(openai).expect(201);
    const { key } = await createToken(relay, { name: 'lister' });

    const listed = ModelListSchema.parse((await request(relay.app).get('/v1/models').set(bearer(key)).expect(200)).body).data;
    expect(listed.map(({ id, owned_by, endpoints }) => ({ id, owned_by, endpoints }))).toEqual([
      { id: 'gpt-4o', owned_by: 'openai', endpoints: ['chat', 'completions', 'embeddings', 'moderations', 'images', 'audio_speech', 'audio_transcriptions', 'videos'] },
      { id: 'suno_music', owned_by: 'suno', endpoints: ['music'] },
      { id: 'tavily-search', owned_by: 'tavily', endpoints: ['search'] },
    ]);

    // Asked for chat, a search model is not routed to its channel (whose type has no chat adapter): a 404 naming where it is served.
    const chat = await request(relay.app)
      .post('/v1/chat/completions')
      .set(bearer(key))
      .send({ model: 'tavily-search', messages: [{ role: 'user', content: 'hi' }] })
      .expect(404);
    expect(refusal(chat.body)).toMatchObject({ code: 'model_not_found', message: expect.stringContaining('/v1/search') });
  });
});
