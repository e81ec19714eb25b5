import type { Channel, ChannelType } from '@chat-relay/contract';
import type { UpstreamSim } from '@chat-relay/upstream-sim';
import { SIM_KEY, startE2eRelay, type E2eRelay } from './e2e-relay';

const BAD_KEY = 'sk-revoked-key-0123456789';
const OTHER_BAD_KEY = 'sk-revoked-key-9876543210';

const PROVIDERS: Array<{ type: ChannelType; model: string; baseUrl: (sim: UpstreamSim) => string; keyHeader: string }> = [
  { type: 'openai', model: 'gpt-4o', baseUrl: (sim) => sim.baseUrl, keyHeader: 'authorization' },
  { type: 'anthropic', model: 'claude-sonnet-4-5', baseUrl: (sim) => sim.anthropicBaseUrl, keyHeader: 'x-api-key' },
  { type: 'gemini', model: 'gemini-2.5-flash', baseUrl: (sim) => sim.geminiBaseUrl, keyHeader: 'x-goog-api-key' },
];

describe('issue 10 defect 13: an upstream 401/403 disables the key (SPEC §6)', () => {
  let e2e: E2eRelay;
  let sim: UpstreamSim;

  const admin = (path: string, init: RequestInit = {}) =>
    fetch(`${e2e.url}${path}`, {
      ...init,
      headers: { authorization: `Bearer ${e2e.relay.adminKey}`, 'content-type': 'application/json' },
    });
  const getChannel = async (id: number): Promise<{ channel: Channel; text: string }> => {
    const text = await (await admin(`/api/channels/${id}`)).text();
    return { channel: JSON.parse(text) as Channel, text };
  };
  const keysSent = (header: string) => sim.requests.map((request) => String(request.headers[header] ?? ''));

  beforeEach(async () => {
    e2e = await startE2eRelay();
    sim = await e2e.startSim();
  });
  afterEach(() => e2e.close());

  it.each(PROVIDERS)('$type: the refused key leaves rotation, the request succeeds on the next key', async (provider) => {
    const channel = await e2e.addChannel(provider.baseUrl(sim), { type: provider.type, models: [provider.model], keys: [BAD_KEY, SIM_KEY] });
    const hello = { model: provider.model, max_tokens: 50, messages: [{ role: 'user', content: 'Hello there' }] };

    const first = await e2e.postChat(hello);
    expect(first.status).toBe(200);
    for (let i = 0; i < 3; i++) expect((await e2e.postChat(hello)).status).toBe(200);

    expect(keysSent(provider.keyHeader).filter((sent) => sent.includes(BAD_KEY))).toHaveLength(1);
    const [row] = await e2e.usageRows(1);
    expect(row).toMatchObject({ status: 200, attempts: 2 });
    const { channel: shown, text } = await getChannel(channel.id);
    expect(shown.key_status).toEqual([
      { index: 0, hint: '...6789', status: 'disabled', reason: expect.stringContaining('upstream_auth_failed'), changed_at: expect.any(String) },
      { index: 1, hint: `...${SIM_KEY.slice(-4)}`, status: 'active', reason: null, changed_at: null },
    ]);
    expect(shown.has_active_key).toBe(true);
    expect(text).not.toContain(BAD_KEY);
    expect(text).not.toContain(SIM_KEY);
  });

  it('with every key disabled the channel is out of rotation (503) until the admin re-enables one', async () => {
    const channel = await e2e.addChannel(sim.baseUrl, { keys: [BAD_KEY, OTHER_BAD_KEY] });
    const hello = { model: 'gpt-4o', messages: [{ role: 'user', content: 'Hello there' }] };

    const refused = await e2e.postChat(hello);
    expect(refused.status).toBe(502);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('upstream_auth_failed');
    expect(sim.requests).toHaveLength(2);
    const out = await e2e.postChat(hello);
    expect(out.status).toBe(503);
    expect(sim.requests).toHaveLength(2);
    expect((await getChannel(channel.id)).channel).toMatchObject({
      has_active_key: false,
      key_status: [{ status: 'disabled' }, { status: 'disabled' }],
    });

    // Re-enabled by position: back in rotation (and refused again by this upstream).
    const patched = await admin(`/api/channels/${channel.id}`, { method: 'PATCH', body: JSON.stringify({ enable_keys: [1] }) });
    expect(((await patched.json()) as Channel).key_status.map((key) => key.status)).toEqual(['disabled', 'active']);
    expect((await e2e.postChat(hello)).status).toBe(502);
    expect(sim.requests).toHaveLength(3);

    // Keys sent again start active: a working key replaces the refused ones.
    const replaced = await admin(`/api/channels/${channel.id}`, { method: 'PATCH', body: JSON.stringify({ keys: [BAD_KEY, SIM_KEY] }) });
    expect(((await replaced.json()) as Channel).key_status.map((key) => key.status)).toEqual(['active', 'active']);
    expect((await e2e.postChat(hello)).status).toBe(200);
  });

  it('a position past the keys is a 400 naming enable_keys', async () => {
    const channel = await e2e.addChannel(sim.baseUrl);
    const response = await admin(`/api/channels/${channel.id}`, { method: 'PATCH', body: JSON.stringify({ enable_keys: [5] }) });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { param: string } }).error.param).toBe('enable_keys');
  });
});
