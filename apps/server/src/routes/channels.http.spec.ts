import request from 'supertest';
import { ChannelSchema, ErrorResponseSchema } from '@chat-relay/contract';
import { createTestRelay, type TestRelay } from '../../test/testing/test-relay';

const newChannel = {
  name: 'local',
  type: 'openai',
  base_url: 'http://127.0.0.1:9/v1/',
  keys: ['sk-upstream-secret-aaaa', 'sk-upstream-secret-bbbb'],
  models: ['gpt-4o', 'gpt-4o-mini*'],
  model_mapping: { 'my-model': 'gpt-4o' },
  priority: 5,
  weight: 3,
};

describe('channel admin API', () => {
  let relay: TestRelay;
  const admin = () => ({ authorization: `Bearer ${relay.adminKey}` });

  beforeEach(async () => {
    relay = await createTestRelay();
  });
  afterEach(() => relay.close());

  it('creates a channel and never shows its keys, only hints', async () => {
    const created = await request(relay.app).post('/api/channels').set(admin()).send(newChannel).expect(201);
    const channel = ChannelSchema.parse(created.body);
    expect(channel.base_url).toBe('http://127.0.0.1:9/v1');
    expect(channel.key_hints).toEqual(['...aaaa', '...bbbb']);
    expect(channel.timeouts).toEqual({ connect_ms: 10000, first_byte_ms: 300000, idle_ms: 120000 });
    expect(channel.responses_api).toBe('auto');
    expect(JSON.stringify(created.body)).not.toContain('upstream-secret');

    const fetched = await request(relay.app).get(`/api/channels/${channel.id}`).set(admin()).expect(200);
    expect(fetched.body).toEqual(created.body);
    const listed = await request(relay.app).get('/api/channels').set(admin()).expect(200);
    expect(listed.body).toMatchObject({ total: 1, page: 1, per_page: 20 });
    expect(JSON.stringify(listed.body)).not.toContain('upstream-secret');
  });

  it('patches only the given fields and keeps the rest', async () => {
    const { body: channel } = await request(relay.app).post('/api/channels').set(admin()).send(newChannel).expect(201);
    const patched = await request(relay.app)
      .patch(`/api/channels/${channel.id}`)
      .set(admin())
      .send({ enabled: false, timeouts: { idle_ms: 5000 } })
      .expect(200);
    expect(patched.body).toMatchObject({
      enabled: false,
      priority: 5,
      models: newChannel.models,
      timeouts: { connect_ms: 10000, first_byte_ms: 300000, idle_ms: 5000 },
    });
    expect(Date.parse(patched.body.updated_at)).toBeGreaterThanOrEqual(Date.parse(channel.updated_at));
  });

  it('deletes a channel: 204, then 404 in the OpenAI shape', async () => {
    const { body: channel } = await request(relay.app).post('/api/channels').set(admin()).send(newChannel).expect(201);
    await request(relay.app).delete(`/api/channels/${channel.id}`).set(admin()).expect(204);
    const missing = await request(relay.app).get(`/api/channels/${channel.id}`).set(admin()).expect(404);
    expect(ErrorResponseSchema.parse(missing.body).error).toMatchObject({ code: 'channel_not_found', param: 'id' });
  });

  it.each([
    [{ ...newChannel, surprise: 1 }, 'surprise', 'Unrecognized'],
    [{ ...newChannel, keys: [] }, 'keys', 'at least 1'],
    [{ ...newChannel, base_url: 'ftp://example.com' }, 'base_url', 'http'],
    [{ ...newChannel, weight: 0 }, 'weight', 'greater than or equal to 1'],
    [{ ...newChannel, type: 'carrier-pigeon' }, 'type', 'Invalid enum value'],
    [{ ...newChannel, responses_api: 'sometimes' }, 'responses_api', 'Invalid enum value'],
    [{ ...newChannel, models: ['x'], name: undefined }, 'name', 'Missing required parameter'],
  ])('rejects bad input %# with a 400 naming the field', async (body, param, message) => {
    const response = await request(relay.app).post('/api/channels').set(admin()).send(body).expect(400);
    expect(response.body.error).toMatchObject({ type: 'invalid_request_error', param });
    expect(response.body.error.message).toContain(message);
  });

  it('keeps responses_api as created, shows it in get and list, and changes it by PATCH', async () => {
    const created = await request(relay.app).post('/api/channels').set(admin()).send({ ...newChannel, responses_api: 'bridged' }).expect(201);
    expect(created.body.responses_api).toBe('bridged');
    const { body: other } = await request(relay.app).post('/api/channels').set(admin()).send({ ...newChannel, name: 'other' }).expect(201);
    const listed = await request(relay.app).get('/api/channels').set(admin()).expect(200);
    expect(listed.body.data.map((channel: { id: number; responses_api: string }) => [channel.id, channel.responses_api])).toEqual([
      [created.body.id, 'bridged'],
      [other.id, 'auto'],
    ]);

    const patched = await request(relay.app).patch(`/api/channels/${created.body.id}`).set(admin()).send({ responses_api: 'native' }).expect(200);
    expect(patched.body).toMatchObject({ responses_api: 'native', name: newChannel.name, priority: 5 });
    const fetched = await request(relay.app).get(`/api/channels/${created.body.id}`).set(admin()).expect(200);
    expect(fetched.body.responses_api).toBe('native');
    // A patch of something else leaves it as it is.
    const renamed = await request(relay.app).patch(`/api/channels/${created.body.id}`).set(admin()).send({ name: 'renamed' }).expect(200);
    expect(renamed.body.responses_api).toBe('native');
  });

  it('accepts responses_api on a channel of another type (whose Responses requests are always bridged)', async () => {
    const anthropic = { ...newChannel, type: 'anthropic', base_url: 'http://127.0.0.1:9/v1', responses_api: 'native' };
    const created = await request(relay.app).post('/api/channels').set(admin()).send(anthropic).expect(201);
    expect(ChannelSchema.parse(created.body)).toMatchObject({ type: 'anthropic', responses_api: 'native' });
  });

  it('rejects a PATCH with a responses_api outside auto, native, bridged, naming it, and changes nothing', async () => {
    const { body: channel } = await request(relay.app).post('/api/channels').set(admin()).send(newChannel).expect(201);
    const response = await request(relay.app).patch(`/api/channels/${channel.id}`).set(admin()).send({ responses_api: 'chat' }).expect(400);
    expect(response.body.error).toMatchObject({ type: 'invalid_request_error', param: 'responses_api' });
    const fetched = await request(relay.app).get(`/api/channels/${channel.id}`).set(admin()).expect(200);
    expect(fetched.body.responses_api).toBe('auto');
  });

  it('rejects an empty patch, a non-numeric id and a page out of range', async () => {
    const { body: channel } = await request(relay.app).post('/api/channels').set(admin()).send(newChannel).expect(201);
    const empty = await request(relay.app).patch(`/api/channels/${channel.id}`).set(admin()).send({}).expect(400);
    expect(empty.body.error.message).toContain('at least one field');
    const badId = await request(relay.app).get('/api/channels/abc').set(admin()).expect(400);
    expect(badId.body.error.param).toBe('id');
    const page = await request(relay.app).get('/api/channels?page=3').set(admin()).expect(400);
    expect(page.body.error).toMatchObject({ param: 'page', code: 'page_out_of_range' });
    const perPage = await request(relay.app).get('/api/channels?per_page=1000').set(admin()).expect(400);
    expect(perPage.body.error.param).toBe('per_page');
  });
});
