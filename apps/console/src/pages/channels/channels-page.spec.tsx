import type { Channel, ChannelTestResult } from '@chat-relay/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { bodiesOf, fakeClient, refusal, type Api, type FakeAnswer, type FakeRoutes } from '../../testing/fake-client';
import { channelFixture, keyStatus, pageOf, serviceAccountKeyFile } from '../../testing/fixtures';
import { renderPage } from '../../testing/render-page';
import { ChannelsPage } from './channels-page';

/** A relay holding `channels`: lists them, creates and updates them, answers tests as told. */
function relayWith(channels: Channel[], extra: FakeRoutes['channels'] = {}) {
  const routes: FakeRoutes = {
    channels: {
      listChannels: () => ({ status: 200, body: pageOf(channels) }),
      createChannel: (args) => {
        const { body } = args;
        const created = channelFixture({ id: 9, name: body.name, key_hints: body.keys.map((key) => `…${key.slice(-4)}`), key_status: body.keys.map((key, index) => keyStatus({ index, hint: `…${key.slice(-4)}` })) });
        channels.push(created);
        return { status: 201, body: created };
      },
      updateChannel: (args) => ({ status: 200, body: channels.find((channel) => channel.id === Number(args?.params?.id))! }),
      ...extra,
    },
  };
  const fake = fakeClient(routes);
  renderPage(<ChannelsPage />, { client: fake.client });
  return fake;
}
const rowOf = async (name: string) => (await screen.findByText(name)).closest('tr') as HTMLElement;
const type = (label: string, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });

describe('Channels page', () => {
  it('explains what a channel is when there is none, pointing at New channel', async () => {
    relayWith([]);
    const empty = await screen.findByText('No channels yet');
    expect(empty.parentElement?.textContent).toMatch(/OpenAI-compatible.*Anthropic or Gemini.*New channel/);
  });

  it('creates a channel and never shows its keys again, only their hints', async () => {
    const { calls } = relayWith([]);
    fireEvent.click(await screen.findByRole('button', { name: 'New channel' }));
    type('Name', 'upstream-a');
    type('Base URL', 'https://llm.example/v1/');
    type('Keys', 'sk-secret-key-number-one-7777\nsk-secret-key-number-two-8888');
    type('Models', 'gpt-4o, gpt-4o-mini');
    fireEvent.click(screen.getByRole('button', { name: 'Create channel' }));

    expect(await screen.findByText('Created channel “upstream-a”.')).toBeTruthy();
    expect(bodiesOf(calls, 'channels.createChannel')).toEqual([
      expect.objectContaining({ base_url: 'https://llm.example/v1', keys: ['sk-secret-key-number-one-7777', 'sk-secret-key-number-two-8888'] }),
    ]);
    const row = await rowOf('upstream-a');
    expect(within(row).getByText('…7777')).toBeTruthy();
    expect(document.body.innerHTML).not.toContain('sk-secret-key-number-one');
    expect(document.body.innerHTML).not.toContain('sk-secret-key-number-two');
    expect(screen.queryByLabelText('Keys')).toBeNull();
  });

  it('labels the form’s fields so that each browser-test label finds one field, even matched loosely', async () => {
    relayWith([]);
    fireEvent.click(await screen.findByRole('button', { name: 'New channel' }));
    for (const label of ['Name', 'Type', 'Base URL', 'Keys', 'Models']) {
      expect(screen.getAllByLabelText(new RegExp(label, 'i'))).toHaveLength(1);
    }
    const keys = screen.getByLabelText('Keys');
    expect([keys.getAttribute('autocomplete'), keys.getAttribute('spellcheck')]).toEqual(['off', 'false']);
  });

  it('offers the new types with a hint each, and only the endpoints the chosen type can serve', async () => {
    const { calls } = relayWith([]);
    fireEvent.click(await screen.findByRole('button', { name: 'New channel' }));
    const typeField = screen.getByLabelText('Type') as HTMLSelectElement;
    expect([...typeField.options].map((option) => option.value)).toEqual(['openai', 'anthropic', 'gemini', 'azure', 'bedrock', 'vertex', 'suno', 'tavily', 'searxng']);
    const hint = () => document.getElementById(typeField.getAttribute('aria-describedby') ?? '')?.textContent;
    const endpointBoxes = () => within(screen.getByRole('group', { name: 'Endpoints' })).getAllByRole('checkbox').map((box) => box.nextElementSibling?.textContent);

    expect(endpointBoxes()).toEqual(['Default endpoints', 'chat', 'completions', 'embeddings', 'rerank', 'moderations', 'images', 'audio_speech', 'audio_transcriptions', 'videos']);
    type('Type', 'tavily');
    expect(hint()).toBe('Tavily search API, base URL https://api.tavily.com');
    expect(endpointBoxes()).toEqual(['Default endpoints', 'search']);
    type('Type', 'suno');
    expect(hint()).toBe("Suno-style music API (new-api's /suno routes)");
    expect(endpointBoxes()).toEqual(['Default endpoints', 'music']);
    type('Type', 'searxng');
    expect(hint()).toBe('your SearXNG, JSON format enabled');

    type('Name', 'search');
    type('Base URL', 'http://searx.local/');
    type('Keys', 'unused');
    type('Models', 'searxng');
    fireEvent.click(screen.getByRole('button', { name: 'Create channel' }));
    await waitFor(() => expect(bodiesOf(calls, 'channels.createChannel')).toEqual([expect.objectContaining({ type: 'searxng', base_url: 'http://searx.local', endpoints: null })]));
  });

  it('drops the chosen endpoints a new type cannot serve: a chat channel turned into a search one is not sent with chat', async () => {
    const { calls } = relayWith([channelFixture({ endpoints: ['chat', 'embeddings'], endpoints_default: false })]);
    fireEvent.click(within(await rowOf('openai-main')).getByRole('button', { name: 'Edit' }));
    type('Type', 'tavily');
    const search = screen.getByLabelText('search') as HTMLInputElement;
    expect([search.checked, search.disabled]).toEqual([true, false]);
    expect(screen.queryByLabelText('chat')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Save channel' }));
    await waitFor(() => expect(bodiesOf(calls, 'channels.updateChannel')).toEqual([{ type: 'tavily', endpoints: ['search'] }]));
  });

  it('refuses to send a form the contract would refuse, saying which fields', async () => {
    const { calls } = relayWith([]);
    fireEvent.click(await screen.findByRole('button', { name: 'New channel' }));
    type('Base URL', 'not a url');
    fireEvent.click(screen.getByRole('button', { name: 'Create channel' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toMatch(/Name: .*Base URL: .*Keys: .*Models: /);
    expect(bodiesOf(calls, 'channels.createChannel')).toEqual([]);
  });

  it('shows a test’s latency, and the upstream’s error with its status when it fails', async () => {
    let answer: ChannelTestResult = { ok: true, latency_ms: 123, model: 'gpt-4o-mini' };
    const { calls } = relayWith([channelFixture()], { testChannel: () => ({ status: 200, body: answer }) });
    const row = await rowOf('openai-main');
    fireEvent.change(within(row).getByLabelText('Model to test'), { target: { value: 'gpt-4o-mini' } });
    fireEvent.click(within(row).getByRole('button', { name: 'Test' }));
    await waitFor(() => expect(within(row).getAllByRole('status').map((status) => status.textContent)).toContain('OK · 123 ms · gpt-4o-mini'));
    expect(bodiesOf(calls, 'channels.testChannel')).toEqual([{ model: 'gpt-4o-mini' }]);

    answer = { ok: false, latency_ms: 40, model: 'gpt-4o', status: 401, error: { message: 'Incorrect API key provided', type: 'invalid_request_error', param: null, code: 'invalid_api_key' } };
    fireEvent.click(within(row).getByRole('button', { name: 'Test' }));
    await waitFor(() => expect(within(row).getAllByRole('status').map((status) => status.textContent)).toContain('Incorrect API key provided · HTTP 401 · 40 ms · gpt-4o'));
  });

  it('shows why the relay disabled a key and re-enables that key alone', async () => {
    const channel = channelFixture({
      has_active_key: false,
      key_status: [keyStatus({ index: 0, hint: '…aaaa', status: 'disabled', reason: 'upstream answered 401 Unauthorized', changed_at: '2026-11-01T09:00:00.000Z' })],
    });
    const { calls } = relayWith([channel]);
    const row = await rowOf('openai-main');
    expect(within(row).getByText('No active key: the channel is out of rotation.')).toBeTruthy();
    expect(within(row).getByText(/^upstream answered 401 Unauthorized \(since /)).toBeTruthy();
    fireEvent.click(within(row).getByRole('button', { name: 'Re-enable' }));
    await waitFor(() => expect(bodiesOf(calls, 'channels.updateChannel')).toEqual([{ enable_keys: [0] }]));
  });

  it('edits without showing the keys, sending only what changed', async () => {
    const { calls } = relayWith([channelFixture({ priority: 1 })]);
    fireEvent.click(within(await rowOf('openai-main')).getByRole('button', { name: 'Edit' }));
    const keys = screen.getByLabelText('Keys') as HTMLTextAreaElement;
    expect(keys.value).toBe('');
    expect(keys.getAttribute('autocomplete')).toBe('off');
    expect(screen.getByText(/Leave empty to keep the current keys/)).toBeTruthy();
    type('Priority', '3');
    fireEvent.click(screen.getByRole('button', { name: 'Save channel' }));
    await waitFor(() => expect(bodiesOf(calls, 'channels.updateChannel')).toEqual([{ priority: 3 }]));
  });

  it('disables, syncs models and says why a sync failed', async () => {
    let sync: FakeAnswer<Api['channels']['syncChannelModels']> = refusal(502, 'The upstream answered 500 to GET /models', { code: 'upstream_error' });
    const { calls } = relayWith([channelFixture()], { syncChannelModels: () => sync });
    const row = await rowOf('openai-main');
    fireEvent.click(within(row).getByRole('button', { name: 'Disable' }));
    await waitFor(() => expect(bodiesOf(calls, 'channels.updateChannel')).toEqual([{ enabled: false }]));

    fireEvent.click(within(row).getByRole('button', { name: 'Sync models' }));
    expect((await within(row).findByRole('alert')).textContent).toContain('The upstream answered 500 to GET /models');

    sync = { status: 200, body: { channel_id: 1, synced_at: '2026-11-01T10:00:00.000Z', models: [{ id: 'a', endpoints: null }, { id: 'b', endpoints: null }], listed: ['a'] } };
    fireEvent.click(within(row).getByRole('button', { name: 'Sync models' }));
    expect(await within(row).findByText('Synced 2 models from the upstream · 1 listed')).toBeTruthy();
  });

  it('deletes only after the confirmation', async () => {
    const { calls } = relayWith([channelFixture()], { deleteChannel: () => ({ status: 204, body: undefined }) });
    const row = await rowOf('openai-main');
    fireEvent.click(within(row).getByRole('button', { name: 'Delete' }));
    expect(calls.filter((call) => call.route === 'channels.deleteChannel')).toHaveLength(0);
    fireEvent.click(within(row).getByRole('button', { name: 'Confirm delete' }));
    await waitFor(() => expect(calls.filter((call) => call.route === 'channels.deleteChannel')).toHaveLength(1));
  });

  it('tests all channels and lists each outcome, failures included', async () => {
    const channels = [channelFixture({ id: 1, name: 'one' }), channelFixture({ id: 2, name: 'two' }), channelFixture({ id: 3, name: 'three' })];
    relayWith(channels, {
      testChannel: (args) => {
        const id = Number(args?.params?.id);
        if (id === 2) return refusal(500, 'relay broke');
        return { status: 200, body: id === 1 ? { ok: true, latency_ms: 50, model: 'gpt-4o' } : { ok: false, latency_ms: 9, model: 'gpt-4o', status: 429, error: { message: 'Rate limited', type: 'x', param: null, code: null } } };
      },
    });
    await rowOf('one');
    fireEvent.click(screen.getByRole('button', { name: 'Test all channels' }));
    const results = await screen.findByRole('region', { name: 'Test results' });
    await waitFor(() => expect(within(results).getByText(/3 of 3 tested · 2 failed/)).toBeTruthy());
    const lines = within(results).getAllByRole('listitem').map((item) => item.textContent);
    expect(lines).toEqual(['one: OK · 50 ms · gpt-4o', 'two: relay broke · HTTP 500', 'three: Rate limited · HTTP 429 · 9 ms · gpt-4o']);
  });
  describe('the three clouds (issue 31)', () => {
    const field = (label: string) => screen.getByLabelText(label) as HTMLInputElement;
    const hintOf = (element: HTMLElement) => document.getElementById(element.getAttribute('aria-describedby') ?? '')?.textContent;

    it('creates a vertex channel: its region as cloud, a pasted multi-line key file as one key, never shown again', async () => {
      const { calls } = relayWith([]);
      fireEvent.click(await screen.findByRole('button', { name: 'New channel' }));
      expect(screen.queryByLabelText('Region')).toBeNull();
      type('Type', 'vertex');
      expect(field('Base URL').placeholder).toBe('https://aiplatform.googleapis.com');
      expect(field('Region').placeholder).toBe('global');
      expect(screen.queryByLabelText('API version')).toBeNull();
      type('Name', 'vertex-main');
      type('Base URL', 'https://aiplatform.googleapis.com');
      type('Region', 'us-east5');
      type('Keys', serviceAccountKeyFile());
      type('Models', 'gemini-2.5-pro');
      fireEvent.click(screen.getByRole('button', { name: 'Create channel' }));

      await waitFor(() =>
        expect(bodiesOf(calls, 'channels.createChannel')).toEqual([
          expect.objectContaining({ type: 'vertex', cloud: { region: 'us-east5' }, keys: [JSON.stringify(JSON.parse(serviceAccountKeyFile()))] }),
        ]),
      );
      await rowOf('vertex-main');
      expect(document.body.innerHTML).not.toContain('not-a-real-key');
    });

    it('adds a .json key file to the keys on a line of its own, saying which file it read', async () => {
      const { calls } = relayWith([]);
      fireEvent.click(await screen.findByRole('button', { name: 'New channel' }));
      type('Type', 'openai');
      expect(screen.queryByLabelText('Add a key file (.json)')).toBeNull();
      type('Type', 'vertex');
      type('Keys', serviceAccountKeyFile('first@acme-prod.iam.gserviceaccount.com'));
      const file = new File([serviceAccountKeyFile('second@acme-prod.iam.gserviceaccount.com')], 'relay-key.json', { type: 'application/json' });
      // jsdom's File may lack text(): the page reads it as browsers do.
      Object.defineProperty(file, 'text', { value: async () => serviceAccountKeyFile('second@acme-prod.iam.gserviceaccount.com') });
      fireEvent.change(screen.getByLabelText('Add a key file (.json)'), { target: { files: [file] } });
      expect(await screen.findByText('Added the key in relay-key.json.')).toBeTruthy();
      expect((screen.getByLabelText('Keys') as HTMLTextAreaElement).value.split('\n').at(-1)).toBe(JSON.stringify(JSON.parse(serviceAccountKeyFile('second@acme-prod.iam.gserviceaccount.com'))));

      type('Name', 'vertex-two');
      type('Base URL', 'https://aiplatform.googleapis.com');
      type('Models', 'gemini-2.5-pro');
      fireEvent.click(screen.getByRole('button', { name: 'Create channel' }));
      await waitFor(() => expect(bodiesOf(calls, 'channels.createChannel')).toHaveLength(1));
      const [body] = bodiesOf(calls, 'channels.createChannel') as Array<{ keys: string[]; cloud: object }>;
      expect(body?.keys.map((key) => (JSON.parse(key) as { client_email: string }).client_email)).toEqual(['first@acme-prod.iam.gserviceaccount.com', 'second@acme-prod.iam.gserviceaccount.com']);
      expect(body?.cloud).toEqual({});
    });

    it('says in the Region hint that a Bedrock base URL already names the region, and sends none', async () => {
      const { calls } = relayWith([]);
      fireEvent.click(await screen.findByRole('button', { name: 'New channel' }));
      type('Type', 'bedrock');
      expect(field('Region').placeholder).toBe('us-east-1');
      type('Base URL', 'https://bedrock-runtime.eu-west-3.amazonaws.com');
      expect(hintOf(field('Region'))).toBe('The base URL names eu-west-3: leave empty to sign for it.');
      type('Name', 'bedrock-paris');
      type('Keys', 'AKIAIOSFODNN7EXAMPLE:wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY');
      type('Models', 'anthropic.claude-sonnet-4-5-20250929-v1:0');
      fireEvent.click(screen.getByRole('button', { name: 'Create channel' }));
      await waitFor(() => expect(bodiesOf(calls, 'channels.createChannel')).toEqual([expect.objectContaining({ type: 'bedrock', cloud: {} })]));
    });

    it('edits an azure channel: shows its API version and the key hints; a switch to openai drops the field and clears cloud', async () => {
      const azure = channelFixture({
        type: 'azure',
        base_url: 'https://acme.openai.azure.com',
        cloud: { api_version: '2024-10-21' },
        key_hints: ['Entra app c-1 (tenant t-1)'],
        key_status: [keyStatus({ hint: 'Entra app c-1 (tenant t-1)' })],
      });
      const { calls } = relayWith([azure]);
      fireEvent.click(within(await rowOf('openai-main')).getByRole('button', { name: 'Edit' }));
      expect(field('API version').value).toBe('2024-10-21');
      expect(field('API version').placeholder).toBe('2024-10-21');
      expect(screen.getByText(/keep the current keys \(Entra app c-1 \(tenant t-1\)\)/)).toBeTruthy();
      expect(screen.getByLabelText('Add a key file (.json)')).toBeTruthy();
      type('Type', 'openai');
      expect(screen.queryByLabelText('API version')).toBeNull();
      fireEvent.click(screen.getByRole('button', { name: 'Save channel' }));
      await waitFor(() => expect(bodiesOf(calls, 'channels.updateChannel')).toEqual([{ type: 'openai', cloud: {} }]));
    });
  });
});
