import type { WebhookEvent, WebhookEventType } from '@chat-relay/contract';
import type { StoreBackend } from '../testing/store-backends';
import { storageWithSqlForEachTest } from './open-with-sql';

const NOW = '2026-05-01T12:00:00.000Z';
const LATER = '2026-05-01T12:05:00.000Z';
const SECRET = 'whsec_suite0123456789abcdefghijklmn';

let eventCount = 0;
const event = (type: WebhookEventType = 'test'): WebhookEvent => ({ id: `evt_suite_${++eventCount}`, type, created_at: NOW, data: { n: eventCount } });

/** The behaviour every WebhookStore shows, on each backend (describeEachBackend). */
export function describeWebhookStore(backend: StoreBackend): void {
  const opened = storageWithSqlForEachTest(backend);
  const webhooks = () => opened().storage.webhooks;
  const create = (overrides: { events?: WebhookEventType[] | null; enabled?: boolean; url?: string } = {}) =>
    webhooks().create({ url: 'https://hooks.example.com/a', events: null, enabled: true, secret: SECRET, secretHint: '...klmn', ...overrides }, NOW);

  it('keeps the signing secret sealed at rest and opens it when read; updates, deletes; queues to the webhooks an event is for', async () => {
    const webhook = await create({ events: ['limit.threshold'] });
    expect(webhook).toMatchObject({ url: 'https://hooks.example.com/a', events: ['limit.threshold'], enabled: true, secret: SECRET, secretHint: '...klmn' });
    const stored = String(await opened().value('SELECT secret FROM webhooks WHERE id = $1', [webhook.id]));
    expect(stored).not.toContain(SECRET.slice(6));
    expect((await webhooks().get(webhook.id))?.secret).toBe(SECRET);
    // A secret not sealed with the current key (here in the clear) is sealed at start-up, once.
    await opened().sql('UPDATE webhooks SET secret = $1 WHERE id = $2', ['whsec_in_the_clear_0123456789', webhook.id]);
    expect(await webhooks().resealSecrets()).toBe(1);
    expect(await webhooks().resealSecrets()).toBe(0);
    expect(String(await opened().value('SELECT secret FROM webhooks WHERE id = $1', [webhook.id]))).not.toContain('in_the_clear');
    expect((await webhooks().get(webhook.id))?.secret).toBe('whsec_in_the_clear_0123456789');
    await opened().sql('UPDATE webhooks SET secret = $1 WHERE id = $2', [stored, webhook.id]);
    const updated = await webhooks().update(webhook.id, { enabled: false, events: null }, LATER);
    expect(updated).toMatchObject({ enabled: false, events: null, secret: SECRET, updatedAt: LATER });
    expect(await webhooks().list()).toHaveLength(1);
    expect(await webhooks().delete(webhook.id)).toBe(true);
    expect(await webhooks().delete(webhook.id)).toBe(false);
    expect(await webhooks().update(webhook.id, { enabled: true }, LATER)).toBeUndefined();

    // Queued to each enabled webhook whose filter takes the event; a test event to one webhook whatever its state.
    const all = await create();
    const channelsOnly = await create({ events: ['channel.circuit_opened'] });
    const disabled = await create({ enabled: false });
    const made = await webhooks().enqueue(event('limit.threshold'), NOW);
    expect(made?.map((delivery) => delivery.webhookId)).toEqual([all.id]);
    expect(made?.[0]).toMatchObject({ status: 'pending', attempts: 0, nextAttemptAt: NOW, eventType: 'limit.threshold' });
    const opened2 = await webhooks().enqueue(event('channel.circuit_opened'), NOW);
    expect(opened2?.map((delivery) => delivery.webhookId).sort()).toEqual([all.id, channelsOnly.id].sort());
    const test = await webhooks().enqueue(event('test'), NOW, { webhookId: disabled.id });
    expect(test?.map((delivery) => delivery.webhookId)).toEqual([disabled.id]);
    expect(await webhooks().enqueue(event('test'), NOW, { webhookId: 999_999 })).toEqual([]);
  });

  it('queues a marked event once, even raced; purges old finished deliveries and expired marks, keeps pending ones and lifetime marks', async () => {
    await create();
    const mark = { key: 'token:1:day:2026-05-01:cost:80', expiresAt: '2026-05-02T00:00:00.000Z' };
    const attempts = await Promise.all(Array.from({ length: 5 }, () => webhooks().enqueue(event('limit.threshold'), NOW, { mark })));
    expect(attempts.filter((made) => made !== undefined)).toHaveLength(1);
    expect(await opened().count('webhook_deliveries')).toBe(1);
    expect(await webhooks().enqueue(event('limit.threshold'), NOW, { mark: { ...mark, key: 'token:1:day:2026-05-02:cost:80' } })).toHaveLength(1);

    // Retention: finished deliveries older than it and expired marks go; pending ones and lifetime marks stay.
    const [old] = (await webhooks().enqueue(event('test'), NOW)) ?? [];
    const [pending] = (await webhooks().enqueue(event('test'), NOW)) ?? [];
    await webhooks().enqueue(event('test'), '2026-05-09T00:00:00.000Z');
    await webhooks().recordAttempt(old?.id ?? 0, { status: 'delivered', attempts: 1, lastStatus: 200, lastError: null, nextAttemptAt: null, deliveredAt: NOW });
    const windowMark = { key: 'token:9:day:2026-05-01:cost:80', expiresAt: '2026-05-02T00:00:00.000Z' };
    const lifetimeMark = { key: 'token:9:lifetime:cost:100:80', expiresAt: null };
    await webhooks().enqueue(event('limit.threshold'), NOW, { mark: windowMark });
    await webhooks().enqueue(event('limit.threshold'), NOW, { mark: lifetimeMark });
    expect(await webhooks().purgeBefore('2026-05-08T00:00:00.000Z', 100)).toBe(1);
    expect(await webhooks().getDelivery(old?.id ?? 0)).toBeUndefined();
    expect(await webhooks().getDelivery(pending?.id ?? 0)).toBeDefined();
    expect(await opened().count('alert_marks')).toBe(1);
    // The window's mark forgotten: the same key may be written again; the lifetime one is still there.
    expect(await webhooks().enqueue(event('limit.threshold'), NOW, { mark: windowMark })).toBeDefined();
    expect(await webhooks().enqueue(event('limit.threshold'), NOW, { mark: lifetimeMark })).toBeUndefined();
  });

  it('leases due deliveries: two claimers at once never get the same row; a lease run out is claimed again', async () => {
    await create();
    for (let i = 0; i < 6; i++) await webhooks().enqueue(event('test'), NOW);
    await webhooks().enqueue(event('test'), LATER); // not due yet
    const [first, second] = await Promise.all([webhooks().claimDue(NOW, LATER, 4), webhooks().claimDue(NOW, LATER, 4)]);
    const ids = [...(first ?? []), ...(second ?? [])].map((delivery) => delivery.id);
    expect(ids).toHaveLength(6);
    expect(new Set(ids).size).toBe(6);
    expect(await webhooks().claimDue(NOW, LATER, 10)).toEqual([]);
    // Past the lease: the same rows again (a process that died mid-attempt).
    const again = await webhooks().claimDue('2026-05-01T12:06:00.000Z', '2026-05-01T12:10:00.000Z', 10);
    expect(again).toHaveLength(7);
    expect(again[0]?.leaseUntil).toBe('2026-05-01T12:10:00.000Z');
  });

  it('records an attempt (the lease given up), lists deliveries newest first with filters, pages', async () => {
    const a = await create();
    const b = await create();
    const [toA] = (await webhooks().enqueue(event('test'), NOW, { webhookId: a.id })) ?? [];
    await webhooks().enqueue(event('test'), NOW, { webhookId: b.id });
    await webhooks().claimDue(NOW, LATER, 10);
    const retried = await webhooks().recordAttempt(toA?.id ?? 0, {
      status: 'pending',
      attempts: 1,
      lastStatus: 500,
      lastError: 'receiver answered 500',
      nextAttemptAt: LATER,
      deliveredAt: null,
    });
    expect(retried).toMatchObject({ status: 'pending', attempts: 1, lastStatus: 500, leaseUntil: null, nextAttemptAt: LATER });
    expect(await webhooks().claimDue(LATER, '2026-05-01T12:09:00.000Z', 10)).toHaveLength(1);
    const page = await webhooks().listDeliveries({ page: 1, perPage: 1 });
    expect(page.total).toBe(2);
    expect(page.rows[0]?.webhookId).toBe(b.id);
    expect((await webhooks().listDeliveries({ page: 1, perPage: 10, webhookId: a.id })).rows.map((row) => row.id)).toEqual([toA?.id]);
    expect((await webhooks().listDeliveries({ page: 1, perPage: 10, status: 'delivered' })).total).toBe(0);
    expect((await webhooks().getDelivery(toA?.id ?? 0))?.event.type).toBe('test');
  });
}
