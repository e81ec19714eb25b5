import { ChannelTestResultSchema, type Channel } from '@chat-relay/contract';
import type { UpstreamSim } from '@chat-relay/upstream-sim';
import { SIM_KEY, startE2eRelay, type E2eRelay } from './e2e-relay';
import { startLeakyUpstream } from './leaky-upstream';

const LEAKY_KEY = 'lk_test/Zq+Pn4Wc8Rd1Hy5';

describe('issue 10 defect 13: POST /api/channels/{id}/test (SPEC §4)', () => {
  let e2e: E2eRelay;
  let sim: UpstreamSim;

  const testChannel = async (id: number, body: unknown = {}, key = e2e.relay.adminKey) => {
    const response = await fetch(`${e2e.url}/api/channels/${id}/test`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, text, json: JSON.parse(text) as unknown };
  };

  beforeEach(async () => {
    e2e = await startE2eRelay();
    sim = await e2e.startSim();
  });
  afterEach(() => e2e.close());

  it('sends one real minimal request with a model the channel serves and reports the latency', async () => {
    const channel = await e2e.addChannel(sim.baseUrl, { models: ['gpt-4o-mini*', 'gpt-4o'] });

    const answer = await testChannel(channel.id);

    expect(answer.status).toBe(200);
    const result = ChannelTestResultSchema.parse(answer.json);
    expect(result).toMatchObject({ ok: true, model: 'gpt-4o', status: 200 });
    expect(result.latency_ms).toBeGreaterThanOrEqual(0);
    // The model list was fetched when the glob channel was created; the test is one chat request.
    expect(sim.requests.map((sent) => `${sent.method} ${sent.path}`)).toEqual(['GET /v1/models', 'POST /v1/chat/completions']);
    expect(sim.requests[1]?.body).toMatchObject({ model: 'gpt-4o', max_tokens: 8 });
    // A test is no traffic: no usage row.
    expect(await e2e.relay.storage.usageLog.recent(5)).toEqual([]);
  });

  it('tests the model named in the body, and refuses one the channel does not serve', async () => {
    const channel = await e2e.addChannel(sim.baseUrl, { models: ['gpt-4o-mini*'] });

    expect((await testChannel(channel.id)).status).toBe(400);
    expect(ChannelTestResultSchema.parse((await testChannel(channel.id, { model: 'gpt-4o-mini-2024' })).json)).toMatchObject({
      ok: true,
      model: 'gpt-4o-mini-2024',
    });
    const refused = await testChannel(channel.id, { model: 'claude-opus-4' });
    expect(refused.status).toBe(400);
    expect(refused.json).toMatchObject({ error: { param: 'model' } });
  });

  it("answers the upstream's error with its status, the keys redacted, and changes nothing", async () => {
    const channel = await e2e.addChannel(sim.baseUrl, { keys: ['sk-revoked-key-0123456789'] });
    const refused = await testChannel(channel.id);
    expect(ChannelTestResultSchema.parse(refused.json)).toMatchObject({ ok: false, status: 401, error: { code: 'upstream_auth_failed' } });
    expect(refused.text).not.toContain('0123456789');
    const shown = (await (await fetch(`${e2e.url}/api/channels/${channel.id}`, { headers: { authorization: `Bearer ${e2e.relay.adminKey}` } })).json()) as Channel;
    expect(shown.key_status[0]?.status).toBe('active');

    const leaky = await startLeakyUpstream([LEAKY_KEY, LEAKY_KEY]);
    try {
      const quoting = await e2e.addChannel(leaky.baseUrl, { keys: [LEAKY_KEY] });
      const answer = await testChannel(quoting.id);
      expect(ChannelTestResultSchema.parse(answer.json)).toMatchObject({ ok: false, status: 400 });
      expect(answer.text).not.toContain('Pn4Wc8Rd1Hy5');
    } finally {
      await leaky.close();
    }
  });

  it('reports an unreachable upstream without a status', async () => {
    const channel = await e2e.addChannel('http://127.0.0.1:9/v1');
    expect(ChannelTestResultSchema.parse((await testChannel(channel.id)).json)).toMatchObject({
      ok: false,
      error: { code: 'upstream_unreachable' },
    });
  });

  it('is for the admin only', async () => {
    const channel = await e2e.addChannel(sim.baseUrl, { keys: [SIM_KEY] });
    const account = await fetch(`${e2e.url}/api/accounts`, {
      method: 'POST',
      headers: { authorization: `Bearer ${e2e.relay.adminKey}`, 'content-type': 'application/json' },
      body: '{"name":"tenant"}',
    });
    const accountKey = ((await account.json()) as { access_key: string }).access_key;
    expect((await testChannel(channel.id, {}, e2e.token)).status).toBe(403);
    expect((await testChannel(channel.id, {}, accountKey)).json).toMatchObject({ error: { code: 'admin_key_required' } });
    expect((await testChannel(9999)).status).toBe(404);
    expect(sim.requests).toHaveLength(0);
  });
});
