import { DEFAULT_CHANNEL_ENDPOINTS, type Channel } from '@chat-relay/contract';
import type { UpstreamSim } from '@chat-relay/upstream-sim';
import { SIM_KEY } from './e2e-relay';
import { usageRowsFor } from './usage-rows-for';
import { errorOf, modelCalls, startEndpointsRelay, type Answer, type EndpointsE2e } from './endpoints-e2e';

/**
 * SPEC §7a: a channel's `endpoints` — set and shown through /api/channels, its type's defaults
 * when unset — decide at once which routes reach it; the log can be filtered by endpoint.
 */
const MODEL = 'house-model'; // a name that says nothing of what it is for

describe('e2e: channel endpoints through the admin API', () => {
  let e2e: EndpointsE2e;

  beforeAll(async () => (e2e = await startEndpointsRelay()));
  afterAll(() => e2e.close());

  const create = (input: Record<string, unknown>) =>
    e2e.admin('POST', '/api/channels', { name: 'c', type: 'openai', base_url: e2e.sim.baseUrl, keys: [SIM_KEY], models: [MODEL], ...input });

  it.each(['openai', 'anthropic', 'gemini'] as const)('a channel of type %s created without endpoints shows its type’s defaults (never rerank)', async (type) => {
    const created = await create({ type });
    expect(created.status).toBe(201);
    expect(created.json).toMatchObject({ endpoints: [...DEFAULT_CHANNEL_ENDPOINTS[type]], endpoints_default: true });
    expect((created.json as Channel).endpoints).not.toContain('rerank');
  });

  it('endpoints set, patched and reset to the defaults are shown back as set', async () => {
    const created = await create({ endpoints: ['embeddings', 'rerank'] });
    expect(created.json).toMatchObject({ endpoints: ['embeddings', 'rerank'], endpoints_default: false });
    const id = (created.json as Channel).id;

    const patched = await e2e.admin('PATCH', `/api/channels/${id}`, { endpoints: ['chat'] });
    expect(patched.json).toMatchObject({ endpoints: ['chat'], endpoints_default: false });
    expect((await e2e.admin('GET', `/api/channels/${id}`)).json).toMatchObject({ endpoints: ['chat'], endpoints_default: false });

    const reset = await e2e.admin('PATCH', `/api/channels/${id}`, { endpoints: null });
    expect(reset.json).toMatchObject({ endpoints: [...DEFAULT_CHANNEL_ENDPOINTS.openai], endpoints_default: true });
  });

  it.each([
    ['an unknown name', ['chat', 'speech']],
    ['an empty list', []],
    ['a name twice', ['chat', 'chat']],
    ['not a list', 'chat'],
  ])('%s → 400 naming endpoints, on create and on patch', async (_name, endpoints) => {
    const expectRefused = (answer: Answer) => {
      expect(answer.status).toBe(400);
      const error = errorOf(answer);
      expect(error.type).toBe('invalid_request_error');
      expect(error.param).toMatch(/^endpoints/);
    };
    expectRefused(await create({ endpoints }));
    expectRefused(await e2e.admin('PATCH', `/api/channels/${e2e.channel.id}`, { endpoints }));
    expect((await e2e.admin('GET', `/api/channels/${e2e.channel.id}`)).json).toMatchObject({ endpoints: e2e.channel.endpoints });
  });
});

describe('e2e: routing by channel endpoints', () => {
  let e2e: EndpointsE2e;
  let embeddingsSim: UpstreamSim;
  let chatSim: UpstreamSim;
  let embeddingsChannel: number;
  let chatChannel: number;

  beforeEach(async () => {
    // The default channel serves nothing of MODEL: only the two below do, one endpoint each.
    e2e = await startEndpointsRelay({ models: ['gpt-4o'] });
    embeddingsSim = e2e.sim;
    chatSim = await e2e.startSim();
    embeddingsChannel = (await e2e.addChannel(embeddingsSim.baseUrl, { models: [MODEL], endpoints: ['embeddings'] })).id;
    chatChannel = (await e2e.addChannel(chatSim.baseUrl, { models: [MODEL], endpoints: ['chat'] })).id;
  });
  afterEach(() => e2e.close());

  const embed = () => e2e.postJson('/v1/embeddings', { model: MODEL, input: 'hello world' });
  const chat = () => e2e.postJson('/v1/chat/completions', { model: MODEL, messages: [{ role: 'user', content: 'hi' }] });
  const paths = (sim: UpstreamSim) => modelCalls(sim).map((request) => request.path);
  const channelOf = async (answer: Answer) => (await usageRowsFor(e2e, [answer.requestId]))[0]?.channelId;

  it('an embeddings-only and a chat-only channel for one model: each route goes to its own', async () => {
    for (let i = 0; i < 3; i++) {
      const embedded = await embed();
      expect(embedded.status).toBe(200);
      expect(await channelOf(embedded)).toBe(embeddingsChannel);
      const chatted = await chat();
      expect(chatted.status).toBe(200);
      expect(await channelOf(chatted)).toBe(chatChannel);
    }
    expect(paths(embeddingsSim)).toEqual(Array(3).fill('/v1/embeddings'));
    expect(paths(chatSim)).toEqual(Array(3).fill('/v1/chat/completions'));
  });

  it('a patch takes effect on the next request: the two channels swap endpoints', async () => {
    await e2e.admin('PATCH', `/api/channels/${embeddingsChannel}`, { endpoints: ['chat'] });
    await e2e.admin('PATCH', `/api/channels/${chatChannel}`, { endpoints: ['embeddings'] });
    expect(await channelOf(await embed())).toBe(chatChannel);
    expect(await channelOf(await chat())).toBe(embeddingsChannel);
    expect(paths(chatSim)).toEqual(['/v1/embeddings']);
    expect(paths(embeddingsSim)).toEqual(['/v1/chat/completions']);
  });

  it('with no channel serving the endpoint any more → 404 naming where the model is served', async () => {
    await e2e.admin('PATCH', `/api/channels/${embeddingsChannel}`, { endpoints: ['chat'] });
    const refused = await embed();
    expect(refused.status).toBe(404);
    expect(errorOf(refused)).toMatchObject({ code: 'model_not_found', param: 'model' });
    expect(errorOf(refused).message).toMatch(/not served for embeddings \(\/v1\/embeddings\); it is served for chat/);
    expect(modelCalls(embeddingsSim)).toEqual([]);
  });

  it('rerank only where the admin says so: 404 on default endpoints, routed once added', async () => {
    const rerank = () => e2e.postJson('/v1/rerank', { model: MODEL, query: 'cats', documents: ['a cat', 'a dog'] });
    await e2e.admin('PATCH', `/api/channels/${embeddingsChannel}`, { endpoints: null });
    const refused = await rerank();
    expect(refused.status).toBe(404);
    expect(errorOf(refused).message).toContain('rerank (/v1/rerank)');
    await e2e.admin('PATCH', `/api/channels/${embeddingsChannel}`, { endpoints: [...DEFAULT_CHANNEL_ENDPOINTS.openai, 'rerank'] });
    const ranked = await rerank();
    expect(ranked.status).toBe(200);
    expect(await channelOf(ranked)).toBe(embeddingsChannel);
    expect(paths(embeddingsSim)).toEqual(['/v1/rerank']);
  });

  it('a model the admin names on a channel whose endpoints the admin set is served there, whatever its name says', async () => {
    // text-embedding-3-small is for embeddings only by its name; named on a channel whose endpoints the admin chose, the admin decides.
    const named = (await e2e.addChannel(chatSim.baseUrl, { models: ['text-embedding-3-small'], endpoints: ['chat', 'embeddings'] })).id;
    const chatted = await e2e.postJson('/v1/chat/completions', { model: 'text-embedding-3-small', messages: [{ role: 'user', content: 'hi' }] });
    expect(chatted.status).toBe(200);
    expect(await channelOf(chatted)).toBe(named);
  });

  it('GET /api/logs?endpoint= lists only that endpoint’s rows', async () => {
    const sent = { embeddings: [await embed(), await embed()], chat: [await chat()] };
    await usageRowsFor(e2e, [...sent.embeddings, ...sent.chat].map((answer) => answer.requestId));
    for (const [endpoint, answers] of Object.entries(sent)) {
      const page = await e2e.admin('GET', `/api/logs?endpoint=${endpoint}`);
      expect(page.status).toBe(200);
      const { data, total } = page.json as { data: Array<{ endpoint: string; request_id: string; channel_id: number }>; total: number };
      expect(total).toBe(answers.length);
      expect(data.map((row) => row.endpoint)).toEqual(answers.map(() => endpoint));
      expect(data.map((row) => row.request_id).sort()).toEqual(answers.map((answer) => answer.requestId).sort());
    }
    expect(((await e2e.admin('GET', '/api/logs?endpoint=rerank')).json as { total: number }).total).toBe(0);
    const bad = await e2e.admin('GET', '/api/logs?endpoint=speech');
    expect(bad.status).toBe(400);
    expect(errorOf(bad).param).toBe('endpoint');
  });
});
