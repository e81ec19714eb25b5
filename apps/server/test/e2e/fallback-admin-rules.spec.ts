import Anthropic from '@anthropic-ai/sdk';
import { MODELS_TRIED_HEADER, SERVED_MODEL_HEADER, type FallbackRule, type FallbackRuleCreate } from '@chat-relay/contract';
import type { UpstreamSim } from '@chat-relay/upstream-sim';
import { patchToken } from '../testing/patch-token';
import { startE2eRelay, type E2eRelay } from './e2e-relay';
import { genaiClient } from './gemini-e2e';

const CONTEXT_LENGTH = { kind: 'status', status: 400, contextLength: true } as const;
const UNAVAILABLE = { kind: 'status', status: 503 } as const;

/**
 * Issue 32, fallback across models an admin defines: a rule on a model (or glob) moves its
 * requests on to the next model on the failure classes it names, without the caller asking —
 * across dialects and providers; a context-length failure (the upstream's own 400, or the
 * catalogue's window before sending) moves to the larger model; a failure of the request itself
 * (a 400 about a parameter) never does; a request's own list is checked against the key's allow-list.
 */
describe('e2e: admin fallback rules', () => {
  let e2e: E2eRelay;
  let simA: UpstreamSim;
  let simB: UpstreamSim;

  const admin = async (method: string, path: string, body?: unknown): Promise<Response> =>
    fetch(`${e2e.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${e2e.relay.adminKey}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  const rules: number[] = [];
  const addRule = async (rule: FallbackRuleCreate): Promise<FallbackRule> => {
    const response = await admin('POST', '/api/fallbacks', rule);
    expect(response.status).toBe(201);
    const created = (await response.json()) as FallbackRule;
    rules.push(created.id);
    return created;
  };
  const modelCalls = (sim: UpstreamSim) => sim.requests.filter((request) => request.method === 'POST');
  const lastLog = async (): Promise<Record<string, unknown>> => {
    await e2e.usageRows(1);
    const page = (await (await admin('GET', '/api/logs?per_page=1')).json()) as { data: Array<Record<string, unknown>> };
    return page.data[0] as Record<string, unknown>;
  };
  const chat = (model: string, content = 'Hello there') => e2e.postChat({ model, max_tokens: 20, messages: [{ role: 'user', content }] });

  beforeAll(async () => {
    e2e = await startE2eRelay();
    simA = await e2e.startSim();
    simB = await e2e.startSim();
    await e2e.addChannel(simA.baseUrl, { models: ['alpha', 'small'], model_mapping: { alpha: 'gpt-4o', small: 'gpt-4.1-nano' } });
    await e2e.addChannel(simA.anthropicBaseUrl, { type: 'anthropic', models: ['alpha-claude'], model_mapping: { 'alpha-claude': 'claude-opus-4-5-20251101' } });
    await e2e.addChannel(simA.geminiBaseUrl, { type: 'gemini', models: ['alpha-gemini'], model_mapping: { 'alpha-gemini': 'gemini-2.5-flash' } });
    await e2e.addChannel(simB.baseUrl, { models: ['beta', 'big'], model_mapping: { beta: 'gpt-4o-mini', big: 'gpt-4.1' } });
  });
  afterAll(() => e2e.close());
  beforeEach(() => {
    simA.reset();
    simB.reset();
  });
  afterEach(async () => {
    for (const id of rules.splice(0)) await admin('DELETE', `/api/fallbacks/${id}`);
  });

  it('an admin chain answers from beta when alpha fails, without the caller asking; the rule is listed, and disabled it stops', async () => {
    const rule = await addRule({ model: 'alph*', fallbacks: ['beta'] });
    expect(rule).toMatchObject({ model: 'alph*', fallbacks: ['beta'], triggers: ['rate_limited', 'upstream_error', 'timeout', 'no_channel'], enabled: true });
    expect(((await (await admin('GET', '/api/fallbacks')).json()) as { data: FallbackRule[] }).data).toContainEqual(rule);

    simA.failNext(UNAVAILABLE, 5);
    const response = await chat('alpha');
    expect(response.status).toBe(200);
    expect(response.headers.get(SERVED_MODEL_HEADER)).toBe('beta');
    expect(response.headers.get(MODELS_TRIED_HEADER)).toBe('alpha,beta');
    expect(((await response.json()) as { model: string }).model).toBe('beta');
    expect(await lastLog()).toMatchObject({ requested_model: 'alpha', upstream_model: 'gpt-4o-mini', fallback_path: 'alpha>beta', status: 200 });
    const metrics = await (await admin('GET', '/metrics')).text();
    expect(metrics).toContain('relay_model_fallbacks_total{from="alpha",to="beta",trigger="upstream_error"} 1');

    const disabled = await admin('PATCH', `/api/fallbacks/${rule.id}`, { enabled: false });
    expect(((await disabled.json()) as FallbackRule).enabled).toBe(false);
    simA.failNext(UNAVAILABLE, 5);
    const failed = await chat('alpha');
    expect(failed.status).toBe(502);
    expect(failed.headers.get(MODELS_TRIED_HEADER)).toBeNull();
    expect(modelCalls(simB)).toHaveLength(1);
  });

  it('Gemini through @google/genai, streamed and not: a rule moves alpha-gemini on to beta (an OpenAI channel), answered in Gemini’s shape', async () => {
    await addRule({ model: 'alpha-gemini', fallbacks: ['beta'], triggers: ['upstream_error'] });
    const genai = genaiClient(e2e);
    simA.failNext(UNAVAILABLE, 5);
    const answer = await genai.models.generateContent({ model: 'alpha-gemini', contents: 'Hello there' });
    expect(answer.text).toBeTruthy();
    expect(answer.modelVersion).toBe('beta');
    expect(await lastLog()).toMatchObject({ requested_model: 'alpha-gemini', upstream_model: 'gpt-4o-mini', fallback_path: 'alpha-gemini>beta' });
    simA.failNext(UNAVAILABLE, 5);
    let text = '';
    for await (const chunk of await genai.models.generateContentStream({ model: 'alpha-gemini', contents: 'Hello there' })) text += chunk.text ?? '';
    expect(text).toBeTruthy();
    expect(await lastLog()).toMatchObject({ stream: true, fallback_path: 'alpha-gemini>beta' });
  });

  it("the upstream's own context-length 400 moves to the larger model — OpenAI's code, and Anthropic's words through the SDK", async () => {
    await addRule({ model: 'alpha', fallbacks: ['big'], triggers: ['context_length'] });
    await addRule({ model: 'alpha-claude', fallbacks: ['big'], triggers: ['context_length'] });
    simA.failNext(CONTEXT_LENGTH);
    const response = await chat('alpha');
    expect(response.status).toBe(200);
    expect(response.headers.get(SERVED_MODEL_HEADER)).toBe('big');
    await response.text();
    expect(await lastLog()).toMatchObject({ requested_model: 'alpha', upstream_model: 'gpt-4.1', fallback_path: 'alpha>big' });

    simA.failNext(CONTEXT_LENGTH);
    const anthropic = new Anthropic({ apiKey: e2e.token, baseURL: e2e.url, maxRetries: 0 });
    const message = await anthropic.messages.create({ model: 'alpha-claude', max_tokens: 30, messages: [{ role: 'user', content: 'Hello there' }] });
    expect(message.model).toBe('big');
    expect(await lastLog()).toMatchObject({ requested_model: 'alpha-claude', upstream_model: 'gpt-4.1', fallback_path: 'alpha-claude>big' });
  });

  it('a prompt past the catalogue’s context window skips the model before sending anything to it', async () => {
    await addRule({ model: 'small', fallbacks: ['big'], triggers: ['context_length'] });
    const override = await admin('PUT', '/api/catalogue/overrides/gpt-4.1-nano', { context_window: 40 });
    expect([200, 201]).toContain(override.status);
    try {
      const response = await chat('small', 'tell me everything about '.repeat(30));
      expect(response.status).toBe(200);
      expect(response.headers.get(MODELS_TRIED_HEADER)).toBe('small,big');
      await response.text();
      expect(modelCalls(simA)).toHaveLength(0);
      expect(await lastLog()).toMatchObject({ requested_model: 'small', upstream_model: 'gpt-4.1', fallback_path: 'small>big' });
      // A prompt that fits is sent to the small model.
      const fits = await chat('small', 'Hi');
      expect(fits.headers.get(SERVED_MODEL_HEADER)).toBe('small');
      await fits.text();
    } finally {
      await admin('DELETE', '/api/catalogue/overrides/gpt-4.1-nano');
    }
  });

  it('a 400 about the request (an invalid parameter) is answered as it is: no hop, whatever the triggers', async () => {
    await addRule({ model: 'alpha', fallbacks: ['beta'], triggers: ['rate_limited', 'upstream_error', 'timeout', 'no_channel', 'context_length', 'content_filtered'] });
    simA.failNext({ kind: 'status', status: 400 });
    const response = await chat('alpha');
    expect(response.status).toBe(400);
    expect(response.headers.get(MODELS_TRIED_HEADER)).toBe('alpha');
    expect(((await response.json()) as { error: { message: string } }).error.message).toContain('rejected by the simulator');
    expect(modelCalls(simB)).toHaveLength(0);
  });

  it('a request’s `models` entry outside the key’s allow-list is refused up front (403 naming it), an unknown one 404; nothing is sent', async () => {
    await patchToken(e2e.relay, e2e.tokenId, { models: ['alpha', 'ghost'] });
    try {
      const refused = await e2e.postChat({ models: ['alpha', 'beta'], messages: [{ role: 'user', content: 'Hi' }] });
      expect(refused.status).toBe(403);
      const { error } = (await refused.json()) as { error: { code: string; message: string } };
      expect(error.code).toBe('model_not_allowed');
      expect(error.message).toContain("'beta'");
      const unknown = await e2e.postChat({ model: 'alpha', fallbacks: ['ghost'], messages: [{ role: 'user', content: 'Hi' }] });
      expect(unknown.status).toBe(404);
      expect(((await unknown.json()) as { error: { message: string } }).error.message).toContain("'ghost'");
      expect(modelCalls(simA)).toHaveLength(0);
      expect(modelCalls(simB)).toHaveLength(0);
    } finally {
      await patchToken(e2e.relay, e2e.tokenId, { models: null });
    }
  });

  it('/api/fallbacks is the admin’s, validates what it stores, and answers 404 for a rule that is not there', async () => {
    const asToken = await fetch(`${e2e.url}/api/fallbacks`, { headers: { authorization: `Bearer ${e2e.token}` } });
    expect([401, 403]).toContain(asToken.status);
    expect((await admin('POST', '/api/fallbacks', { model: 'alpha', fallbacks: ['beta'], triggers: ['sometimes'] })).status).toBe(400);
    expect((await admin('POST', '/api/fallbacks', { model: 'alpha', fallbacks: [] })).status).toBe(400);
    const missing = await admin('GET', '/api/fallbacks/999999');
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as { error: { code: string } }).error.code).toBe('fallback_rule_not_found');
    expect((await admin('DELETE', '/api/fallbacks/999999')).status).toBe(404);
    // Repeats in a rule are left out, order kept.
    const rule = await addRule({ model: 'alpha', fallbacks: ['beta', 'big', 'beta'], triggers: ['timeout', 'timeout'] });
    expect(rule).toMatchObject({ fallbacks: ['beta', 'big'], triggers: ['timeout'] });
    expect(((await (await admin('GET', `/api/fallbacks/${rule.id}`)).json()) as FallbackRule).fallbacks).toEqual(['beta', 'big']);
  });
});
