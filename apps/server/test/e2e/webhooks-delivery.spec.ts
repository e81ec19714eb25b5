import { startRelayWithSim, type E2eRelayWithSim } from './e2e-relay';
import { signatureIsValid, startWebhookReceiver, type WebhookReceiver } from './webhooks-receiver';

/** Long enough that a request waiting on a delivery would show it, even on a loaded machine. */
const TIMEOUT_MS = 1_500;
const hello = { model: 'gpt-4o', max_tokens: 20, messages: [{ role: 'user', content: 'Hello there' }] };

describe('issue 32: webhook deliveries are retried, and never slow a relayed request', () => {
  jest.setTimeout(20_000);
  let e2e: E2eRelayWithSim;
  const receivers: WebhookReceiver[] = [];

  const admin = (path: string, method = 'GET', body?: unknown) =>
    fetch(`${e2e.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${e2e.relay.adminKey}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  const receiver = async (options: Parameters<typeof startWebhookReceiver>[0]) => {
    const started = await startWebhookReceiver(options);
    receivers.push(started);
    return started;
  };
  const delivery = async (id: number) => {
    const page = (await (await admin('/api/webhooks/deliveries?per_page=100')).json()) as { data: Array<{ id: number } & Record<string, unknown>> };
    return page.data.find((row) => row.id === id);
  };

  beforeEach(async () => {
    e2e = await startRelayWithSim({}, { env: { RELAY_WEBHOOK_RETRY_MS: '40', RELAY_WEBHOOK_TIMEOUT_MS: String(TIMEOUT_MS), RELAY_WEBHOOK_MAX_ATTEMPTS: '2' } });
  });
  afterEach(async () => {
    await e2e.close();
    await Promise.all(receivers.splice(0).map((started) => started.close()));
  });

  it('a receiver answering 500, then 200: the test event is delivered on the retry, with the same event id, signed both times', async () => {
    const flaky = await receiver({ statuses: [500, 200] });
    const { id, secret } = (await (await admin('/api/webhooks', 'POST', { url: flaky.url, secret: 'my-own-secret-0123456789' })).json()) as { id: number; secret: string };
    expect(secret).toBe('my-own-secret-0123456789');

    const queued = await admin(`/api/webhooks/${id}/test`, 'POST');
    expect(queued.status).toBe(202);
    const pending = (await queued.json()) as { id: number; status: string; event_id: string; event: { id: string; type: string } };
    expect(pending).toMatchObject({ status: 'pending', attempts: 0, event: { type: 'test' } });

    const [first, second] = await flaky.waitFor(2);
    expect(first?.body.id).toBe(pending.event_id);
    expect(second?.body.id).toBe(pending.event_id);
    expect(second?.rawBody).toBe(first?.rawBody);
    expect(first && signatureIsValid(secret, first)).toBe(true);
    expect(second && signatureIsValid(secret, second)).toBe(true);
    await e2e.relay.services.alerts.worker.sweep();
    expect(await delivery(pending.id)).toMatchObject({ status: 'delivered', attempts: 2, last_status: 200, last_error: null });
  });

  it('a receiver that never answers: requests never wait for it; the delivery times out, is retried, then fails', async () => {
    const dead = await receiver({ hang: true });
    const { id } = (await (await admin('/api/webhooks', 'POST', { url: dead.url })).json()) as { id: number };
    expect((await e2e.postChat(hello)).status).toBe(200); // the first request of a relay warms it up
    const queued = (await (await admin(`/api/webhooks/${id}/test`, 'POST')).json()) as { id: number };
    await dead.waitFor(1);
    // The receiver holds the attempt open for RELAY_WEBHOOK_TIMEOUT_MS: a request waiting on it would take that long.
    const timings: number[] = [];
    for (let i = 0; i < 4; i++) {
      const started = performance.now();
      expect((await e2e.postChat(hello)).status).toBe(200);
      timings.push(performance.now() - started);
      await e2e.relay.services.recorder.flush();
    }
    expect(timings.filter((ms) => ms >= TIMEOUT_MS * 0.8)).toEqual([]);

    await dead.waitFor(2, 4_000);
    for (let i = 0; i < 60 && (await delivery(queued.id))?.['status'] === 'pending'; i++) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await delivery(queued.id)).toMatchObject({ status: 'failed', attempts: 2, last_status: null, last_error: `no answer within ${TIMEOUT_MS} ms`, next_attempt_at: null });
  });

  it('lists, filters, updates and deletes webhooks; an unknown id is a 404; a bad URL a 400', async () => {
    const { id } = (await (await admin('/api/webhooks', 'POST', { url: 'https://hooks.example.com/x', events: ['channel.key_disabled'] })).json()) as { id: number };
    const updated = await admin(`/api/webhooks/${id}`, 'PATCH', { enabled: false, events: null });
    expect(updated.status).toBe(200);
    expect(await updated.json()).toMatchObject({ id, enabled: false, events: null, url: 'https://hooks.example.com/x' });
    expect(((await (await admin('/api/webhooks')).json()) as { data: unknown[] }).data).toHaveLength(1);
    expect((await admin('/api/webhooks', 'POST', { url: 'ftp://hooks.example.com' })).status).toBe(400);
    expect((await admin('/api/webhooks/999/test', 'POST')).status).toBe(404);
    expect((await admin('/api/webhooks/999', 'PATCH', { enabled: true })).status).toBe(404);
    expect((await admin(`/api/webhooks/${id}`, 'DELETE')).status).toBe(204);
    expect((await admin(`/api/webhooks/${id}`, 'DELETE')).status).toBe(404);
    const asCaller = await fetch(`${e2e.url}/api/webhooks`, { headers: { authorization: `Bearer ${e2e.token}` } });
    expect(asCaller.status).toBeGreaterThanOrEqual(401);
  });
});
