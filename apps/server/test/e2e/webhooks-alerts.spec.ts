import { WebhookEventSchema } from '@chat-relay/contract';
import { currentWindow } from '../../src/core/limit-windows';
import { usageEntry } from '../testing/system-api';
import { startRelayWithSim, type E2eRelayWithSim } from './e2e-relay';
import { signatureIsValid, startWebhookReceiver, type WebhookReceiver } from './webhooks-receiver';

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
    const zone = 'America/New_York';
    await e2e.relay.storage.tokens.update(e2e.tokenId, { periodicLimits: [{ period: 'day', metric: 'requests', limit: 5 }], timeZone: zone, alertThresholds: [80] });
    const accountId = (await e2e.relay.storage.tokens.get(e2e.tokenId))?.accountId ?? 0;
    const window = currentWindow('day', zone, Date.now());
    // What the pipeline does per request (reserve-quota.ts, once the periodic limits are wired in): a
    // reservation counting in the token's current window, then the usage row that settles it.
    const request = async (n: number) => {
      const requestId = `req-window-${n}`;
      const windows = [{ owner: 'token' as const, ownerId: e2e.tokenId, period: 'day' as const, start: window.start, limits: { cost: null, requests: 5, tokens: null } }];
      const reserved = await e2e.relay.storage.quota.reserve({ requestId, tokenId: e2e.tokenId, accountId, amount: 0, windows, tokens: 10 });
      if (reserved.ok) e2e.relay.services.recorder.record(usageEntry({ requestId, tokenId: e2e.tokenId, accountId, promptTokens: 6, completionTokens: 4, windowsReserved: true }));
      await e2e.relay.services.recorder.flush();
      return reserved.ok;
    };

    for (let n = 1; n <= 3; n++) expect(await request(n)).toBe(true);
    await settle();
    expect(receiver.received).toHaveLength(0);
    expect(await request(4)).toBe(true); // 4 of 5: 80 %
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

    expect(await request(5)).toBe(true);
    expect(await request(6)).toBe(false); // the window is full: refused, and nothing more to tell
    await settle();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(receiver.received).toHaveLength(1);
  });
});
