import { startE2eRelay, SIM_KEY, type E2eRelay } from './e2e-relay';
import { signatureIsValid, startWebhookReceiver, type WebhookReceiver } from './webhooks-receiver';

const REVOKED_KEY = 'sk-revoked-key-0123456789';
const chat = (text: string) => ({ model: 'gpt-4o', max_tokens: 20, messages: [{ role: 'user', content: text }] });

describe('issue 32: channel events reach the webhooks', () => {
  jest.setTimeout(20_000);
  let e2e: E2eRelay;
  let receiver: WebhookReceiver;
  let secret: string;

  beforeEach(async () => {
    receiver = await startWebhookReceiver();
    // One caller's failures may open the circuit here (perCallerCap), and it cools down quickly.
    e2e = await startE2eRelay({ circuit: { perCallerCap: 4, coolDownMs: 300 }, env: { RELAY_WEBHOOK_RETRY_MS: '50' } });
    const created = await fetch(`${e2e.url}/api/webhooks`, {
      method: 'POST',
      headers: { authorization: `Bearer ${e2e.relay.adminKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ url: receiver.url, events: ['channel.circuit_opened', 'channel.circuit_closed', 'channel.key_disabled'] }),
    });
    secret = ((await created.json()) as { secret: string }).secret;
  });
  afterEach(async () => {
    await e2e.close();
    await receiver.close();
  });

  it("a circuit opened by the simulator's 503s is told once, and its closing after a passing trial", async () => {
    const sim = await e2e.startSim();
    const channel = await e2e.addChannel(sim.baseUrl, { name: 'flaky upstream' });
    for (let i = 0; i < 4; i++) expect((await e2e.postChat(chat('[sim:fault=status:503] hi'))).status).toBe(502);
    expect((await e2e.postChat(chat('Hello there'))).status).toBe(503);

    const [opened] = await receiver.waitFor(1);
    expect(opened?.body).toMatchObject({
      type: 'channel.circuit_opened',
      data: { channel_id: channel.id, channel_name: 'flaky upstream', key_hint: null, reason: null },
    });
    expect(opened && signatureIsValid(secret, opened)).toBe(true);

    await new Promise((resolve) => setTimeout(resolve, 350));
    expect((await e2e.postChat(chat('Hello there'))).status).toBe(200);
    const [, closed] = await receiver.waitFor(2);
    expect(closed?.body).toMatchObject({ type: 'channel.circuit_closed', data: { channel_id: channel.id } });
    expect(receiver.received.map((delivery) => delivery.body.type)).toEqual(['channel.circuit_opened', 'channel.circuit_closed']);
  });

  it('a key the upstream refused (401) is told by its hint and reason, never the key', async () => {
    const sim = await e2e.startSim();
    const channel = await e2e.addChannel(sim.baseUrl, { name: 'two keys', keys: [REVOKED_KEY, SIM_KEY] });
    expect((await e2e.postChat(chat('Hello there'))).status).toBe(200);

    const [disabled] = await receiver.waitFor(1);
    expect(disabled?.body).toMatchObject({
      type: 'channel.key_disabled',
      data: { channel_id: channel.id, channel_name: 'two keys', key_hint: '...6789', reason: expect.stringContaining('upstream_auth_failed') },
    });
    expect(disabled?.rawBody).not.toContain(REVOKED_KEY);
    expect(disabled?.rawBody).not.toContain(SIM_KEY);
  });
});
