import request from 'supertest';
import { AssistantPageSchema, AssistantSchema, AssistantWithUsageSchema } from '@chat-relay/contract';
import { createTestRelay, type TestRelay } from '../../test/testing/test-relay';

const pirate = {
  name: 'Pirate',
  description: 'Talks like a pirate',
  instructions: 'Answer like a pirate.',
  tools: [{ type: 'function', function: { name: 'find_treasure', parameters: { type: 'object', properties: {} } } }],
  temperature: 0.3,
  models: ['gpt-4o', 'gpt-4o-mini'],
  visibility: 'public',
};

describe('custom assistant admin API', () => {
  let relay: TestRelay;
  const admin = () => ({ authorization: `Bearer ${relay.adminKey}` });
  const create = (body: object) => request(relay.app).post('/api/assistants').set(admin()).send(body);

  beforeEach(async () => {
    relay = await createTestRelay();
  });
  afterEach(() => relay.close());

  it('creates with a generated g- id and defaults, and reads it back', async () => {
    const created = await create({ name: 'Plain' }).expect(201);
    const assistant = AssistantSchema.parse(created.body);
    expect(assistant.id).toMatch(/^g-[A-Za-z0-9]{10}$/);
    expect(assistant).toMatchObject({
      object: 'assistant',
      account_id: 1,
      description: '',
      instructions: '',
      tools: [],
      temperature: null,
      models: null,
      visibility: 'private',
    });
    const fetched = await request(relay.app).get(`/api/assistants/${assistant.id}`).set(admin()).expect(200);
    expect(AssistantWithUsageSchema.parse(fetched.body)).toMatchObject({
      ...created.body,
      usage: { requests_30d: 0, prompt_tokens_30d: 0, completion_tokens_30d: 0 },
    });
  });

  it('keeps a given id and every field', async () => {
    const created = await create({ id: 'g-pirate1', ...pirate }).expect(201);
    expect(created.body).toMatchObject({ id: 'g-pirate1', ...pirate });
  });

  it('answers 409 for a duplicate id', async () => {
    await create({ id: 'g-twice', name: 'one' }).expect(201);
    const duplicate = await create({ id: 'g-twice', name: 'two' }).expect(409);
    expect(duplicate.body.error).toMatchObject({ code: 'assistant_exists', param: 'id', type: 'invalid_request_error' });
  });

  it.each([
    [{ id: 'abc', name: 'x' }, 'id'],
    [{ id: 'g-', name: 'x' }, 'id'],
    [{ id: 'g-ab_c', name: 'x' }, 'id'],
    [{ id: 'g-a-b', name: 'x' }, 'id'],
    [{ name: '' }, 'name'],
    [{ name: 'x', visibility: 'secret' }, 'visibility'],
    [{ name: 'x', temperature: 3 }, 'temperature'],
    [{ name: 'x', models: [] }, 'models'],
    [{ name: 'x', tools: [{ type: 'function', function: { name: 'bad name' } }] }, 'tools[0].function.name'],
    [{ name: 'x', owner: 2 }, 'owner'],
  ])('rejects %j with 400 naming %s', async (body, param) => {
    const response = await create(body).expect(400);
    expect(response.body.error).toMatchObject({ type: 'invalid_request_error', param });
  });

  it('400 for a malformed id in the path, 404 for an unknown one', async () => {
    const malformed = await request(relay.app).get('/api/assistants/not-an-id').set(admin()).expect(400);
    expect(malformed.body.error.param).toBe('id');
    const unknown = await request(relay.app).get('/api/assistants/g-nothere').set(admin()).expect(404);
    expect(unknown.body.error).toMatchObject({ code: 'assistant_not_found', param: 'id' });
  });

  it('patches given fields only, and may clear a default with null', async () => {
    await create({ id: 'g-edit', ...pirate }).expect(201);
    const patched = await request(relay.app)
      .patch('/api/assistants/g-edit')
      .set(admin())
      .send({ instructions: 'Answer like a parrot.', temperature: null, models: null })
      .expect(200);
    expect(patched.body).toMatchObject({
      instructions: 'Answer like a parrot.',
      temperature: null,
      models: null,
      name: 'Pirate',
      tools: pirate.tools,
    });
    await request(relay.app).patch('/api/assistants/g-edit').set(admin()).send({}).expect(400);
    await request(relay.app).patch('/api/assistants/g-edit').set(admin()).send({ id: 'g-new' }).expect(400);
  });

  it('deletes: 204, then 404', async () => {
    await create({ id: 'g-bye', name: 'x' }).expect(201);
    await request(relay.app).delete('/api/assistants/g-bye').set(admin()).expect(204);
    await request(relay.app).delete('/api/assistants/g-bye').set(admin()).expect(404);
  });

  it('lists with pagination', async () => {
    for (const id of ['g-a1', 'g-a2', 'g-a3']) await create({ id, name: id }).expect(201);
    const page = AssistantPageSchema.parse(
      (await request(relay.app).get('/api/assistants?page=2&per_page=2').set(admin()).expect(200)).body,
    );
    expect(page).toMatchObject({ total: 3, page: 2, per_page: 2 });
    expect(page.data).toHaveLength(1);
    await request(relay.app).get('/api/assistants?page=9').set(admin()).expect(400);
  });

  it('counts the last 30 days of usage of the assistant only', async () => {
    await create({ id: 'g-used', name: 'x' }).expect(201);
    const row = (assistantId: string | null, daysAgo: number, promptTokens: number, cacheReadTokens = 0, cacheWriteTokens = 0) => ({
      createdAt: new Date(Date.now() - daysAgo * 86_400_000).toISOString(),
      requestId: `r${Math.random()}`,
      tokenId: null,
      accountId: 1,
      requestedModel: 'gpt-4o-gizmo-g-used',
      upstreamModel: 'gpt-4o',
      channelId: 1,
      assistantId,
      stream: false,
      status: 200,
      errorCode: null,
      promptTokens,
      completionTokens: 5,
      cacheReadTokens,
      cacheWriteTokens,
      endpoint: 'chat' as const,
      units: 0,
      usageEstimated: false,
      cost: 0,
      quotaReserved: 0,
      latencyMs: 1,
      ttfbMs: 1,
      clientIp: null,
      attempts: 1,
    });
    await relay.storage.usageLog.insertBatch([row('g-used', 1, 10, 4, 3), row('g-used', 29, 20, 0, 7), row('g-used', 31, 99, 9, 9), row(null, 1, 99, 9, 9)]);
    const { body } = await request(relay.app).get('/api/assistants/g-used').set(admin()).expect(200);
    expect(body.usage).toEqual({
      requests_30d: 2,
      prompt_tokens_30d: 30,
      completion_tokens_30d: 10,
      cache_read_tokens_30d: 4,
      cache_write_tokens_30d: 10,
    });
  });

  it('needs the admin key', async () => {
    await request(relay.app).get('/api/assistants').expect(401);
  });
});
