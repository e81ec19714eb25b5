import type { Channel } from '@chat-relay/contract';
import { createTestServiceAccount, type TestServiceAccount, type UpstreamSim } from '@chat-relay/upstream-sim';
import { createRedisCluster } from '../../src/cluster/redis/create-redis-cluster';
import { createLogger } from '../../src/logger';
import { deleteKeys, describeWithRedis, plainClient, uniqueKeyPrefix } from '../cluster/redis/testing/redis-test-env';
import { anthropicClient } from './anthropic-e2e';
import { startE2eRelay, type E2eRelay } from './e2e-relay';
import { genaiClient } from './gemini-e2e';
import { usageRowsFor } from './usage-rows-for';
import { askForBoth, runWeatherTool, weatherTools } from './weather-tools';

/** Public names, and Vertex's ids for them (https://cloud.google.com/vertex-ai/generative-ai/docs/partner-models/claude/use-claude). */
const GEMINI = 'gemini-2.5-flash';
const CLAUDE = 'claude-opus-4-5';
const VERTEX_CLAUDE = 'claude-opus-4-5@20251101';
const REGION = 'us-east5';

/** A service account's JSON key file as Google hands it out (https://cloud.google.com/iam/docs/keys-create-delete), its token_uri the simulator's. */
function serviceAccountKey(account: TestServiceAccount, tokenUri: string): string {
  const projectId = account.clientEmail.split('@')[1]?.split('.')[0] ?? 'acme-prod';
  return JSON.stringify({
    type: 'service_account',
    project_id: projectId,
    private_key_id: 'test-key',
    private_key: account.privateKeyPem,
    client_email: account.clientEmail,
    client_id: '100000000000000000001',
    token_uri: tokenUri,
  });
}

/** The Vertex model paths the simulator was called on (not /token). */
const modelCalls = (sim: UpstreamSim) => sim.requests.filter((request) => request.path.startsWith('/v1/projects/')).map((request) => request.path);

describe('e2e: vertex channels (issue 31) — a service account, Gemini and Claude, one token for many calls', () => {
  let e2e: E2eRelay;
  let sim: UpstreamSim;
  const account = createTestServiceAccount();

  const admin = async (path: string, init: RequestInit = {}) => {
    const response = await fetch(`${e2e.url}${path}`, { ...init, headers: { authorization: `Bearer ${e2e.relay.adminKey}`, 'content-type': 'application/json' } });
    const text = await response.text();
    return { status: response.status, text, json: JSON.parse(text || 'null') as unknown };
  };
  const addVertex = (keys: string[], input: Record<string, unknown> = {}): Promise<Channel> =>
    e2e.addChannel(sim.vertexBaseUrl, { type: 'vertex', keys, cloud: { region: REGION }, models: [GEMINI, CLAUDE], model_mapping: { [CLAUDE]: VERTEX_CLAUDE }, ...input });

  beforeEach(async () => {
    e2e = await startE2eRelay({ env: { RELAY_UNPRICED_MODELS: 'refuse' } });
    sim = await e2e.startSim({ vertexServiceAccounts: { [account.clientEmail]: account.publicKeyPem } });
  });
  afterEach(() => e2e.close());

  it('Gemini and Claude through Chat Completions, Messages and generateContent, streamed and not, on one minted token', async () => {
    await addVertex([serviceAccountKey(account, sim.vertexTokenUri)]);
    const openai = e2e.client();
    const messages = [{ role: 'user' as const, content: 'Hello from the relay' }];
    const ids: Array<string | null> = [];

    for (const model of [GEMINI, CLAUDE]) {
      const chat = await openai.chat.completions.create({ model, messages, max_tokens: 64 }).withResponse();
      expect(chat.data.choices[0]?.message.content).toBe('You said: Hello from the relay');
      expect(chat.data.model).toBe(model);
      const streamed = await openai.chat.completions.create({ model, messages, max_tokens: 64, stream: true }).withResponse();
      let text = '';
      for await (const chunk of streamed.data) text += chunk.choices[0]?.delta.content ?? '';
      expect(text).toBe('You said: Hello from the relay');
      ids.push(chat.response.headers.get('x-request-id'), streamed.response.headers.get('x-request-id'));
    }

    // Claude's Messages pass through to rawPredict / streamRawPredict.
    const anthropic = anthropicClient(e2e);
    const message = await anthropic.messages.create({ model: CLAUDE, max_tokens: 64, messages }).withResponse();
    expect(message.data.content).toEqual([{ type: 'text', text: 'You said: Hello from the relay' }]);
    let streamedText = '';
    const events = await anthropic.messages.create({ model: CLAUDE, max_tokens: 64, messages, stream: true }).withResponse();
    for await (const event of events.data) if (event.type === 'content_block_delta' && event.delta.type === 'text_delta') streamedText += event.delta.text;
    expect(streamedText).toBe('You said: Hello from the relay');
    ids.push(message.response.headers.get('x-request-id'), events.response.headers.get('x-request-id'));

    // Gemini's generateContent passes through, the caller's SDK unaware of Vertex.
    const genai = genaiClient(e2e);
    const generated = await genai.models.generateContent({ model: GEMINI, contents: [{ role: 'user', parts: [{ text: 'Hello from the relay' }] }] });
    expect(generated.text).toBe('You said: Hello from the relay');
    let generatedStream = '';
    for await (const piece of await genai.models.generateContentStream({ model: GEMINI, contents: [{ role: 'user', parts: [{ text: 'Hello from the relay' }] }] })) generatedStream += piece.text ?? '';
    expect(generatedStream).toBe('You said: Hello from the relay');

    const base = `/v1/projects/acme-prod/locations/${REGION}/publishers`;
    expect(modelCalls(sim)).toEqual([
      `${base}/google/models/${GEMINI}:generateContent`,
      `${base}/google/models/${GEMINI}:streamGenerateContent`,
      `${base}/anthropic/models/${VERTEX_CLAUDE}:rawPredict`,
      `${base}/anthropic/models/${VERTEX_CLAUDE}:streamRawPredict`,
      `${base}/anthropic/models/${VERTEX_CLAUDE}:rawPredict`,
      `${base}/anthropic/models/${VERTEX_CLAUDE}:streamRawPredict`,
      `${base}/google/models/${GEMINI}:generateContent`,
      `${base}/google/models/${GEMINI}:streamGenerateContent`,
    ]);
    expect(sim.vertexTokensMinted()).toBe(1);

    const rows = await usageRowsFor(e2e, ids);
    for (const row of rows) {
      expect(row).toMatchObject({ status: 200, usageEstimated: false });
      expect(row?.cost).toBeGreaterThan(0);
    }
    expect(rows.map((row) => row?.upstreamModel)).toEqual([GEMINI, GEMINI, VERTEX_CLAUDE, VERTEX_CLAUDE, VERTEX_CLAUDE, VERTEX_CLAUDE]);
  });

  it("Claude's count_tokens, text embeddings through predict, the channel test and Model Garden's list, all on the one token", async () => {
    const channel = await addVertex([serviceAccountKey(account, sim.vertexTokenUri)], { models: [GEMINI, CLAUDE, 'gemini-embedding-001'], endpoints: ['chat', 'embeddings'] });
    const counted = await anthropicClient(e2e).messages.countTokens({ model: CLAUDE, messages: [{ role: 'user', content: 'How many tokens is this?' }] });
    expect(counted.input_tokens).toBeGreaterThan(0);

    const embedded = await e2e.client().embeddings.create({ model: 'gemini-embedding-001', input: 'first' });
    expect(embedded.data.map((item) => item.index)).toEqual([0]);
    expect(embedded.data[0]?.embedding.length).toBeGreaterThan(0);
    expect(embedded.usage.prompt_tokens).toBeGreaterThan(0);

    const tested = await admin(`/api/channels/${channel.id}/test`, { method: 'POST', body: JSON.stringify({ model: GEMINI }) });
    expect(tested.json).toMatchObject({ ok: true, model: GEMINI, status: 200 });
    const synced = await admin(`/api/channels/${channel.id}/models/sync`, { method: 'POST' });
    expect(synced.status).toBe(200);
    expect((synced.json as { models: Array<{ id: string }> }).models.map((model) => model.id)).toContain(GEMINI);

    const base = `/v1/projects/acme-prod/locations/${REGION}/publishers`;
    expect(modelCalls(sim)).toEqual([`${base}/anthropic/models/count-tokens:rawPredict`, `${base}/google/models/gemini-embedding-001:predict`, `${base}/google/models/${GEMINI}:generateContent`]);
    expect(sim.requests.find((request) => request.path === '/v1beta1/publishers/google/models')?.headers['authorization']).toMatch(/^Bearer ya29\./);
    expect(sim.vertexTokensMinted()).toBe(1);
  });

  it.each([GEMINI, CLAUDE])('%s: a tool round trip through Chat Completions (Vertex takes no ids on function parts)', async (model) => {
    await addVertex([serviceAccountKey(account, sim.vertexTokenUri)], { cloud: {} });
    const openai = e2e.client();
    const user = { role: 'user' as const, content: askForBoth };
    const first = await openai.chat.completions.create({ model, messages: [user], tools: weatherTools, max_tokens: 256 });
    const message = first.choices[0]!.message;
    expect(first.choices[0]?.finish_reason).toBe('tool_calls');
    const results = (message.tool_calls ?? []).map((call) => {
      if (call.type !== 'function') throw new Error('expected a function call');
      return { role: 'tool' as const, tool_call_id: call.id, content: runWeatherTool(call.function.name, JSON.parse(call.function.arguments) as Record<string, unknown>) };
    });
    expect(results).toHaveLength(2);
    const final = await openai.chat.completions.create({ model, messages: [user, message, ...results], tools: weatherTools, max_tokens: 256 });
    expect(final.choices[0]?.message.content).toContain('14:05');
    // No region set: the global location (https://cloud.google.com/vertex-ai/generative-ai/docs/learn/locations#global-endpoint).
    expect(modelCalls(sim).every((path) => path.startsWith('/v1/projects/acme-prod/locations/global/'))).toBe(true);
  });

  it('a held token the cloud stops taking (401 on a model call): minted afresh once and the call retried, the key kept', async () => {
    const channel = await addVertex([serviceAccountKey(account, sim.vertexTokenUri)]);
    const hello = { model: GEMINI, max_tokens: 32, messages: [{ role: 'user', content: 'Hello there' }] };
    expect((await e2e.postChat(hello)).status).toBe(200);
    // Google's 401 UNAUTHENTICATED for a revoked or expired bearer (https://cloud.google.com/docs/authentication/troubleshoot-adc#access-token-expired).
    sim.failNext({ kind: 'status', status: 401 });
    expect((await e2e.postChat(hello)).status).toBe(200);
    expect(sim.vertexTokensMinted()).toBe(2);
    expect(modelCalls(sim)).toHaveLength(3);
    expect((await admin(`/api/channels/${channel.id}`)).json).toMatchObject({ key_status: [{ status: 'active' }] });
  });

  it('a service account the token endpoint does not know: the key is disabled, the hint names the client email and never the private key', async () => {
    const stranger = createTestServiceAccount('stranger@acme-prod.iam.gserviceaccount.com');
    const channel = await addVertex([serviceAccountKey(stranger, sim.vertexTokenUri), serviceAccountKey(account, sim.vertexTokenUri)]);

    const hello = { model: GEMINI, max_tokens: 32, messages: [{ role: 'user', content: 'Hello there' }] };
    expect((await e2e.postChat(hello)).status).toBe(200);
    expect((await e2e.postChat(hello)).status).toBe(200);
    // The stranger's grant was refused once (invalid_grant); no model call went out with it.
    expect(sim.requests.filter((request) => request.path === '/token')).toHaveLength(2);
    expect(modelCalls(sim)).toHaveLength(2);

    const { text, json } = await admin(`/api/channels/${channel.id}`);
    expect(json).toMatchObject({
      key_status: [
        { index: 0, hint: 'service account stranger@acme-prod.iam.gserviceaccount.com', status: 'disabled', reason: expect.stringContaining('upstream_auth_failed') },
        { index: 1, hint: `service account ${account.clientEmail}`, status: 'active' },
      ],
    });
    expect(text).not.toContain('PRIVATE KEY');
    expect(text).not.toContain(stranger.privateKeyPem.split('\n')[1]);
  });
});

describeWithRedis('e2e: two relay instances sharing Redis mint one Vertex token between them', (redisUrl) => {
  const prefix = uniqueKeyPrefix();
  const account = createTestServiceAccount();
  let relays: E2eRelay[] = [];

  afterEach(async () => {
    await Promise.all(relays.map((relay) => relay.close()));
    relays = [];
    await deleteKeys(redisUrl, prefix);
  });

  it('concurrent calls on both instances: one grant at the token endpoint, the token shared sealed through Redis', async () => {
    const start = async (instanceId: string) => {
      const cluster = await createRedisCluster({ url: redisUrl, keyPrefix: prefix, failureMode: 'open', refreshMs: 60_000, instanceId, logger: createLogger('silent') });
      return startE2eRelay({ cluster });
    };
    relays = [await start('a'), await start('b')];
    const [a, b] = relays as [E2eRelay, E2eRelay];
    const sim = await a.startSim({ vertexServiceAccounts: { [account.clientEmail]: account.publicKeyPem } });
    const key = serviceAccountKey(account, sim.vertexTokenUri);
    for (const relay of relays) await relay.addChannel(sim.vertexBaseUrl, { type: 'vertex', keys: [key], cloud: { region: REGION }, models: [GEMINI] });

    const hello = { model: GEMINI, max_tokens: 16, messages: [{ role: 'user', content: 'Hello there' }] };
    const answers = await Promise.all([a, b, a, b, a, b].map((relay) => relay.postChat(hello)));
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200, 200]);
    expect(modelCalls(sim)).toHaveLength(6);
    expect(sim.vertexTokensMinted()).toBe(1);
    expect(sim.requests.filter((request) => request.path === '/token')).toHaveLength(1);

    // What Redis holds is sealed: no bearer a reader of Redis could use.
    const redis = await plainClient(redisUrl);
    try {
      const stored = await Promise.all((await redis.keys(`${prefix}cloud-token:*`)).filter((name) => !name.endsWith(':lease')).map((name) => redis.get(name)));
      expect(stored).toHaveLength(1);
      expect(stored[0]).not.toContain('ya29');
    } finally {
      await redis.quit();
    }
  });
});
