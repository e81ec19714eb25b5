import type { Channel } from '@chat-relay/contract';
import { toneWav, transcriptOf, type UpstreamSim } from '@chat-relay/upstream-sim';
import { toFile } from 'openai';
import { SIM_KEY, startE2eRelay, type E2eRelay } from './e2e-relay';
import { usageRowsFor } from './usage-rows-for';

/** The deployments API's version (https://learn.microsoft.com/en-us/azure/ai-foundry/openai/api-version-lifecycle). */
const API_VERSION = '2024-10-21';

/** An Entra service principal whose client credentials mint the bearer (https://learn.microsoft.com/en-us/entra/identity-platform/v2-oauth2-client-creds-grant-flow). */
const entraKey = (sim: UpstreamSim, secret = SIM_KEY): string =>
  JSON.stringify({ tenant_id: 'contoso-tenant', client_id: 'relay-app-id', client_secret: secret, authority_host: sim.origin });

const hello = { model: 'gpt-4o', max_tokens: 32, messages: [{ role: 'user', content: 'Hello there' }] };

describe('e2e: azure channels (issue 31) — v1 and deployments URLs, api-key and Entra, content filter, retry-after-ms', () => {
  let e2e: E2eRelay;
  let sim: UpstreamSim;

  const admin = async (path: string) => {
    const response = await fetch(`${e2e.url}${path}`, { headers: { authorization: `Bearer ${e2e.relay.adminKey}` } });
    const text = await response.text();
    return { status: response.status, text, json: JSON.parse(text) as Channel };
  };
  const addAzure = (input: Record<string, unknown> = {}, on: UpstreamSim = sim): Promise<Channel> =>
    e2e.addChannel(on.origin, { type: 'azure', keys: [SIM_KEY], models: ['gpt-4o', 'text-embedding-3-small'], endpoints: ['chat', 'embeddings'], ...input });
  const calls = (on: UpstreamSim = sim) => on.requests.filter((request) => request.path.startsWith('/openai/') && !request.path.endsWith('/models'));

  beforeEach(async () => {
    e2e = await startE2eRelay();
    sim = await e2e.startSim();
  });
  afterEach(() => e2e.close());

  it.each([
    ['v1, api-key', {}, '/openai/v1', (sim: UpstreamSim) => [SIM_KEY, sim]],
    ['deployments, api-key', { cloud: { api_version: API_VERSION } }, '/openai/deployments/gpt-4o', (sim: UpstreamSim) => [SIM_KEY, sim]],
    ['v1, Entra service principal', {}, '/openai/v1', (sim: UpstreamSim) => [entraKey(sim), sim]],
    ['deployments, Entra service principal', { cloud: { api_version: API_VERSION } }, '/openai/deployments/gpt-4o', (sim: UpstreamSim) => [entraKey(sim), sim]],
  ] as const)('%s: chat streamed and not, with usage rows', async (_name, input, root, keyOf) => {
    const [key] = keyOf(sim);
    await addAzure({ ...input, keys: [key] });
    const openai = e2e.client();
    const messages = [{ role: 'user' as const, content: 'Hello from the relay' }];

    const chat = await openai.chat.completions.create({ model: 'gpt-4o', messages }).withResponse();
    expect(chat.data.choices[0]?.message.content).toBe('You said: Hello from the relay');
    const streamed = await openai.chat.completions.create({ model: 'gpt-4o', messages, stream: true, stream_options: { include_usage: true } }).withResponse();
    let text = '';
    let usage = 0;
    for await (const chunk of streamed.data) {
      text += chunk.choices[0]?.delta.content ?? '';
      usage = chunk.usage?.total_tokens ?? usage;
    }
    expect(text).toBe('You said: Hello from the relay');
    expect(usage).toBeGreaterThan(0);

    const query = root.includes('/deployments/') ? `api-version=${API_VERSION}` : '';
    expect(calls().map((request) => [request.path, request.query])).toEqual([
      [`${root}/chat/completions`, query],
      [`${root}/chat/completions`, query],
    ]);
    // An Entra principal's bearer is minted once for both calls.
    expect(sim.requests.filter((request) => request.path.endsWith('/oauth2/v2.0/token'))).toHaveLength(key === SIM_KEY ? 0 : 1);
    for (const request of calls()) {
      if (key === SIM_KEY) expect(request.headers['api-key']).toBe(SIM_KEY);
      else expect(String(request.headers['authorization'])).toMatch(/^Bearer /);
    }
    const rows = await usageRowsFor(e2e, [chat.response.headers.get('x-request-id'), streamed.response.headers.get('x-request-id')]);
    for (const row of rows) expect(row).toMatchObject({ status: 200, upstreamModel: 'gpt-4o', usageEstimated: false });
  });

  it('embeddings, and Responses passed through to the v1 API', async () => {
    await addAzure();
    const openai = e2e.client();
    const embedded = await openai.embeddings.create({ model: 'text-embedding-3-small', input: 'a sentence' });
    expect(embedded.data[0]?.embedding.length).toBe(1536);
    const response = await openai.responses.create({ model: 'gpt-4o', input: 'Hello from the relay' });
    expect(response.output_text).toBe('You said: Hello from the relay');
    expect(calls().map((request) => request.path)).toEqual(['/openai/v1/embeddings', '/openai/v1/responses']);
  });

  it('an answer the content filter stops: finish_reason content_filter, streamed and not; Responses streamed on v1 and bridged on deployments', async () => {
    const v1 = await addAzure();
    const pinned = await e2e.startSim();
    const openai = e2e.client();
    const filtered = [{ role: 'user' as const, content: 'Tell me sim-filter-output please' }];
    const whole = await openai.chat.completions.create({ model: 'gpt-4o', messages: filtered });
    expect(whole.choices[0]?.finish_reason).toBe('content_filter');
    const chunks = [];
    for await (const chunk of await openai.chat.completions.create({ model: 'gpt-4o', messages: filtered, stream: true })) chunks.push(chunk);
    expect(chunks.flatMap((chunk) => chunk.choices.map((choice) => choice.finish_reason).filter(Boolean))).toEqual(['content_filter']);
    // Azure's stream opens with a chunk of the prompt's verdicts alone (choices: [], empty id): not passed on as a chunk of no model.
    for (const chunk of chunks) expect(chunk.model).toBe('gpt-4o');

    const events: string[] = [];
    for await (const event of await openai.responses.create({ model: 'gpt-4o', input: 'Hello from the relay', stream: true })) events.push(event.type);
    expect(events.at(-1)).toBe('response.completed');
    expect(calls().at(-1)?.path).toBe('/openai/v1/responses');

    // A channel pinned to an api-version has no Responses route: bridged through chat completions.
    expect((await fetch(`${e2e.url}/api/channels/${v1.id}`, { method: 'DELETE', headers: { authorization: `Bearer ${e2e.relay.adminKey}` } })).status).toBe(204);
    await addAzure({ cloud: { api_version: API_VERSION } }, pinned);
    const bridged = await openai.responses.create({ model: 'gpt-4o', input: 'Hello from the relay' });
    expect(bridged.output_text).toBe('You said: Hello from the relay');
    expect(calls(pinned).map((request) => request.path)).toEqual(['/openai/deployments/gpt-4o/chat/completions']);
  });

  it('the channel test and model sync on both URL styles; a deployment the resource lacks points at the model mapping', async () => {
    const v1 = await addAzure({ models: ['gpt-4o', 'missing'], model_mapping: { missing: 'no-such-deployment' } });
    const dated = await addAzure({ name: 'dated', cloud: { api_version: API_VERSION } });
    for (const channel of [v1, dated]) {
      const tested = await fetch(`${e2e.url}/api/channels/${channel.id}/test`, { method: 'POST', headers: { authorization: `Bearer ${e2e.relay.adminKey}`, 'content-type': 'application/json' }, body: JSON.stringify({ model: 'gpt-4o' }) });
      expect(await tested.json()).toMatchObject({ ok: true, status: 200 });
      const synced = await fetch(`${e2e.url}/api/channels/${channel.id}/models/sync`, { method: 'POST', headers: { authorization: `Bearer ${e2e.relay.adminKey}` } });
      expect(synced.status).toBe(200);
      expect(((await synced.json()) as { models: Array<{ id: string }> }).models.map((model) => model.id)).toContain('gpt-4o');
    }
    expect(sim.requests.filter((request) => request.method === 'GET').map((request) => `${request.path}?${request.query}`)).toEqual(['/openai/v1/models?', `/openai/models?api-version=${API_VERSION}`]);

    const missing = await e2e.postChat({ ...hello, model: 'missing' });
    expect(missing.status).toBe(502);
    const { error } = (await missing.json()) as { error: { code: string; message: string } };
    expect(error.code).toBe('deployment_not_found');
    // The deployment the call named, and where to fix it.
    expect(error.message).toContain("no deployment named 'no-such-deployment'");
    expect(error.message).toContain("the channel's model mapping");
  });

  it.each([
    ['api-key', (_on: UpstreamSim): string => SIM_KEY],
    ['Entra service principal', (on: UpstreamSim): string => entraKey(on)],
  ] as const)('uploads (transcriptions, multipart) reach Azure with the %s: the body streams, only a signature would need it whole', async (_name, keyOf) => {
    await addAzure({ keys: [keyOf(sim)], models: ['whisper-1'], endpoints: ['audio_transcriptions'] });
    const wav = toneWav(1.5);
    const json = await e2e.client().audio.transcriptions.create({ model: 'whisper-1', file: await toFile(wav, 'speech.wav', { type: 'audio/wav' }) });
    expect(json.text).toBe(transcriptOf('transcribe', { filename: 'speech.wav', data: wav }).text);
    expect(calls().map((request) => request.path)).toEqual(['/openai/v1/audio/transcriptions']);
  });

  it('a prompt the content filter refuses: the caller gets a 400 content_filter; the circuit stays closed and the key active', async () => {
    const channel = await addAzure();
    const refused = { ...hello, messages: [{ role: 'user', content: 'Please say sim-filter-prompt' }] };
    for (let i = 0; i < 6; i++) {
      const answer = await e2e.postChat(refused);
      expect(answer.status).toBe(400);
      expect(((await answer.json()) as { error: { code: string } }).error.code).toBe('content_filter');
    }
    const streamed = await e2e.postChat({ ...refused, stream: true });
    expect(streamed.status).toBe(400);
    // https://learn.microsoft.com/en-us/azure/ai-foundry/openai/concepts/content-filter: the request's fault, not the channel's.
    expect(e2e.relay.services.health.snapshot(channel.id)).toMatchObject({ state: 'closed', failures: 0 });
    expect((await admin(`/api/channels/${channel.id}`)).json.key_status[0]?.status).toBe('active');
    expect(calls()).toHaveLength(7);
    expect((await e2e.postChat(hello)).status).toBe(200);
  });

  it('a 429 with retry-after-ms rests the channel: this request and the next go to the other channel without touching it', async () => {
    const other = await e2e.startSim();
    await addAzure({ name: 'limited', priority: 10 });
    await addAzure({ name: 'other', priority: 0 }, other);

    sim.failNext({ kind: 'status', status: 429 });
    expect((await e2e.postChat(hello)).status).toBe(200);
    expect((await e2e.postChat(hello)).status).toBe(200);
    expect(calls(sim)).toHaveLength(1);
    expect(calls(other)).toHaveLength(2);
  });

  it("azure 429 answered as a 502 (SPEC §9, as every upstream's): alone, the channel rate-limited gives the caller its retry-after", async () => {
    await addAzure();
    sim.failNext({ kind: 'status', status: 429 });
    const answer = await e2e.postChat(hello);
    expect(answer.status).toBe(502);
    // https://learn.microsoft.com/en-us/azure/ai-foundry/openai/quotas-limits: retry-after-ms 6000 → 6 s.
    expect(answer.headers.get('retry-after')).toBe('6');
    expect(((await answer.json()) as { error: { message: string } }).error.message).toContain('429');
    // While it rests, the channel is not asked again.
    const resting = await e2e.postChat(hello);
    expect(calls()).toHaveLength(1);
    expect(resting.status).toBe(503);
    expect(((await resting.json()) as { error: { code: string } }).error.code).toBe('no_available_channel');
  });

  it('an Entra bearer Azure stops taking (401 on a call): minted afresh once and the call retried, the key kept', async () => {
    const channel = await addAzure({ keys: [entraKey(sim)] });
    expect((await e2e.postChat(hello)).status).toBe(200);
    sim.failNext({ kind: 'status', status: 401 });
    expect((await e2e.postChat(hello)).status).toBe(200);
    expect(sim.requests.filter((request) => request.path.endsWith('/oauth2/v2.0/token'))).toHaveLength(2);
    expect(calls()).toHaveLength(3);
    expect((await admin(`/api/channels/${channel.id}`)).json.key_status[0]?.status).toBe('active');
  });

  it('an Entra service principal with a wrong secret: its key is disabled and the api-key answers', async () => {
    const channel = await addAzure({ keys: [entraKey(sim, 'wrong-client-secret'), SIM_KEY] });
    expect((await e2e.postChat(hello)).status).toBe(200);
    expect((await e2e.postChat(hello)).status).toBe(200);
    expect(calls().every((request) => request.headers['api-key'] === SIM_KEY)).toBe(true);
    const { json, text } = await admin(`/api/channels/${channel.id}`);
    expect(json.key_status).toMatchObject([
      { index: 0, hint: 'Entra app relay-app-id (tenant contoso-tenant)', status: 'disabled', reason: expect.stringContaining('upstream_auth_failed') },
      { index: 1, status: 'active' },
    ]);
    expect(text).not.toContain('wrong-client-secret');
  });

  it("a wrong api-key: Azure's 401 disables it after one call (only a minted bearer is sent again)", async () => {
    const channel = await addAzure({ keys: ['wrong-api-key-0000', SIM_KEY] });
    expect((await e2e.postChat(hello)).status).toBe(200);
    expect((await e2e.postChat(hello)).status).toBe(200);
    expect(calls().map((request) => request.headers['api-key'])).toEqual(['wrong-api-key-0000', SIM_KEY, SIM_KEY]);
    expect((await admin(`/api/channels/${channel.id}`)).json.key_status).toMatchObject([{ hint: 'api-key ...0000', status: 'disabled' }, { status: 'active' }]);
  });
});
