import { WebhookEventSchema } from '@chat-relay/contract';
import { currentWindow } from '../../src/core/limit-windows';
import { startRelayWithSim, type E2eRelayWithSim } from './e2e-relay';
import { signatureIsValid, startWebhookReceiver, type WebhookReceiver } from './webhooks-receiver';

/**
 * A zone whose day is not about to turn (the signature carries real time, so the relay keeps the
 * system clock): the window cannot change while the spec runs.
 */
const zone = ['America/New_York', 'Asia/Tokyo', 'Europe/London'].find((candidate) => {
  const window = currentWindow('day', candidate, Date.now());
  return Date.now() - window.startsAtMs > 3_600_000 && window.resetsAtMs - Date.now() > 3_600_000;
}) as string;

const hello = { model: 'gpt-4o', max_tokens: 20, messages: [{ role: 'user', content: 'Hello there' }] };

describe('issue 32: a threshold alert arrives once, signed', () => {
  jest.setTimeout(20_000);
  let e2e: E2eRelayWithSim;
  let receiver: WebhookReceiver;

  const admin = (path: string, method = 'GET', body?: unknown) =>
    fetch(`${e2e.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${e2e.relay.adminKey}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  /** Usage written, its threshold pass over, due deliveries sent: what the timers do, now. */
  const settle = async () => {
    await e2e.relay.services.recorder.flush();
    await e2e.relay.services.alerts.limits.settled();
    await e2e.relay.services.alerts.worker.sweep();
  };

  beforeEach(async () => {
    receiver = await startWebhookReceiver();
    e2e = await startRelayWithSim({}, { env: { RELAY_WEBHOOK_RETRY_MS: '50' } });
  });
  afterEach(async () => {
    await e2e.close();
    await receiver.close();
  });

  it("a token crossing 80 % of its lifetime quota: one limit.threshold event, signed with the secret shown at create, never again for that crossing", async () => {
    const created = await admin('/api/webhooks', 'POST', { url: receiver.url, events: ['limit.threshold'] });
    expect(created.status).toBe(201);
    const webhook = (await created.json()) as { id: number; secret: string; secret_hint: string };
    expect(webhook.secret).toMatch(/^whsec_[0-9A-Za-z]{32}$/);
    expect(webhook.secret_hint).toBe(`...${webhook.secret.slice(-4)}`);
    const listed = await (await admin('/api/webhooks')).text();
    expect(listed).not.toContain(webhook.secret);

    // One micro-dollar short of 80 % of $1: the next priced request crosses it.
    expect((await admin(`/api/tokens/${e2e.tokenId}`, 'PATCH', { quota_limit: 1_000_000, quota_used: 799_999 })).status).toBe(200);
    expect((await e2e.postChat(hello)).status).toBe(200);
    await settle();
    const [delivery] = await receiver.waitFor(1);
    if (!delivery) throw new Error('no delivery');

    expect(signatureIsValid(webhook.secret, delivery)).toBe(true);
    expect(signatureIsValid(`${webhook.secret}x`, delivery)).toBe(false);
    const event = WebhookEventSchema.parse(delivery.body);
    expect(delivery.headers['content-type']).toBe('application/json');
    expect(delivery.headers['x-relay-event-id']).toBe(event.id);
    expect(delivery.headers['x-relay-event']).toBe('limit.threshold');
    expect(event).toMatchObject({
      type: 'limit.threshold',
      data: { owner: 'token', token_id: e2e.tokenId, name: 'e2e', window: 'lifetime', limit: 1_000_000, threshold: 80 },
    });
    const data = event.data as { used: number; ratio: number };
    expect(data.used).toBeGreaterThan(799_999);
    expect(data.ratio).toBeGreaterThanOrEqual(0.8);

    // More usage past 80 %: the crossing is not told again.
    for (let i = 0; i < 2; i++) expect((await e2e.postChat(hello)).status).toBe(200);
    await settle();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(receiver.received).toHaveLength(1);

    const deliveries = (await (await admin(`/api/webhooks/deliveries?webhook_id=${webhook.id}`)).json()) as { total: number; data: unknown[] };
    expect(deliveries.total).toBe(1);
    expect(deliveries.data[0]).toMatchObject({ status: 'delivered', attempts: 1, last_status: 200, event_id: event.id });
    const metrics = await (await admin('/metrics')).text();
    expect(metrics).toMatch(/relay_webhook_deliveries_total\{outcome="delivered"\} 1\b/);
  });

  it("a token crossing 80 % of its daily window (requests, in its own time zone): one event naming the window, signed; not again in that window", async () => {
    const { secret } = (await (await admin('/api/webhooks', 'POST', { url: receiver.url })).json()) as { secret: string };
    const patched = await admin(`/api/tokens/${e2e.tokenId}`, 'PATCH', {
      periodic_limits: [{ period: 'day', metric: 'requests', limit: 5 }],
      time_zone: zone,
      alert_thresholds: [80],
    });
    expect(patched.status).toBe(200);
    const window = currentWindow('day', zone, Date.now());

    // Real requests: each reserves in the token's window, its usage row settles it, the alert pass reads it.
    for (let n = 1; n <= 3; n++) expect((await e2e.postChat(hello)).status).toBe(200);
    await settle();
    expect(receiver.received).toHaveLength(0);
    expect((await e2e.postChat(hello)).status).toBe(200); // 4 of 5: 80 %
    await settle();
    const [delivery] = await receiver.waitFor(1);
    if (!delivery) throw new Error('no delivery');
    expect(signatureIsValid(secret, delivery)).toBe(true);
    expect(delivery.body).toMatchObject({
      type: 'limit.threshold',
      data: {
        owner: 'token',
        token_id: e2e.tokenId,
        window: {
          period: 'day',
          metric: 'requests',
          time_zone: zone,
          starts_at: new Date(window.startsAtMs).toISOString(),
          resets_at: new Date(window.resetsAtMs).toISOString(),
        },
        used: 4,
        limit: 5,
        ratio: 0.8,
        threshold: 80,
      },
    });

    expect((await e2e.postChat(hello)).status).toBe(200);
    // The window is full: refused, and nothing more to tell.
    expect((await e2e.postChat(hello)).status).toBe(429);
    await settle();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(receiver.received).toHaveLength(1);
  });
});
