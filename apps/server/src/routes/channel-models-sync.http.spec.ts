import request from 'supertest';
import { ChannelModelSyncSchema, ChannelSchema, ModelListSchema } from '@chat-relay/contract';
import { createLogger } from '../logger';
import { startModelListUpstream, type ListAnswer, type ModelListUpstream } from '../../test/testing/model-list-upstream';
import { bearer, createAccount, createToken } from '../../test/testing/system-api';
import { createTestRelay, type TestRelay } from '../../test/testing/test-relay';

const KEY = 'sk-sync-secret-0123456789abcdef';
const SECRET_PART = '0123456789abcdef';

describe('POST /api/channels/{id}/models/sync and the sync on create', () => {
  let relay: TestRelay;
  let upstream: ModelListUpstream;
  let lines: string[];
  /** What the upstream answers next; a test changes it. */
  let answer: ListAnswer;
  const admin = () => bearer(relay.adminKey);
  const openaiList = (...ids: string[]): ListAnswer => ({ json: { object: 'list', data: ids.map((id) => ({ id, object: 'model' })) } });

  beforeEach(async () => {
    answer = openaiList('gpt-4o', 'text-embedding-3-small');
    upstream = await startModelListUpstream(() => answer);
    lines = [];
    relay = await createTestRelay({ logger: createLogger('info', { write: (line: string) => void lines.push(line) }) });
  });
  afterEach(async () => {
    await relay.close();
    await upstream.close();
  });

  const createChannel = async (overrides: object = {}) => {
    const body = { name: 'glob', type: 'openai', base_url: `${upstream.origin}/v1`, keys: [KEY], models: ['*'], ...overrides };
    const created = await request(relay.app).post('/api/channels').set(admin()).send(body).expect(201);
    return ChannelSchema.parse(created.body);
  };
  const sync = (id: number, headers = admin()) => request(relay.app).post(`/api/channels/${id}/models/sync`).set(headers);
  const listedForToken = async () => {
    const { key } = await createToken(relay, { name: 'lister' });
    const listed = await request(relay.app).get('/v1/models').set(bearer(key)).expect(200);
    return ModelListSchema.parse(listed.body).data;
  };

  it('creating a glob channel fetches its list before answering, and the model list shows it', async () => {
    const channel = await createChannel();
    expect(channel).toMatchObject({ synced_models_count: 2, models_sync_error: null });
    expect(channel.models_synced_at).not.toBeNull();
    expect(upstream.requests).toEqual([expect.objectContaining({ method: 'GET', url: '/v1/models' })]);
    expect(await listedForToken()).toEqual([
      expect.objectContaining({ id: 'gpt-4o', owned_by: 'openai', endpoints: ['chat', 'completions', 'embeddings', 'moderations', 'images', 'audio_speech', 'audio_transcriptions', 'videos'] }),
      expect.objectContaining({ id: 'text-embedding-3-small', endpoints: ['embeddings'] }),
    ]);
  });

  it('a channel naming its models only fetches nothing', async () => {
    const channel = await createChannel({ models: ['gpt-4o', '*-gizmo-*'] });
    expect(channel).toMatchObject({ synced_models_count: null, models_synced_at: null, models_sync_error: null });
    expect(upstream.requests).toEqual([]);
  });

  it('syncs on demand: the stored list, what the relay now lists, and routing sees it at once', async () => {
    const channel = await createChannel({ models: ['gpt-*', 'o3'], model_mapping: { house: 'gpt-4o' } });
    answer = openaiList('gpt-4.1', 'gpt-4o', 'claude-opus-4', 'o3');

    const synced = ChannelModelSyncSchema.parse((await sync(channel.id).expect(200)).body);

    expect(synced).toEqual({
      channel_id: channel.id,
      synced_at: expect.any(String),
      models: [
        { id: 'claude-opus-4', endpoints: null },
        { id: 'gpt-4.1', endpoints: null },
        { id: 'gpt-4o', endpoints: null },
        { id: 'o3', endpoints: null },
      ],
      listed: ['gpt-4.1', 'gpt-4o', 'house', 'o3'],
    });
    expect(Date.parse(synced.synced_at)).toBeGreaterThanOrEqual(Date.parse(channel.models_synced_at ?? ''));
    expect((await listedForToken()).map((model) => model.id)).toEqual(['gpt-4.1', 'gpt-4o', 'house', 'o3']);
    const shown = ChannelSchema.parse((await request(relay.app).get(`/api/channels/${channel.id}`).set(admin()).expect(200)).body);
    expect(shown).toMatchObject({ synced_models_count: 4, models_synced_at: synced.synced_at });
  });

  it('a failed create-time sync does not fail the create: it is shown on the channel and logged, keys redacted', async () => {
    answer = { status: 401, json: { error: { message: `Incorrect API key provided: ${KEY}`, code: 'invalid_api_key' } } };
    const response = await request(relay.app)
      .post('/api/channels')
      .set(admin())
      .send({ name: 'bad key', type: 'openai', base_url: `${upstream.origin}/v1`, keys: [KEY], models: ['gpt-*'] })
      .expect(201);
    const channel = ChannelSchema.parse(response.body);
    expect(channel).toMatchObject({ synced_models_count: null, models_synced_at: null, models_sync_error: { code: 'upstream_auth_failed' } });
    expect(channel.models_sync_error?.message).toContain('401');
    expect(JSON.stringify(response.body)).not.toContain(SECRET_PART);
    const logged = lines.filter((line) => line.includes('channel model list sync failed'));
    expect(logged).toHaveLength(1);
    expect(logged[0]).toContain('upstream_auth_failed');
    expect(lines.join('\n')).not.toContain(SECRET_PART);
  });

  it('a failed sync answers 502 and keeps the list synced before; the next good sync clears the error', async () => {
    const channel = await createChannel();
    answer = { status: 500, json: { error: { message: `overloaded, key ${KEY}` } } };

    const failed = await sync(channel.id).expect(502);
    expect(failed.body.error).toMatchObject({ type: 'upstream_error', code: 'upstream_500' });
    expect(JSON.stringify(failed.body)).not.toContain(SECRET_PART);
    const shown = ChannelSchema.parse((await request(relay.app).get(`/api/channels/${channel.id}`).set(admin()).expect(200)).body);
    expect(shown).toMatchObject({ synced_models_count: 2, models_synced_at: channel.models_synced_at, models_sync_error: { code: 'upstream_500' } });
    expect((await listedForToken()).map((model) => model.id)).toEqual(['gpt-4o', 'text-embedding-3-small']);

    answer = openaiList('o3');
    await sync(channel.id).expect(200);
    const healed = ChannelSchema.parse((await request(relay.app).get(`/api/channels/${channel.id}`).set(admin()).expect(200)).body);
    expect(healed).toMatchObject({ synced_models_count: 1, models_sync_error: null });
  });

  it.each(['tavily', 'searxng', 'suno'])('a %s channel has no model list: 400 in the OpenAI shape, nothing fetched, nothing shown as a failed sync', async (type) => {
    // A glob too: the create skips the sync a type without a list cannot have.
    const channel = await createChannel({ type, base_url: upstream.origin, models: ['*'] });
    expect(channel).toMatchObject({ synced_models_count: null, models_sync_error: null });

    const refused = await sync(channel.id).expect(400);
    expect(refused.headers['x-request-id']).toBeTruthy();
    expect(refused.body).toEqual({
      error: {
        message: `Nothing to sync: a ${type} channel has no model list; set its models by hand.`,
        type: 'invalid_request_error',
        param: null,
        code: 'no_model_list',
      },
    });
    expect(upstream.requests).toEqual([]);
    const shown = ChannelSchema.parse((await request(relay.app).get(`/api/channels/${channel.id}`).set(admin()).expect(200)).body);
    expect(shown).toMatchObject({ synced_models_count: null, models_sync_error: null });
    expect(lines.some((line) => line.includes('sync failed'))).toBe(false);
  });

  it('only the admin key may sync; an unknown channel is 404', async () => {
    const channel = await createChannel({ models: ['gpt-4o'] });
    const account = await createAccount(relay, { name: 'a' });
    const token = await createToken(relay, { name: 't' });
    expect((await sync(channel.id, bearer(account.access_key)).expect(403)).body.error.code).toBe('admin_key_required');
    expect((await sync(channel.id, bearer(token.key)).expect(403)).body.error.code).toBe('management_key_required');
    await request(relay.app).post(`/api/channels/${channel.id}/models/sync`).expect(401);
    expect(upstream.requests).toEqual([]);

    const missing = await sync(channel.id + 100).expect(404);
    expect(missing.body.error).toMatchObject({ code: 'channel_not_found', param: 'id' });
  });

  it('an upstream that does not answer delays the create by the short wait only, and shutdown stops the sync', async () => {
    answer = { hang: true };
    const started = Date.now();
    const channel = await createChannel();
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(channel).toMatchObject({ synced_models_count: null, models_sync_error: null });
    const closing = Date.now();
    await relay.close();
    expect(Date.now() - closing).toBeLessThan(2_000);
    relay = await createTestRelay();
  });
});
