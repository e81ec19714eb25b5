import type { Webhook, WebhookDelivery } from '@chat-relay/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { bodiesOf, fakeClient, type RecordedCall } from '../../testing/fake-client';
import { deliveryFixture, pageOf, webhookFixture } from '../../testing/fixtures';
import { renderPage } from '../../testing/render-page';
import { WebhooksPage } from './webhooks-page';

const SECRET = 'whsec_0123456789abcdefghijklmnopqrstuv';

function relayWith(webhooks: Webhook[], deliveries: WebhookDelivery[] = [], total = deliveries.length) {
  const fake = fakeClient({
    webhooks: {
      listWebhooks: () => ({ status: 200, body: { data: webhooks } }),
      createWebhook: ({ body }) => {
        const webhook = webhookFixture({ id: 9, url: body.url, events: body.events ?? null, secret_hint: 'whsec_…stuv' });
        webhooks.push(webhook);
        return { status: 201, body: { ...webhook, secret: SECRET } };
      },
      updateWebhook: (args) => ({ status: 200, body: webhookFixture({ ...webhooks.find((webhook) => webhook.id === Number(args!.params!.id)), ...args!.body }) }),
      deleteWebhook: () => ({ status: 204, body: undefined }),
      testWebhook: (args) => {
        const delivery = deliveryFixture({ id: 77, webhook_id: Number(args!.params!.id), event_id: 'evt_test_77', status: 'pending', attempts: 0, last_status: null, delivered_at: null });
        deliveries.unshift(delivery);
        return { status: 202, body: delivery };
      },
      listWebhookDeliveries: (args) => ({ status: 200, body: pageOf(deliveries, Math.max(total, deliveries.length), args?.query?.page ?? 1) }),
    },
  });
  renderPage(<WebhooksPage />, { client: fake.client });
  return fake;
}
const rowOf = async (text: string) => (await screen.findByText(text, { selector: 'span[id^="webhook-url-"]' })).closest('tr') as HTMLElement;
const deliveryQueries = (calls: readonly RecordedCall[]) => calls.filter((call) => call.route === 'webhooks.listWebhookDeliveries').map((call) => call.args['query']);

describe('Webhooks page', () => {
  it('creates a webhook and shows its secret once: Done removes it for good', async () => {
    const writeText = jest.fn().mockResolvedValue(undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    const { calls } = relayWith([]);
    expect(await screen.findByText('No webhooks yet')).toBeTruthy();

    fireEvent.click(screen.getByText('New webhook'));
    fireEvent.change(screen.getByLabelText('URL'), { target: { value: 'https://hooks.example.com/team' } });
    fireEvent.click(screen.getByLabelText('All events'));
    fireEvent.click(screen.getByLabelText('Limit threshold crossed'));
    fireEvent.click(screen.getByText('Create webhook'));

    expect((await screen.findByTestId('new-webhook-secret')).textContent).toBe(SECRET);
    expect(bodiesOf(calls, 'webhooks.createWebhook')).toEqual([{ url: 'https://hooks.example.com/team', events: ['limit.threshold'], enabled: true }]);
    fireEvent.click(screen.getByText('Copy secret'));
    await waitFor(() => expect(writeText).toHaveBeenCalledWith(SECRET));
    const row = await rowOf('https://hooks.example.com/team');
    expect(within(row).getByText('whsec_…stuv')).toBeTruthy();
    expect(within(row).getByText('Limit threshold crossed')).toBeTruthy();

    fireEvent.click(screen.getByText('Done'));
    expect(document.body.innerHTML).not.toContain(SECRET);
  });

  it('sends a test event and lists it among the deliveries; filters, pages and expands the event JSON', async () => {
    const failed = deliveryFixture({
      id: 3,
      event_id: 'evt_lim_3',
      event_type: 'limit.threshold',
      status: 'failed',
      attempts: 5,
      last_status: 500,
      last_error: 'receiver answered 500',
      delivered_at: null,
      event: { id: 'evt_lim_3', type: 'limit.threshold', created_at: '2026-11-01T10:00:00.000Z', data: { threshold: 80, ratio: 0.81 } },
    });
    const { calls } = relayWith([webhookFixture({ id: 1 }), webhookFixture({ id: 2, url: 'https://other.example/in' })], [failed], 45);
    const row = await rowOf('https://hooks.example.com/relay');
    const deliveries = await screen.findByRole('table', { name: 'Webhook deliveries' });
    expect(within(deliveries).getByText('HTTP 500 · receiver answered 500')).toBeTruthy();
    const json = within(deliveries).getByText('Event JSON').closest('details') as HTMLDetailsElement;
    expect(json.open).toBe(false);
    fireEvent.click(within(json).getByText('Event JSON'));
    expect(JSON.parse(json.querySelector('pre')!.textContent!)).toMatchObject({ id: 'evt_lim_3', data: { threshold: 80 } });

    fireEvent.click(within(row).getByText('Send test event'));
    expect(await screen.findByText('Test event evt_test_77 queued for https://hooks.example.com/relay.')).toBeTruthy();
    expect(calls.filter((call) => call.route === 'webhooks.testWebhook').map((call) => call.args['params'])).toEqual([{ id: 1 }]);
    expect(await within(screen.getByRole('table', { name: 'Webhook deliveries' })).findByText('evt_test_77')).toBeTruthy();

    fireEvent.change(screen.getByLabelText('Webhook'), { target: { value: '2' } });
    fireEvent.change(screen.getByLabelText('Delivery status'), { target: { value: 'failed' } });
    await waitFor(() => expect(deliveryQueries(calls).at(-1)).toEqual({ page: 1, per_page: 20, webhook_id: 2, status: 'failed' }));
    fireEvent.click(await screen.findByText('Next page'));
    await waitFor(() => expect(deliveryQueries(calls).at(-1)).toEqual({ page: 2, per_page: 20, webhook_id: 2, status: 'failed' }));
  });

  it('edits a webhook (disables it) and deletes only after the confirmation', async () => {
    const { calls } = relayWith([webhookFixture({ id: 4, url: 'https://old.example/hook', events: ['channel.circuit_opened'] })]);
    const row = await rowOf('https://old.example/hook');
    fireEvent.click(within(row).getByText('Edit'));
    expect((screen.getByLabelText('Channel circuit opened') as HTMLInputElement).checked).toBe(true);
    fireEvent.click(screen.getByLabelText('Enabled'));
    fireEvent.click(screen.getByText('Save webhook'));
    expect(await screen.findByText('Saved webhook https://old.example/hook.')).toBeTruthy();
    expect(bodiesOf(calls, 'webhooks.updateWebhook')).toEqual([{ enabled: false }]);

    fireEvent.click(within(await rowOf('https://old.example/hook')).getByText('Delete'));
    expect(calls.some((call) => call.route === 'webhooks.deleteWebhook')).toBe(false);
    fireEvent.click(screen.getByText('Confirm delete'));
    await waitFor(() => expect(calls.filter((call) => call.route === 'webhooks.deleteWebhook').map((call) => call.args['params'])).toEqual([{ id: 4 }]));
  });
});
