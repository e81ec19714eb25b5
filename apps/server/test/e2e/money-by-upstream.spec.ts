import { readFixture } from '../testing/fixtures';
import { ANTHROPIC_VERSION } from './anthropic-e2e';
import { SIM_KEY, startE2eRelay, type E2eRelay } from './e2e-relay';
import { postGemini } from './gemini-e2e';
import type { UpstreamSim } from '@chat-relay/upstream-sim';

/**
 * Issue 28, "money exact by the model that served" (defects 5 and 6): a request is priced by the
 * upstream model its channel sends (an alias priced on purpose excepted), a model nobody priced
 * is refused before any upstream call in the caller's dialect, and the reservation is a realistic
 * bound that admits a Claude Code turn on $0.30.
 */
describe('e2e: money by the model that served', () => {
  let e2e: E2eRelay;
  let sim: UpstreamSim;

  beforeEach(async () => {
    // The relay's default: an unpriced model is refused (the harness serves them free otherwise).
    e2e = await startE2eRelay({ env: { RELAY_UNPRICED_MODELS: 'refuse' } });
    sim = await e2e.startSim();
  });
  afterEach(() => e2e.close());

  const admin = (method: string, path: string, body?: unknown) =>
    fetch(`${e2e.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${e2e.relay.adminKey}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  const setLimit = (quotaLimit: number | null) => e2e.relay.storage.tokens.update(e2e.tokenId, { quotaLimit, quotaUsed: 0 });
  const chat = (model: string) => e2e.postChat({ model, max_tokens: 20, messages: [{ role: 'user', content: 'Hello there' }] });
  const modelCalls = () => sim.requests.filter((request) => request.method === 'POST').length;
  /** The table as seeded plus `entries` first. */
  const priceTable = async (entries: unknown[]) => {
    const seeded = (await (await admin('GET', '/api/prices')).json()) as { data: unknown[] };
    const response = await admin('PUT', '/api/prices', { data: [...entries, ...seeded.data] });
    expect(response.status).toBe(200);
  };
  const lastLog = async () => {
    await e2e.usageRows(1);
    const page = (await (await admin('GET', '/api/logs?per_page=1')).json()) as { data: Array<Record<string, unknown>> };
    return page.data[0]!;
  };
  /** Micro-USD, rounded up once, of tokens at prices per million. */
  const micro = (promptTokens: number, input: number, completionTokens: number, output: number) => Math.ceil((promptTokens * input + completionTokens * output) / 1_000_000);

  it('bills gpt-4o served under a claude-* alias at gpt-4o’s price, and /api/logs says which price applied', async () => {
    await e2e.addChannel(sim.baseUrl, { models: ['claude-sonnet-4-5'], model_mapping: { 'claude-sonnet-4-5': 'gpt-4o' } });
    const response = await chat('claude-sonnet-4-5');
    expect(response.status).toBe(200);
    await response.text();
    const log = await lastLog();
    expect(log).toMatchObject({ requested_model: 'claude-sonnet-4-5', upstream_model: 'gpt-4o', priced_by: 'gpt-4o* (table)' });
    // The seeded table: gpt-4o* at $2.50 / $10 per million (claude-sonnet-4* would be $3 / $15).
    expect(log['cost']).toBe(micro(log['prompt_tokens'] as number, 2_500_000, log['completion_tokens'] as number, 10_000_000));
    expect(log['cost']).not.toBe(micro(log['prompt_tokens'] as number, 3_000_000, log['completion_tokens'] as number, 15_000_000));
  });

  it('prices an alias at its own entry when the operator priced the alias itself', async () => {
    await priceTable([{ model: 'house-alias', input: 7_000_000, output: 9_000_000 }]);
    await e2e.addChannel(sim.baseUrl, { models: ['house-alias'], model_mapping: { 'house-alias': 'gpt-4o' } });
    const response = await chat('house-alias');
    await response.text();
    const log = await lastLog();
    expect(log['priced_by']).toBe('house-alias (table, alias)');
    expect(log['cost']).toBe(micro(log['prompt_tokens'] as number, 7_000_000, log['completion_tokens'] as number, 9_000_000));
  });

  it('refuses an unpriced model before any upstream call, in each caller’s dialect (a token with quota_limit 1 included)', async () => {
    await e2e.addChannel(sim.baseUrl, { models: ['house-model', 'house-embed'] });
    await setLimit(1);
    for (let round = 0; round < 3; round += 1) {
      const refused = await chat('house-model');
      expect(refused.status).toBe(403);
      const { error } = (await refused.json()) as { error: Record<string, unknown> };
      expect(error).toMatchObject({ type: 'invalid_request_error', code: 'model_price_not_set', param: 'model' });
      expect(error['message']).toContain("'house-model'");
      expect(error['message']).toContain('PUT /api/prices');
    }
    const anthropic = await fetch(`${e2e.url}/v1/messages`, {
      method: 'POST',
      headers: { 'x-api-key': e2e.token, 'anthropic-version': ANTHROPIC_VERSION, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'house-model', max_tokens: 20, messages: [{ role: 'user', content: 'Hi' }] }),
    });
    expect(anthropic.status).toBe(403);
    expect(await anthropic.json()).toMatchObject({ type: 'error', error: { type: 'permission_error' } });
    const gemini = await postGemini(e2e, 'house-model:generateContent', { contents: [{ role: 'user', parts: [{ text: 'Hi' }] }] });
    expect(gemini.status).toBe(403);
    expect(await gemini.json()).toMatchObject({ error: { code: 403, status: 'PERMISSION_DENIED' } });
    // Endpoints beside chat: the same rule in the same place.
    const embeddings = await fetch(`${e2e.url}/v1/embeddings`, {
      method: 'POST',
      headers: { authorization: `Bearer ${e2e.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'house-embed', input: 'hello' }),
    });
    expect(embeddings.status).toBe(403);
    expect(((await embeddings.json()) as { error: { code: string } }).error.code).toBe('model_price_not_set');
    expect(modelCalls()).toBe(0);
  });

  it('charges gemini-3.1-pro-preview (in the catalogue) its list price, and a token with quota_limit 1 cannot run it', async () => {
    await e2e.addChannel(sim.baseUrl, { models: ['gemini-3.1-pro-preview'] });
    const served = await chat('gemini-3.1-pro-preview');
    expect(served.status).toBe(200);
    await served.text();
    const log = await lastLog();
    expect(log['priced_by']).toBe('gemini-3.1-pro-preview (catalogue)');
    // models.dev's list price: $2 input, $12 output per million.
    expect(log['cost']).toBe(micro(log['prompt_tokens'] as number, 2_000_000, log['completion_tokens'] as number, 12_000_000));
    expect(log['cost']).toBeGreaterThan(0);

    const calls = modelCalls();
    await setLimit(1);
    const statuses = [];
    for (let round = 0; round < 3; round += 1) {
      const response = await chat('gemini-3.1-pro-preview');
      statuses.push(response.status);
      await response.text();
    }
    expect(statuses).toEqual([429, 429, 429]);
    expect(modelCalls()).toBe(calls);
  });

  it('serves a model an entry marks free, or every unpriced model when the install says so, for nothing', async () => {
    await e2e.addChannel(sim.baseUrl, { models: ['house-model'] });
    await priceTable([{ model: 'house-model', free: true }]);
    const response = await chat('house-model');
    expect(response.status).toBe(200);
    await response.text();
    expect(await lastLog()).toMatchObject({ cost: 0, priced_by: 'house-model (table, free)' });

    const selfHosted = await startE2eRelay({ env: { RELAY_UNPRICED_MODELS: 'free' } });
    try {
      await selfHosted.addChannel(sim.baseUrl, { models: ['house-model'] });
      const free = await selfHosted.postChat({ model: 'house-model', messages: [{ role: 'user', content: 'Hi' }] });
      expect(free.status).toBe(200);
      await free.text();
      expect((await selfHosted.usageRows(1))[0]).toMatchObject({ cost: 0, pricedBy: null });
    } finally {
      await selfHosted.close();
    }
  });

  it('takes a price entry with only the units that apply, and does not serve tokens on it for nothing', async () => {
    await priceTable([{ model: 'house-video', video_second: 100_000 }]);
    const table = (await (await admin('GET', '/api/prices')).json()) as { data: Array<Record<string, unknown>> };
    expect(table.data[0]).toEqual({ model: 'house-video', cache_read: null, cache_write: null, video_second: 100_000 });
    // Both token prices or neither: one alone is a mistake.
    expect((await admin('PUT', '/api/prices', { data: [{ model: 'half', input: 1 }] })).status).toBe(400);
    await e2e.addChannel(sim.baseUrl, { models: ['house-video'] });
    const refused = await chat('house-video');
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('model_price_not_set');
  });

  it('admits a Claude Code turn (claude-sonnet-4-5, max_tokens 32000, thinking, cache_control) on a token with $0.30 left', async () => {
    await e2e.addChannel(sim.anthropicBaseUrl, { type: 'anthropic', models: ['claude-sonnet-4-5'], keys: [SIM_KEY] });
    const post = () =>
      fetch(`${e2e.url}/v1/messages?beta=true`, {
        method: 'POST',
        headers: { 'x-api-key': e2e.token, 'anthropic-version': ANTHROPIC_VERSION, 'content-type': 'application/json' },
        body: readFixture('anthropic-inbound/claude-code-request.json'),
      });
    // What it reserves, as the refusal on a quota of 1 micro-USD says it.
    await setLimit(1);
    const refused = await post();
    expect(refused.status).toBe(402);
    const { error } = (await refused.json()) as { error: { message: string } };
    const reserved = Math.round(Number(/reserves (\d+\.\d{6}) USD/.exec(error.message)?.[1]) * 1_000_000);
    expect(reserved).toBeGreaterThan(100_000);
    expect(reserved).toBeLessThan(300_000);
    console.info(`Claude Code turn (claude-sonnet-4-5, max_tokens 32000): reserves ${reserved} µUSD`);
    await e2e.usageRows(1);
    await setLimit(300_000);
    const response = await post();
    const text = await response.text();
    expect({ status: response.status, text: response.status === 200 ? '' : text }).toEqual({ status: 200, text: '' });
    const [, row] = await e2e.usageRows(2);
    expect(row?.cost).toBeGreaterThan(0);
    expect(row?.cost).toBeLessThanOrEqual(300_000);
  });
});
