import { LOG_CSV_COLUMNS } from '@chat-relay/contract';
import { createTestServiceAccount } from '@chat-relay/upstream-sim';
import fs from 'node:fs';
import parsePrometheusTextFormat from 'parse-prometheus-text-format';
import { ADMIN_ONLY_SECTIONS, ADMIN_SECTIONS, consoleNav, openSection, sampleUntil, signIn } from './support/console-pages';
import { SIM_KEY, useConsoleSuite } from './support/console-suite';
import { csvRecords } from './support/csv';

/** The relay's request counter (docs/METRICS.md), labelled by requested model and status. */
const REQUESTS_METRIC = 'relay_requests_total';
const MODEL = 'gpt-4o';
const CHANNEL_NAME = 'simulator e2e';
const VERTEX_CHANNEL_NAME = 'vertex e2e';
const VERTEX_MODEL = 'gemini-2.5-flash';
const ADMIN_TOKEN_NAME = 'playground e2e';
const ACCOUNT_NAME = 'team-blue e2e';
const ACCOUNT_TOKEN_NAME = 'team-blue token';
const PLAYGROUND_WORDS = 'Please answer slowly so the stream shows word by word';
// The simulator streams one token per 80 ms when asked by this marker (which it leaves out of its echo).
const PLAYGROUND_MESSAGE = `${PLAYGROUND_WORDS} [sim:latency=80]`;

/**
 * The operator's first session, in order: sign in, add a channel, issue a token, try it in the
 * playground, find the request in the logs and on the overview, then hand an account its own
 * key. Each test continues where the previous one left the page.
 */
describe('console flow (admin, then an account)', () => {
  const suite = useConsoleSuite();
  const flow = { adminTokenKey: '', playgroundRequestId: '', accountKey: '', accountRequestId: '', chatRequests: 0 };

  it('refuses a wrong key with the relay’s message and request id, then signs the admin in', async () => {
    const { page, watch, relay } = suite;
    await page.goto('/console/');
    await page.getByLabel('Management key').fill('not-a-key-of-this-relay-000000000');
    watch.expectFailure({ path: '/api/account', status: 401 });
    const [refused] = await Promise.all([
      page.waitForResponse((response) => new URL(response.url()).pathname === '/api/account'),
      page.getByRole('button', { name: 'Sign in' }).click(),
    ]);
    expect(refused.status()).toBe(401);
    const alert = page.getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toContain('Could not sign in');
    expect(await alert.locator('code').textContent()).toBe(await refused.headerValue('x-request-id'));
    await suite.screenshot('01-sign-in-refused');

    await page.getByLabel('Management key').fill(relay.adminKey);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('button', { name: 'Sign out' }).waitFor();
    expect(await consoleNav(page).getByRole('link').allTextContents()).toEqual([...ADMIN_SECTIONS, 'Docs']);
  });

  it('Channels: creates a channel to the simulator and tests it (latency shown)', async () => {
    const { page, sim } = suite;
    await openSection(page, 'Channels');
    await page.getByRole('button', { name: 'New channel' }).click();
    await page.getByLabel('Name', { exact: true }).fill(CHANNEL_NAME);
    await page.getByLabel('Type', { exact: true }).selectOption('openai');
    await page.getByLabel('Base URL').fill(sim.baseUrl);
    await page.getByLabel('Keys').fill(SIM_KEY);
    await page.getByLabel('Models').fill(MODEL);
    await page.getByRole('button', { name: 'Create channel' }).click();

    const row = page.getByRole('row').filter({ hasText: CHANNEL_NAME });
    await row.waitFor();
    const simRequestsBefore = sim.requests.length;
    await row.getByRole('button', { name: 'Test', exact: true }).click();
    const result = page.getByRole('status').filter({ hasText: /\d+\s*ms/ });
    await result.waitFor();
    expect(await result.textContent()).toMatch(/\d+\s*ms/);
    // The test went to the simulator with the channel's key.
    const tested = sim.requests.slice(simRequestsBefore);
    expect(tested.length).toBeGreaterThan(0);
    expect(tested.every((request) => request.headers['authorization'] === `Bearer ${SIM_KEY}`)).toBe(true);
    await suite.screenshot('02-channels');
  });

  it('Channels: a vertex channel with its region and a service account key file pasted whole; its test mints a token (issue 31)', async () => {
    const { page, sim } = suite;
    const account = createTestServiceAccount('console-e2e@acme-prod.iam.gserviceaccount.com');
    sim.registerVertexServiceAccount(account.clientEmail, account.publicKeyPem);
    // As Google hands the key file out: pretty-printed over many lines (https://cloud.google.com/iam/docs/keys-create-delete).
    const keyFile = JSON.stringify(
      { type: 'service_account', project_id: 'acme-prod', private_key_id: 'e2e', private_key: account.privateKeyPem, client_email: account.clientEmail, token_uri: sim.vertexTokenUri },
      null,
      2,
    );
    await page.getByRole('button', { name: 'New channel' }).click();
    await page.getByLabel('Name', { exact: true }).fill(VERTEX_CHANNEL_NAME);
    await page.getByLabel('Type', { exact: true }).selectOption('vertex');
    await page.getByLabel('Base URL').fill(sim.vertexBaseUrl);
    await page.getByLabel('Region').fill('us-east5');
    await page.getByLabel('Keys').fill(keyFile);
    await page.getByLabel('Models').fill(VERTEX_MODEL);
    await page.getByRole('button', { name: 'Create channel' }).click();

    const row = page.getByRole('row').filter({ hasText: VERTEX_CHANNEL_NAME });
    await row.getByText(`service account ${account.clientEmail}`).waitFor();
    const simRequestsBefore = sim.requests.length;
    await row.getByRole('button', { name: 'Test', exact: true }).click();
    const result = row.getByRole('status').filter({ hasText: /\d+\s*ms/ });
    await result.waitFor();
    expect(await result.textContent()).toMatch(/^OK · \d+ ms/);
    // The relay minted a bearer from the key (the token was asked for by now, at the latest for this test) and sent the region typed.
    expect(sim.vertexTokensMinted()).toBeGreaterThan(0);
    const generated = sim.requests.slice(simRequestsBefore).filter((request) => request.path.includes('/publishers/google/models/'));
    expect(generated.length).toBeGreaterThan(0);
    for (const request of generated) {
      expect(request.path.startsWith(`/v1/projects/acme-prod/locations/us-east5/publishers/google/models/${VERTEX_MODEL}:`)).toBe(true);
      expect(String(request.headers['authorization'])).toMatch(/^Bearer /);
    }
    expect(await page.content()).not.toContain('PRIVATE KEY');
    await suite.screenshot('02a-vertex-channel');
  });

  it('Models: the catalogue shows gpt-4o with its limits and list price; an override saved there is what the relay knows', async () => {
    const { page, relay } = suite;
    await openSection(page, 'Models');
    await page.getByLabel('Search models').fill(MODEL);
    const row = page.getByRole('row').filter({ has: page.getByRole('cell', { name: MODEL, exact: true }) });
    await row.waitFor();
    expect(await row.getByRole('cell').allTextContents()).toEqual(expect.arrayContaining(['openai', 'seed', '128,000', '16,384', '$2.5', '$10']));

    await row.getByRole('button', { name: `Edit ${MODEL}`, exact: true }).click();
    await page.getByLabel('Fields to change (JSON)').fill('{"max_output_tokens": 8192}');
    await page.getByRole('button', { name: 'Save override' }).click();
    await page.getByRole('status').filter({ hasText: `Saved the override of ${MODEL}.` }).waitFor();
    await row.getByRole('cell', { name: '8,192', exact: true }).waitFor();
    expect(await row.getByRole('cell').allTextContents()).toEqual(expect.arrayContaining(['override', '128,000', '8,192']));
    const facts = async () => {
      const response = await fetch(`${relay.url}/api/catalogue/models/${MODEL}`, { headers: { authorization: `Bearer ${relay.adminKey}` } });
      return (await response.json()) as { max_output_tokens: number | null };
    };
    expect((await facts()).max_output_tokens).toBe(8192);
    await suite.screenshot('02b-models');

    // Left as the seed has it for the rest of the flow.
    await page.getByRole('button', { name: 'Delete override' }).click();
    await page.getByRole('status').filter({ hasText: `Deleted the override of ${MODEL}.` }).waitFor();
    expect((await facts()).max_output_tokens).toBe(16_384);
  });

  it('Tokens: shows the new key once; Copy key puts it on the clipboard; after Done it is gone', async () => {
    const { page } = suite;
    await openSection(page, 'Tokens');
    await page.getByRole('button', { name: 'New token' }).click();
    await page.getByLabel('Name', { exact: true }).fill(ADMIN_TOKEN_NAME);
    await page.getByRole('button', { name: 'Create token' }).click();

    const keyText = await page.getByTestId('new-token-key').textContent();
    const key = (keyText ?? '').trim();
    expect(key).toMatch(/^sk-[A-Za-z0-9]{48}$/);
    await page.getByRole('button', { name: 'Copy key' }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key);

    await page.getByRole('button', { name: 'Done' }).click();
    await page.getByTestId('new-token-key').waitFor({ state: 'detached' });
    await page.getByRole('row').filter({ hasText: ADMIN_TOKEN_NAME }).waitFor();
    expect(await page.content()).not.toContain(key);
    const fieldValues = await page.locator('input, textarea').evaluateAll((fields) => fields.map((field) => (field as HTMLInputElement).value));
    expect(fieldValues.join('\n')).not.toContain(key);
    flow.adminTokenKey = key;
    await suite.screenshot('03-tokens');
  });

  it('Playground: streams the answer into the page, growing as it arrives; the token is not kept', async () => {
    const { page } = suite;
    await openSection(page, 'Playground');
    await page.getByLabel('API token').fill(flow.adminTokenKey);
    await page.getByLabel('Model').fill(MODEL);
    await page.getByLabel('Message').fill(PLAYGROUND_MESSAGE);
    const [sent] = await Promise.all([
      page.waitForResponse((response) => new URL(response.url()).pathname === '/v1/chat/completions'),
      page.getByRole('button', { name: 'Send', exact: true }).click(),
    ]);
    expect(sent.status()).toBe(200);
    flow.playgroundRequestId = (await sent.headerValue('x-request-id')) ?? '';
    flow.chatRequests++;

    const answer = page.getByTestId('assistant-message').last();
    const finalText = `You said: ${PLAYGROUND_WORDS}`;
    const lengths = await sampleUntil(
      async () => ((await answer.count()) > 0 ? ((await answer.textContent()) ?? '').length : 0),
      async () => ((await answer.count()) > 0 ? (await answer.textContent())?.trim() === finalText : false),
    );
    const partial = lengths.filter((length) => length > 0 && length < lengths.at(-1)!);
    // At least two lengths seen before the whole answer: it was drawn as it streamed.
    expect(partial.length).toBeGreaterThanOrEqual(2);
    const stored = await page.evaluate(() => JSON.stringify({ local: { ...localStorage }, session: { ...sessionStorage } }));
    expect(stored).not.toContain(flow.adminTokenKey);
    await suite.screenshot('04-playground');
  });

  it('Logs: lists the playground request (gpt-4o, 200); Export CSV holds its request id', async () => {
    const { page, api, relay } = suite;
    await api.waitForLog(relay.adminKey, flow.playgroundRequestId);
    await openSection(page, 'Logs');
    const table = page.getByRole('table', { name: 'Requests' });
    const row = table.getByRole('row').filter({ hasText: flow.playgroundRequestId });
    await row.waitFor();
    const cells = await row.getByRole('cell').allTextContents();
    expect(cells).toContain(MODEL);
    expect(cells).toContain('200');

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
    expect(download.suggestedFilename()).toMatch(/\.csv$/);
    const { header, records } = csvRecords(fs.readFileSync(await download.path(), 'utf8'));
    expect(header).toEqual([...LOG_CSV_COLUMNS]);
    expect(records.find((record) => record['request_id'] === flow.playgroundRequestId)).toMatchObject({
      requested_model: MODEL,
      status: '200',
      stream: 'true',
    });
    await suite.screenshot('05-logs');
  });

  it('Overview: the Requests card counts it and the Requests chart draws it', async () => {
    const { page } = suite;
    await openSection(page, 'Overview');
    const card = page.locator('.card').filter({ hasText: /^\s*Requests/ });
    await card.locator('.value').filter({ hasText: /\d/ }).waitFor();
    expect(Number((await card.locator('.value').textContent())?.replace(/[^\d]/g, ''))).toBeGreaterThanOrEqual(1);
    const figure = page.getByRole('figure', { name: 'Requests' });
    const drawn = figure.locator('svg.recharts-surface').locator('path.recharts-curve, path.recharts-rectangle, path.recharts-area-area');
    await drawn.first().waitFor();
    const shapes = await drawn.evaluateAll((paths) => paths.map((path) => path.getAttribute('d') ?? ''));
    expect(shapes.some((d) => /[LCA]/i.test(d))).toBe(true);
    await suite.screenshot('06-overview');
  });

  it('Accounts: a new account signs in with its key and sees only its own tokens and requests', async () => {
    const { page, api, relay } = suite;
    await openSection(page, 'Accounts');
    await page.getByRole('button', { name: 'New account' }).click();
    await page.getByLabel('Name', { exact: true }).fill(ACCOUNT_NAME);
    await page.getByRole('button', { name: 'Create account' }).click();
    flow.accountKey = ((await page.getByTestId('new-account-key').textContent()) ?? '').trim();
    expect(flow.accountKey.length).toBeGreaterThanOrEqual(16);
    await page.getByRole('row').filter({ hasText: ACCOUNT_NAME }).waitFor();

    const accountToken = await api.createToken(flow.accountKey, ACCOUNT_TOKEN_NAME);
    flow.accountRequestId = await api.chat(accountToken.key, MODEL, 'hello from team blue');
    flow.chatRequests++;
    await api.waitForLog(relay.adminKey, flow.accountRequestId);

    await page.getByRole('button', { name: 'Sign out' }).click();
    await signIn(page, flow.accountKey);
    const links = await consoleNav(page).getByRole('link').allTextContents();
    for (const section of ADMIN_ONLY_SECTIONS) expect(links).not.toContain(section);
    expect(links).toEqual(expect.arrayContaining(['Overview', 'Tokens', 'Playground', 'Logs']));

    await openSection(page, 'Tokens');
    await page.getByRole('row').filter({ hasText: ACCOUNT_TOKEN_NAME }).waitFor();
    expect(await page.getByRole('main').textContent()).not.toContain(ADMIN_TOKEN_NAME);

    await openSection(page, 'Logs');
    await page.getByRole('table', { name: 'Requests' }).getByRole('row').filter({ hasText: flow.accountRequestId }).waitFor();
    expect(await page.getByRole('main').textContent()).not.toContain(flow.playgroundRequestId);
    await suite.screenshot('07-account-logs');
  });

  it(`/metrics counts the chat requests by model (${REQUESTS_METRIC})`, async () => {
    const { api, relay } = suite;
    // The playground's request and the account's: the count below must see real traffic.
    expect(flow.chatRequests).toBe(2);
    const families = parsePrometheusTextFormat(await api.metricsText(relay.metricsToken));
    const requests = families.find((family) => family.name === REQUESTS_METRIC);
    expect(requests?.type).toBe('COUNTER');
    const answered = (requests?.metrics ?? [])
      .filter((sample) => sample.labels?.['model'] === MODEL && sample.labels['status'] === '200')
      .reduce((sum, sample) => sum + Number(sample.value), 0);
    expect(answered).toBeGreaterThanOrEqual(flow.chatRequests);
  });
});
