import {
  ChannelSchema,
  FallbackRuleListSchema,
  TokenPageSchema,
  WEBHOOK_EVENT_ID_HEADER,
  WEBHOOK_SIGNATURE_HEADER,
  WebhookEventSchema,
} from '@chat-relay/contract';
import { createHmac, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { openSection, sampleUntil, signIn } from './support/console-pages';
import { SIM_KEY, useConsoleSuite } from './support/console-suite';

const MODEL = 'gpt-4o';
const TOKEN_NAME = 'team budget e2e';

interface Received {
  headers: http.IncomingHttpHeaders;
  raw: string;
}

/** A webhook receiver on loopback (port 0): records every POST and answers 204. */
async function startReceiver(): Promise<{ url: string; received: Received[]; close: () => Promise<void> }> {
  const received: Received[] = [];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ headers: request.headers, raw: Buffer.concat(chunks).toString('utf8') });
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/relay-hook`, received, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/** `t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>` (webhook.schema.ts), checked as a receiver would. */
function signatureValid(header: string, secret: string, raw: string): boolean {
  const parts = Object.fromEntries(header.split(',').map((part) => part.split('=') as [string, string]));
  if (!parts['t'] || !parts['v1']) return false;
  const expected = createHmac('sha256', secret).update(`${parts['t']}.${raw}`).digest();
  const given = Buffer.from(parts['v1'], 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/**
 * Issue 32 in the console, against the built relay: a token's periodic limits set in its form and
 * by the batch edit, read back as bars; a webhook created (its secret once), a test event received
 * signed and listed as delivered; a fallback rule created, edited and deleted.
 */
describe('console: limits, webhooks and fallbacks (issue 32)', () => {
  const suite = useConsoleSuite();

  beforeAll(async () => {
    const { api, relay, sim, page } = suite;
    await api.json('POST', '/api/channels', relay.adminKey, ChannelSchema, { name: 'sim', type: 'openai', base_url: sim.baseUrl, keys: [SIM_KEY], models: [MODEL] });
    await signIn(page, relay.adminKey);
  });

  it('Tokens: periodic limits, time zone and thresholds set on create; the windows read back as bars; the batch edit replaces them', async () => {
    const { page, api, relay } = suite;
    await openSection(page, 'Tokens');
    await page.getByRole('button', { name: 'New token' }).click();
    await page.getByLabel('Name', { exact: true }).fill(TOKEN_NAME);
    await page.getByRole('button', { name: 'Add limit' }).click();
    await page.getByLabel('Row 1: limit').fill('1');
    await page.getByRole('button', { name: 'Add limit' }).click();
    await page.getByLabel('Row 2: metric').selectOption('requests');
    await page.getByLabel('Row 2: period').selectOption('day');
    await page.getByLabel('Row 2: limit').fill('100');
    await page.getByLabel('Time zone').fill('Europe/Paris');
    await page.getByLabel('Alert thresholds (%)').fill('50, 80');
    await page.getByRole('button', { name: 'Create token' }).click();
    const key = (await page.getByTestId('new-token-key').textContent()) ?? '';
    await page.getByRole('button', { name: 'Done' }).click();

    for (let request = 0; request < 3; request++) await api.chat(key, MODEL, `window e2e ${request}`);
    const listed = await api.json('GET', '/api/tokens?per_page=100', relay.adminKey, TokenPageSchema);
    const token = listed.data.find((item) => item.name === TOKEN_NAME);
    expect(token).toMatchObject({
      periodic_limits: [
        { period: 'day', metric: 'cost', limit: 1_000_000 },
        { period: 'day', metric: 'requests', limit: 100 },
      ],
      time_zone: 'Europe/Paris',
      alert_thresholds: [50, 80],
    });

    // Back to the list: the requests window shows what the three requests used.
    await openSection(page, 'Overview');
    await openSection(page, 'Tokens');
    const row = page.getByRole('row').filter({ hasText: TOKEN_NAME });
    const requests = row.getByRole('meter', { name: 'Requests per day' });
    expect(await requests.getAttribute('aria-valuetext')).toMatch(/^3 of 100 \(3%\), resets in (\d+h \d+m|\d+h|\d+m|under a minute)$/);
    expect(await row.getByRole('meter', { name: 'Cost per day' }).getAttribute('aria-valuetext')).toMatch(/ of \$1\.00 \(\d+%\)/);
    await suite.screenshot('limits-01-token-windows');

    await row.getByRole('checkbox').check();
    await page.getByRole('button', { name: 'Set limits on selected' }).click();
    await page.getByRole('button', { name: 'Add limit' }).click();
    await page.getByLabel('Row 1: metric').selectOption('requests');
    await page.getByLabel('Row 1: limit').fill('200');
    await page.getByRole('button', { name: 'Apply to selected' }).click();
    await page.getByText('Updated 1 token.').waitFor();
    const after = (await api.json('GET', '/api/tokens?per_page=100', relay.adminKey, TokenPageSchema)).data.find((item) => item.name === TOKEN_NAME);
    expect(after?.periodic_limits).toEqual([{ period: 'day', metric: 'requests', limit: 200 }]);
    expect(after?.time_zone).toBe('Europe/Paris');
  });

  it('Webhooks: the secret shown once; a test event arrives signed and is listed as delivered', async () => {
    const { page } = suite;
    const receiver = await startReceiver();
    try {
      await openSection(page, 'Webhooks');
      await page.getByRole('button', { name: 'New webhook' }).click();
      await page.getByLabel('URL').fill(receiver.url);
      await page.getByRole('button', { name: 'Create webhook' }).click();
      const secret = (await page.getByTestId('new-webhook-secret').textContent()) ?? '';
      expect(secret).toMatch(/^whsec_/);
      await page.getByRole('button', { name: 'Done' }).click();
      expect(await page.content()).not.toContain(secret);

      const row = page.getByRole('row').filter({ hasText: receiver.url }).filter({ has: page.getByRole('button', { name: 'Send test event' }) });
      await row.getByRole('button', { name: 'Send test event' }).click();
      await page.getByText(/^Test event .+ queued for /).waitFor();
      await sampleUntil(async () => receiver.received.length, async () => receiver.received.length > 0, 50, 10_000);
      const [delivery] = receiver.received;
      const event = WebhookEventSchema.parse(JSON.parse(delivery!.raw));
      expect(event.type).toBe('test');
      expect(delivery!.headers[WEBHOOK_EVENT_ID_HEADER]).toBe(event.id);
      expect(signatureValid(String(delivery!.headers[WEBHOOK_SIGNATURE_HEADER]), secret, delivery!.raw)).toBe(true);

      const deliveries = page.getByRole('table', { name: 'Webhook deliveries' });
      const listed = deliveries.getByRole('row').filter({ hasText: event.id });
      // The list is read when asked: refresh until the delivery shows as delivered.
      for (let tries = 0; tries < 40 && (await listed.getByText('delivered', { exact: true }).count()) === 0; tries++) {
        await page.getByRole('button', { name: 'Refresh deliveries' }).click();
        await page.waitForTimeout(200);
      }
      await listed.getByText('delivered', { exact: true }).waitFor();
      await listed.getByText('Event JSON').click();
      expect(await listed.locator('pre').textContent()).toContain(event.id);
      await suite.screenshot('limits-02-webhooks');
    } finally {
      await receiver.close();
    }
  });

  it('Fallbacks: a rule created with its ordered chain and an opt-in trigger, disabled, then deleted', async () => {
    const { page, api, relay } = suite;
    await openSection(page, 'Fallbacks');
    await page.getByRole('button', { name: 'New fallback rule' }).click();
    await page.getByLabel('Model or glob').fill('claude-*');
    await page.getByLabel('Fallback models').fill('gpt-4o\ngpt-4o-mini');
    await page.getByLabel('Context window exceeded').check();
    await page.getByRole('button', { name: 'Create rule' }).click();
    await page.getByText('Created the fallback rule for claude-*.').waitFor();
    expect((await api.json('GET', '/api/fallbacks', relay.adminKey, FallbackRuleListSchema)).data).toEqual([
      expect.objectContaining({
        model: 'claude-*',
        fallbacks: ['gpt-4o', 'gpt-4o-mini'],
        triggers: ['rate_limited', 'upstream_error', 'timeout', 'no_channel', 'context_length'],
        enabled: true,
      }),
    ]);

    const row = page.getByRole('row').filter({ hasText: 'claude-*' });
    await row.getByRole('button', { name: 'Edit' }).click();
    await page.getByLabel('Enabled').uncheck();
    await page.getByRole('button', { name: 'Save rule' }).click();
    await row.getByText('disabled').waitFor();
    await suite.screenshot('limits-03-fallbacks');

    await row.getByRole('button', { name: 'Delete', exact: true }).click();
    await row.getByRole('button', { name: 'Confirm delete' }).click();
    await page.getByText('No fallback rules yet').waitFor();
    expect((await api.json('GET', '/api/fallbacks', relay.adminKey, FallbackRuleListSchema)).data).toEqual([]);
  });
});
