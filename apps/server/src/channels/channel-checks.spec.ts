import { Writable } from 'node:stream';
import { ChannelSchema, ChannelTestResultSchema, type Channel } from '@chat-relay/contract';
import type { UpstreamSim } from '@chat-relay/upstream-sim';
import { SIM_KEY, startE2eRelay, type E2eRelay } from '../../test/e2e/e2e-relay';
import { createLogger } from '../logger';

/** A key the simulator never accepts. */
const REFUSED_KEY = 'sk-revoked-key-0123456789';
const hello = { model: 'gpt-4o', max_tokens: 20, messages: [{ role: 'user', content: 'Hello there' }] };

describe('issue 16: the scheduled channel check', () => {
  let e2e: E2eRelay;
  let sim: UpstreamSim;
  const logLines: string[] = [];

  const admin = (path: string, init: RequestInit = {}) =>
    fetch(`${e2e.url}${path}`, { ...init, headers: { authorization: `Bearer ${e2e.relay.adminKey}`, 'content-type': 'application/json' } });
  const getChannel = async (id: number): Promise<Channel> => ChannelSchema.parse(await (await admin(`/api/channels/${id}`)).json());
  const checks = () => e2e.relay.services.channelChecks;
  const chatRequests = () => sim.requests.filter((sent) => sent.path === '/v1/chat/completions');
  const bearerOf = (index: number) => String(chatRequests()[index]?.headers['authorization'] ?? '');
  /** Disables the channel's only key as routing does: the upstream answers one request 401. */
  const disableOnlyKey = async () => {
    sim.failNext({ kind: 'status', status: 401 });
    expect((await e2e.postChat(hello)).status).toBe(502);
  };

  beforeEach(async () => {
    logLines.length = 0;
    const logged = new Writable({ write: (chunk: Buffer, _encoding, callback) => (logLines.push(chunk.toString()), callback()) });
    e2e = await startE2eRelay({ logger: createLogger('info', logged) });
    sim = await e2e.startSim();
  });
  afterEach(() => e2e.close());

  it('re-enables a key disabled by a 401 once the upstream accepts it again, and logs it without the key', async () => {
    const channel = await e2e.addChannel(sim.baseUrl, { keys: [SIM_KEY] });
    await disableOnlyKey();
    expect(await getChannel(channel.id)).toMatchObject({ has_active_key: false, key_status: [{ status: 'disabled' }] });
    expect((await e2e.postChat(hello)).status).toBe(503);

    expect(await checks().runOnce()).toEqual({ channelsChecked: 1, circuitsClosed: 0, keysReEnabled: 1 });

    const shown = await getChannel(channel.id);
    expect(shown.key_status).toEqual([{ index: 0, hint: `...${SIM_KEY.slice(-4)}`, status: 'active', reason: null, changed_at: expect.any(String) }]);
    expect(shown.last_check).toMatchObject({ ok: true, status: 200, model: 'gpt-4o', trigger: 'scheduled' });
    expect(bearerOf(1)).toBe(`Bearer ${SIM_KEY}`);
    expect(chatRequests()[1]?.body).toMatchObject({ model: 'gpt-4o', max_tokens: 8 });
    expect((await e2e.postChat(hello)).status).toBe(200);

    const reEnabled = logLines.filter((line) => line.includes('channel key re-enabled'));
    expect(reEnabled).toHaveLength(1);
    expect(JSON.parse(reEnabled[0] ?? '{}')).toMatchObject({ level: 30, channelId: channel.id, keyIndex: 0 });
    expect(logLines.join('')).not.toContain(SIM_KEY);
  });

  it('keeps a key disabled while the upstream still refuses it: the latest refusal becomes the reason', async () => {
    const channel = await e2e.addChannel(sim.baseUrl, { keys: [REFUSED_KEY, SIM_KEY] });
    expect((await e2e.postChat(hello)).status).toBe(200);
    const disabled = (await getChannel(channel.id)).key_status[0];
    expect(disabled).toMatchObject({ status: 'disabled', reason: expect.stringContaining('status 401') });

    // Refused again (401): tested with that key alone, and nothing changes.
    expect(await checks().runOnce()).toEqual({ channelsChecked: 1, circuitsClosed: 0, keysReEnabled: 0 });
    expect(bearerOf(chatRequests().length - 1)).toBe(`Bearer ${REFUSED_KEY}`);
    let shown = await getChannel(channel.id);
    expect(shown.key_status[0]).toEqual(disabled);
    expect(shown.key_status[1]?.status).toBe('active');
    expect(shown.last_check).toMatchObject({ ok: false, status: 401, trigger: 'scheduled', error: { code: 'upstream_auth_failed' } });

    // The working key, disabled by one 401; the check meets a 403: still out, with the 403 as the reason.
    await admin(`/api/channels/${channel.id}`, { method: 'PATCH', body: JSON.stringify({ keys: [SIM_KEY] }) });
    await disableOnlyKey();
    const before = (await getChannel(channel.id)).key_status[0];
    sim.failNext({ kind: 'status', status: 403 });
    await checks().runOnce();
    shown = await getChannel(channel.id);
    expect(shown.key_status[0]).toEqual({ ...before, reason: expect.stringContaining('status 403') });
    expect(shown.key_status[0]?.changed_at).toBe(before?.changed_at);

    // A failure that says nothing of the key (a 500) leaves it as it is.
    sim.failNext({ kind: 'status', status: 500 });
    await checks().runOnce();
    expect((await getChannel(channel.id)).key_status[0]).toEqual(shown.key_status[0]);
    expect((await e2e.postChat(hello)).status).toBe(503);
  });

  it('closes an open circuit when its check passes; a failing check leaves it open', async () => {
    const second = await (await admin('/api/tokens', { method: 'POST', body: JSON.stringify({ name: 'second' }) })).json();
    const channel = await e2e.addChannel(sim.baseUrl);
    for (const token of [e2e.token, (second as { key: string }).key]) {
      for (let i = 0; i < 2; i++) {
        sim.failNext({ kind: 'status', status: 503 });
        expect((await e2e.postChat(hello, { authorization: `Bearer ${token}` })).status).toBe(502);
      }
    }
    expect((await getChannel(channel.id)).health.state).toBe('open');

    sim.failNext({ kind: 'status', status: 500 });
    expect(await checks().runOnce()).toEqual({ channelsChecked: 1, circuitsClosed: 0, keysReEnabled: 0 });
    expect((await getChannel(channel.id)).health.state).toBe('open');
    expect((await e2e.postChat(hello)).status).toBe(503);

    expect(await checks().runOnce()).toEqual({ channelsChecked: 1, circuitsClosed: 1, keysReEnabled: 0 });
    expect(await getChannel(channel.id)).toMatchObject({ health: { state: 'closed' }, last_check: { ok: true, trigger: 'scheduled' } });
    expect((await e2e.postChat(hello)).status).toBe(200);
    expect(logLines.some((line) => line.includes('channel circuit closed'))).toBe(true);
    // Nothing is due any more: the next round sends nothing.
    const sent = sim.requests.length;
    expect(await checks().runOnce()).toEqual({ channelsChecked: 0, circuitsClosed: 0, keysReEnabled: 0 });
    expect(sim.requests).toHaveLength(sent);
  });

  it('never tests nor re-enables a channel the admin disabled', async () => {
    const channel = await e2e.addChannel(sim.baseUrl, { keys: [SIM_KEY] });
    await disableOnlyKey();
    await admin(`/api/channels/${channel.id}`, { method: 'PATCH', body: JSON.stringify({ enabled: false }) });
    const sent = sim.requests.length;

    expect(await checks().runOnce()).toEqual({ channelsChecked: 0, circuitsClosed: 0, keysReEnabled: 0 });

    expect(sim.requests).toHaveLength(sent);
    expect(await getChannel(channel.id)).toMatchObject({ enabled: false, key_status: [{ status: 'disabled' }], last_check: null });
  });

  it('shows the last test as last_check: manual after the test route, scheduled after a round', async () => {
    const channel = await e2e.addChannel(sim.baseUrl, { keys: [SIM_KEY] });
    expect((await getChannel(channel.id)).last_check).toBeNull();

    const tested = await admin(`/api/channels/${channel.id}/test`, { method: 'POST', body: '{}' });
    const result = ChannelTestResultSchema.parse(await tested.json());
    const manual = { ...result, trigger: 'manual', at: expect.any(String) };
    const manualShown = (await getChannel(channel.id)).last_check;
    expect(manualShown).toEqual(manual);
    const listed = (await (await admin('/api/channels')).json()) as { data: Channel[] };
    expect(listed.data[0]?.last_check).toEqual(manual);
    const patched = (await (await admin(`/api/channels/${channel.id}`, { method: 'PATCH', body: '{"weight":2}' })).json()) as Channel;
    expect(patched.last_check).toEqual(manual);

    await disableOnlyKey();
    sim.failNext({ kind: 'status', status: 401 });
    await checks().runOnce();
    const scheduled = (await getChannel(channel.id)).last_check;
    expect(scheduled).toMatchObject({ ok: false, status: 401, trigger: 'scheduled' });
    expect(Date.parse(scheduled?.at ?? '')).toBeGreaterThanOrEqual(Date.parse(manualShown?.at ?? ''));
  });

  it('tests one key alone when the admin names it (key_index), a position past the keys is refused', async () => {
    const channel = await e2e.addChannel(sim.baseUrl, { keys: [SIM_KEY, REFUSED_KEY] });
    const test = (body: unknown) => admin(`/api/channels/${channel.id}/test`, { method: 'POST', body: JSON.stringify(body) });

    expect(await (await test({ key_index: 1 })).json()).toMatchObject({ ok: false, status: 401 });
    expect(bearerOf(0)).toBe(`Bearer ${REFUSED_KEY}`);
    expect(await (await test({ key_index: 0 })).json()).toMatchObject({ ok: true });
    const refused = await test({ key_index: 2 });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ error: { param: 'key_index' } });
    // A manual test changes nothing: the refused key is still active.
    expect((await getChannel(channel.id)).key_status.map((key) => key.status)).toEqual(['active', 'active']);
  });

  it('joins a round under way instead of starting a second one: one check per channel at a time', async () => {
    await e2e.addChannel(sim.baseUrl, { keys: [SIM_KEY] });
    await disableOnlyKey();
    const sent = chatRequests().length;

    const [first, second] = await Promise.all([checks().runOnce(), checks().runOnce()]);

    expect(first).toEqual({ channelsChecked: 1, circuitsClosed: 0, keysReEnabled: 1 });
    expect(second).toBe(first);
    expect(chatRequests()).toHaveLength(sent + 1);
  });
});
