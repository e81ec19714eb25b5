import { closedPort } from '../../../test/testing/closed-port';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { AnthropicErrorResponseSchema } from '@chat-relay/contract';
import type { UpstreamSim } from '@chat-relay/upstream-sim';
import { SIM_KEY, startE2eRelay, type E2eRelay } from '../../../test/e2e/e2e-relay';
import { patchToken } from '../../../test/testing/patch-token';

/**
 * `POST /v1/messages/count_tokens` through the relay: an `anthropic` channel counts; when it fails
 * (5xx, unreachable) the relay's tokenizer does; its 4xx is the caller's; nothing is charged.
 */
describe('POST /v1/messages/count_tokens', () => {
  let e2e: E2eRelay;
  let sim: UpstreamSim;
  let failing: http.Server;
  let failingCalls = 0;

  const prompt = (model: string) => ({
    model,
    system: [{ type: 'text', text: 'You answer with the weather.', cache_control: { type: 'ephemeral' } }],
    messages: [{ role: 'user', content: 'What is the weather in Paris today, and should I take an umbrella?' }],
    tools: [{ name: 'get_weather', description: 'Weather by city', input_schema: { type: 'object', properties: { city: { type: 'string' } } } }],
  });

  beforeAll(async () => {
    e2e = await startE2eRelay();
    sim = await e2e.startSim();
    failing = http.createServer((req, res) => {
      failingCalls += 1;
      req.resume();
      res.writeHead(503, { 'content-type': 'application/json' });
      res.end('{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}');
    });
    await new Promise<void>((resolve) => failing.listen(0, '127.0.0.1', resolve));
    const unreachablePort = await closedPort();

    await e2e.addChannel(sim.anthropicBaseUrl, { type: 'anthropic', models: ['claude-sonnet-4-5'] });
    await e2e.addChannel(`http://127.0.0.1:${(failing.address() as AddressInfo).port}/v1`, { type: 'anthropic', models: ['claude-haiku-4-5'] });
    await e2e.addChannel(`http://127.0.0.1:${unreachablePort}/v1`, { type: 'anthropic', models: ['claude-opus-4-1'] });
    await e2e.addChannel(sim.baseUrl, { type: 'openai', models: ['gpt-4o'] });
  });
  afterAll(async () => {
    await e2e.close();
    await new Promise<void>((resolve) => failing.close(() => resolve()));
  });
  beforeEach(() => sim.reset());

  const count = (body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${e2e.url}/v1/messages/count_tokens`, {
      method: 'POST',
      headers: { 'x-api-key': e2e.token, 'anthropic-version': '2023-06-01', 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });

  /** What the simulator itself answers to the same request, asked directly. */
  const simCount = (body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${sim.anthropicBaseUrl}/messages/count_tokens`, {
      method: 'POST',
      headers: { 'x-api-key': SIM_KEY, 'anthropic-version': '2023-06-01', 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });

  async function tokensOf(response: Response): Promise<number> {
    expect(response.status).toBe(200);
    const body = (await response.json()) as { input_tokens: number };
    expect(Object.keys(body)).toEqual(['input_tokens']);
    expect(Number.isInteger(body.input_tokens)).toBe(true);
    return body.input_tokens;
  }

  /** The tokenizer's count of a prompt: a model only an OpenAI channel serves is always counted so. */
  const tokenizerCount = async () => tokensOf(await count(prompt('gpt-4o')));

  it('returns the anthropic channel count as it is, the caller request forwarded with the channel key', async () => {
    const body = prompt('claude-sonnet-4-5');
    const relayed = await tokensOf(await count(body));
    expect(sim.requests).toHaveLength(1);
    const [forwarded] = sim.requests;
    expect(forwarded).toMatchObject({ method: 'POST', path: '/v1/messages/count_tokens', body });
    expect(forwarded?.headers['x-api-key']).toBe(SIM_KEY);
    expect(forwarded?.headers['x-api-key']).not.toBe(e2e.token);
    expect(relayed).toBe(await tokensOf(await simCount(body)));
    // The simulator counts otherwise than the relay's tokenizer: the count really is the channel's.
    expect(relayed).not.toBe(await tokenizerCount());
  });

  it('counts with the relay tokenizer when the anthropic channel answers 5xx: the same shape, more than 0', async () => {
    const before = failingCalls;
    const counted = await tokensOf(await count(prompt('claude-haiku-4-5')));
    expect(failingCalls).toBe(before + 1);
    expect(counted).toBeGreaterThan(0);
    expect(counted).toBe(await tokenizerCount());
  });

  it('counts with the relay tokenizer when the anthropic channel is unreachable', async () => {
    const counted = await tokensOf(await count(prompt('claude-opus-4-1')));
    expect(counted).toBeGreaterThan(0);
    expect(counted).toBe(await tokenizerCount());
  });

  it("a 400 from the channel is the caller's 400, in Anthropic's shape", async () => {
    const headers = { 'anthropic-beta': 'no-such-beta-2099-01-01' };
    const direct = await simCount(prompt('claude-sonnet-4-5'), headers);
    expect(direct.status).toBe(400);
    const upstreamMessage = AnthropicErrorResponseSchema.parse(await direct.json()).error.message;
    sim.reset();

    const response = await count(prompt('claude-sonnet-4-5'), headers);
    expect(response.status).toBe(400);
    expect(response.headers.get('request-id')).toBe(response.headers.get('x-request-id'));
    const body = AnthropicErrorResponseSchema.parse(await response.json());
    expect(body.error).toEqual({ type: 'invalid_request_error', message: upstreamMessage });
    expect(sim.requests.map((seen) => seen.anthropic?.betas)).toEqual([['no-such-beta-2099-01-01']]);
  });

  it('an unknown model is a 404 not_found_error, no channel asked', async () => {
    const response = await count(prompt('claude-nowhere'));
    expect(response.status).toBe(404);
    expect(AnthropicErrorResponseSchema.parse(await response.json()).error.type).toBe('not_found_error');
    expect(sim.requests).toEqual([]);
  });

  it('writes one usage row of its own endpoint, no tokens and a cost of 0 (a count is never charged nor counted as traffic)', async () => {
    const response = await count(prompt('claude-sonnet-4-5'));
    expect(await tokensOf(response)).toBeGreaterThan(0);
    const requestId = response.headers.get('x-request-id');
    const rows = await e2e.usageRows(1);
    const row = rows.find((entry) => entry.requestId === requestId);
    expect(row).toMatchObject({
      tokenId: e2e.tokenId,
      requestedModel: 'claude-sonnet-4-5',
      upstreamModel: 'claude-sonnet-4-5',
      status: 200,
      endpoint: 'count_tokens',
      promptTokens: 0,
      completionTokens: 0,
      cost: 0,
    });
    const token = await fetch(`${e2e.url}/api/tokens/${e2e.tokenId}`, { headers: { authorization: `Bearer ${e2e.relay.adminKey}` } });
    expect(((await token.json()) as { quota_used: number }).quota_used).toBe(0);
  });

  it('holds nothing against the token\'s tpm: counts beyond the limit still answer, and a chat still fits', async () => {
    await patchToken(e2e.relay, e2e.tokenId, { rate_limit: { tpm: 40 } });
    try {
      for (let i = 0; i < 5; i++) expect((await count(prompt('claude-sonnet-4-5'))).status).toBe(200);
      await e2e.usageRows(1);
      const chat = await fetch(`${e2e.url}/v1/messages`, {
        method: 'POST',
        headers: { 'x-api-key': e2e.token, 'anthropic-version': '2023-06-01', 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'claude-sonnet-4-5', max_tokens: 5, messages: [{ role: 'user', content: 'Hi' }] }),
      });
      expect(chat.status).toBe(200);
    } finally {
      await patchToken(e2e.relay, e2e.tokenId, { rate_limit: null });
    }
  });
});
