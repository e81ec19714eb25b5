import Anthropic from '@anthropic-ai/sdk';
import { MODELS_TRIED_HEADER, SERVED_MODEL_HEADER } from '@chat-relay/contract';
import type { UpstreamSim } from '@chat-relay/upstream-sim';
import { startE2eRelay, type E2eRelay } from './e2e-relay';
import { createAssistant, upstreamChats } from './gizmo-assistants';
import { reservationOf } from './reservation-of';

/**
 * Issue 32, fallback across models asked by the caller: `models: ["alpha", "beta"]` (OpenRouter's
 * form) or `fallbacks: ["beta"]` (LiteLLM's) with every channel of alpha failing answers from
 * beta — streamed and not, in the Chat Completions, Messages and Responses dialects, through the
 * real SDKs — billed at beta's price, the headers and the usage row saying so.
 */
describe('e2e: a request’s own chain across models', () => {
  let e2e: E2eRelay;
  let simA: UpstreamSim;
  let simB: UpstreamSim;

  beforeAll(async () => {
    e2e = await startE2eRelay();
    simA = await e2e.startSim();
    simB = await e2e.startSim();
    // alpha is gpt-4o on simA; beta is gpt-4o-mini on simB (priced apart in the seeded table), or Claude on simB.
    await e2e.addChannel(simA.baseUrl, { models: ['alpha'], model_mapping: { alpha: 'gpt-4o' } });
    await e2e.addChannel(simB.baseUrl, { models: ['beta'], model_mapping: { beta: 'gpt-4o-mini' } });
    await e2e.addChannel(simB.anthropicBaseUrl, { type: 'anthropic', models: ['beta-claude'], model_mapping: { 'beta-claude': 'claude-opus-4-5-20251101' } });
  });
  afterAll(() => e2e.close());
  beforeEach(() => {
    simA.reset();
    simB.reset();
  });

  const modelCalls = (sim: UpstreamSim) => sim.requests.filter((request) => request.method === 'POST');
  const lastRow = async () => {
    await e2e.relay.services.recorder.flush();
    const [row] = await e2e.relay.storage.usageLog.recent(1);
    return row!;
  };

  it('chat, unstreamed, `models`: alpha fails on every channel, beta answers; headers, row and the upstream say so', async () => {
    simA.failNext({ kind: 'status', status: 503 }, 5);
    const completion = await e2e
      .client()
      .chat.completions.create({ model: 'alpha', messages: [{ role: 'user', content: 'Hello there' }], models: ['alpha', 'beta'] } as never)
      .withResponse();
    expect(completion.data.model).toBe('beta');
    expect(completion.response.headers.get(SERVED_MODEL_HEADER)).toBe('beta');
    expect(completion.response.headers.get(MODELS_TRIED_HEADER)).toBe('alpha,beta');
    expect(modelCalls(simA)).toHaveLength(1);
    const sent = modelCalls(simB)[0]!;
    // The chain is the relay's: never forwarded.
    expect(sent.body).not.toHaveProperty('models');
    expect(sent.body).toMatchObject({ model: 'gpt-4o-mini' });
    const row = await lastRow();
    expect(row).toMatchObject({ requestedModel: 'alpha', upstreamModel: 'gpt-4o-mini', status: 200, fallbackPath: 'alpha>beta' });
    // gpt-4o-mini's price ($0.15 / $0.60 per million), not gpt-4o's ($2.50 / $10).
    expect(row.cost).toBe(Math.ceil((row.promptTokens * 150_000 + row.completionTokens * 600_000) / 1_000_000));
  });

  it('chat, streamed, `models` without `model`, and `fallbacks`: the same, headers before the first byte', async () => {
    simA.failNext({ kind: 'status', status: 503 }, 5);
    const response = await e2e.postChat({ models: ['alpha', 'beta'], stream: true, messages: [{ role: 'user', content: 'Hello there' }] });
    expect(response.status).toBe(200);
    expect(response.headers.get(SERVED_MODEL_HEADER)).toBe('beta');
    expect(response.headers.get(MODELS_TRIED_HEADER)).toBe('alpha,beta');
    const text = await response.text();
    expect(text).toContain('"model":"beta"');
    expect(text).toContain('data: [DONE]');
    // LiteLLM's spelling through the SDK: the same chain.
    simA.failNext({ kind: 'status', status: 503 }, 5);
    const stream = (await e2e
      .client()
      .chat.completions.create({ model: 'alpha', fallbacks: ['beta'], stream: true, messages: [{ role: 'user', content: 'Hi' }] } as never)) as unknown as AsyncIterable<{ model: string }>;
    const models = new Set<string>();
    for await (const chunk of stream) models.add(chunk.model);
    expect([...models]).toEqual(['beta']);
    expect(await lastRow()).toMatchObject({ requestedModel: 'alpha', upstreamModel: 'gpt-4o-mini', stream: true, fallbackPath: 'alpha>beta' });
  });

  it('a list of one model is never forwarded: the caller’s bytes are not sent as they are', async () => {
    const response = await e2e.postChat({ model: 'alpha', models: ['alpha'], messages: [{ role: 'user', content: 'Hello there' }] });
    expect(response.status).toBe(200);
    await response.text();
    expect(modelCalls(simA)[0]!.body).not.toHaveProperty('models');
  });

  it('a request served by its first model carries the headers and no fallback path', async () => {
    const response = await e2e.postChat({ model: 'alpha', fallbacks: ['beta'], messages: [{ role: 'user', content: 'Hello there' }] });
    expect(response.status).toBe(200);
    expect(response.headers.get(SERVED_MODEL_HEADER)).toBe('alpha');
    expect(response.headers.get(MODELS_TRIED_HEADER)).toBe('alpha');
    await response.text();
    expect(modelCalls(simA)[0]!.body).not.toHaveProperty('fallbacks');
    expect(await lastRow()).toMatchObject({ requestedModel: 'alpha', upstreamModel: 'gpt-4o', fallbackPath: null });
  });

  it('Messages through @anthropic-ai/sdk, streamed and not: alpha fails, beta-claude answers natively', async () => {
    const anthropic = new Anthropic({ apiKey: e2e.token, baseURL: e2e.url, maxRetries: 0 });
    for (const stream of [false, true]) {
      simA.failNext({ kind: 'status', status: 503 }, 5);
      const params = { model: 'alpha', models: ['alpha', 'beta-claude'], max_tokens: 50, messages: [{ role: 'user' as const, content: 'Hello there' }] };
      if (stream) {
        const events = anthropic.messages.stream(params as never);
        const message = await events.finalMessage();
        expect(message.model).toBe('beta-claude');
      } else {
        const { data, response } = await anthropic.messages.create(params as never).withResponse();
        expect((data as { model: string }).model).toBe('beta-claude');
        expect(response.headers.get(MODELS_TRIED_HEADER)).toBe('alpha,beta-claude');
      }
      const sent = simB.requests.filter((request) => request.path === '/v1/messages').at(-1)!;
      expect(sent.body).toMatchObject({ model: 'claude-opus-4-5-20251101' });
      expect(sent.body).not.toHaveProperty('models');
      expect(await lastRow()).toMatchObject({ requestedModel: 'alpha', upstreamModel: 'claude-opus-4-5-20251101', fallbackPath: 'alpha>beta-claude' });
    }
  });

  it('Responses through the openai SDK, streamed and not: alpha fails, beta answers', async () => {
    for (const stream of [false, true]) {
      simA.failNext({ kind: 'status', status: 503 }, 5);
      const params = { model: 'alpha', fallbacks: ['beta'], input: 'Hello there', stream };
      if (stream) {
        const events = (await e2e.client().responses.create(params as never)) as unknown as AsyncIterable<{ type: string; response?: { model: string } }>;
        let model: string | undefined;
        for await (const event of events) if (event.type === 'response.completed') model = event.response?.model;
        expect(model).toBe('beta');
      } else {
        const { data, response } = await e2e.client().responses.create(params as never).withResponse();
        expect((data as { model: string }).model).toBe('beta');
        expect(response.headers.get(SERVED_MODEL_HEADER)).toBe('beta');
      }
      expect(await lastRow()).toMatchObject({ requestedModel: 'alpha', upstreamModel: 'gpt-4o-mini', fallbackPath: 'alpha>beta' });
    }
  });

  it('a gizmo entry applies its own assistant on its hop only', async () => {
    const assistant = await createAssistant(e2e, { name: 'Pirate', instructions: 'Answer like a pirate.' });
    const gizmo = `beta-gizmo-${assistant.id}`;
    simA.failNext({ kind: 'status', status: 503 }, 5);
    const response = await e2e.postChat({ models: ['alpha', gizmo], messages: [{ role: 'user', content: 'Hello there' }] });
    expect(response.status).toBe(200);
    expect(response.headers.get(SERVED_MODEL_HEADER)).toBe(gizmo);
    expect(((await response.json()) as { model: string }).model).toBe(gizmo);
    const [tried] = upstreamChats(simA.requests);
    const [served] = upstreamChats(simB.requests);
    expect(JSON.stringify(tried!.messages)).not.toContain('pirate');
    expect(served).toMatchObject({ model: 'gpt-4o-mini' });
    expect(JSON.stringify(served!.messages)).toContain('Answer like a pirate.');
    expect(await lastRow()).toMatchObject({ requestedModel: 'alpha', assistantId: assistant.id, fallbackPath: `alpha>${gizmo}` });
  });

  it('reserves once at the dearest model of the chain: a quota the cheap model fits but the dear fallback does not refuses before any call', async () => {
    const messages = [{ role: 'user' as const, content: 'Hello there' }];
    const cheap = await reservationOf(e2e.relay, { model: 'gpt-4o-mini', messages });
    const dear = await reservationOf(e2e.relay, { model: 'gpt-4o', messages });
    expect(dear).toBeGreaterThan(cheap * 3);
    await e2e.relay.storage.tokens.update(e2e.tokenId, { quotaLimit: cheap * 3, quotaUsed: 0 });
    try {
      const alone = await e2e.postChat({ model: 'beta', messages });
      expect(alone.status).toBe(200);
      await alone.text();
      const calls = modelCalls(simB).length;
      const refused = await e2e.postChat({ models: ['beta', 'alpha'], messages });
      expect(refused.status).toBe(429);
      expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('insufficient_quota');
      expect(modelCalls(simA)).toHaveLength(0);
      expect(modelCalls(simB)).toHaveLength(calls);
    } finally {
      await e2e.relay.storage.tokens.update(e2e.tokenId, { quotaLimit: null, quotaUsed: 0 });
    }
  });
});
