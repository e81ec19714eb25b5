import http, { type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ChannelSchema, ChannelTestResultSchema, type Channel, type ChannelTestResult } from '@chat-relay/contract';
import { SIM_KEY, startE2eRelay, type E2eRelay } from '../../test/e2e/e2e-relay';

const KEY = 'tvly-probe-secret-0123456789';
const OTHER_KEY = 'tvly-probe-other-9876543210';

interface Received {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}
type Answer = { status?: number; json?: unknown; text?: string };

/** A Tavily, SearXNG or Suno-style stand-in on 127.0.0.1, port 0: keeps each request with its body, answers as told. */
async function startStandIn(answer: (received: Received) => Answer) {
  const received: Received[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const request = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
      received.push(request);
      const { status = 200, json, text } = answer(request);
      res.writeHead(status, { 'content-type': json === undefined ? 'text/html' : 'application/json' });
      res.end(json === undefined ? (text ?? '') : JSON.stringify(json));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    received,
    close: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
}

const tavilyAnswer = { query: 'chat-relay channel test', results: [{ title: 't', url: 'https://example.com', content: 'c', score: 0.5 }], response_time: 0.4 };
const searxngAnswer = { query: 'chat-relay channel test', number_of_results: 0, results: [], answers: [], suggestions: [] };
const sunoAnswer = { code: 'success', message: '', data: [] };

/** Issue 17: a channel serving no chat is tested with its type's free request, recorded like a chat test. */
describe('channel tests of types without chat', () => {
  let e2e: E2eRelay;
  let standIn: Awaited<ReturnType<typeof startStandIn>>;
  let answer: (received: Received) => Answer;

  const admin = (path: string, body?: unknown) =>
    fetch(`${e2e.url}${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: { authorization: `Bearer ${e2e.relay.adminKey}`, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  const addChannel = async (type: string, keys = [KEY], extra: object = {}) => {
    const created = await admin('/api/channels', { name: type, type, base_url: standIn.origin, keys, models: [`${type}-model`], ...extra });
    expect(created.status).toBe(201);
    return ChannelSchema.parse(await created.json());
  };
  const testChannel = async (id: number, body: object = {}): Promise<ChannelTestResult> => {
    const tested = await admin(`/api/channels/${id}/test`, body);
    expect(tested.status).toBe(200);
    return ChannelTestResultSchema.parse(await tested.json());
  };
  const getChannel = async (id: number): Promise<Channel> => ChannelSchema.parse(await (await admin(`/api/channels/${id}`)).json());

  beforeEach(async () => {
    answer = () => ({ json: {} });
    standIn = await startStandIn((received) => answer(received));
    e2e = await startE2eRelay();
  });
  afterEach(async () => {
    await e2e.close();
    await standIn.close();
  });

  it('tests a tavily channel with one one-result search, the key as Bearer; the result names the test', async () => {
    answer = () => ({ json: tavilyAnswer });
    const channel = await addChannel('tavily');

    const result = await testChannel(channel.id);

    expect(result).toEqual({ ok: true, latency_ms: expect.any(Number), model: 'POST /search', status: 200 });
    expect(standIn.received).toHaveLength(1);
    const [sent] = standIn.received;
    expect(sent).toMatchObject({ method: 'POST', url: '/search', headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' } });
    expect(JSON.parse(sent?.body ?? '')).toEqual({ query: 'chat-relay channel test', max_results: 1 });
    expect((await getChannel(channel.id)).last_check).toEqual({ ...result, at: expect.any(String), trigger: 'manual' });
  });

  it('tests a searxng channel with a JSON search and no key; a 403 says to turn the JSON format on, and disables nothing', async () => {
    answer = () => ({ json: searxngAnswer });
    const channel = await addChannel('searxng');

    expect(await testChannel(channel.id)).toMatchObject({ ok: true, model: 'GET /search', status: 200 });
    expect(standIn.received[0]).toMatchObject({ method: 'GET', url: '/search?q=chat-relay+channel+test&format=json', body: '' });
    expect(standIn.received[0]?.headers['authorization']).toBeUndefined();

    answer = () => ({ status: 403, text: '<html>Forbidden</html>' });
    const refused = await testChannel(channel.id);
    expect(refused).toMatchObject({ ok: false, status: 403, model: 'GET /search', error: { type: 'upstream_error', code: 'upstream_403' } });
    expect(refused.error?.message).toBe('The upstream answered 403 to GET /search. SearXNG answers 403 while its JSON format is off: add json to search.formats in its settings.yml.');
  });

  it('tests a suno channel by fetching no tasks (free), the key as Bearer; an answer that is not new-api’s says to check the base URL', async () => {
    answer = () => ({ json: sunoAnswer });
    const channel = await addChannel('suno');

    expect(await testChannel(channel.id)).toMatchObject({ ok: true, model: 'POST /suno/fetch', status: 200 });
    expect(standIn.received[0]).toMatchObject({ method: 'POST', url: '/suno/fetch', headers: { authorization: `Bearer ${KEY}` } });
    expect(JSON.parse(standIn.received[0]?.body ?? '')).toEqual({ ids: [] });

    answer = () => ({ text: '<html>a web page</html>' });
    expect(await testChannel(channel.id)).toMatchObject({
      ok: false,
      status: 200,
      error: { code: 'upstream_invalid_response', message: "The upstream's answer to POST /suno/fetch is not what the channel's type (suno) answers; check the base URL." },
    });
    answer = () => ({ json: { code: 'fail', message: 'task engine busy', data: null } });
    expect((await testChannel(channel.id)).error?.message).toContain(': task engine busy; check the base URL.');
  });

  it('reports a refused key (401) as the chat test does, other refusals with the upstream’s words (keys cut out); a model the channel does not serve is a 400', async () => {
    answer = () => ({ status: 401, json: { detail: { error: `Unauthorized: invalid API key ${KEY}` } } });
    const channel = await addChannel('tavily');

    const refused = await testChannel(channel.id);

    expect(refused).toMatchObject({ ok: false, status: 401, model: 'POST /search', error: { code: 'upstream_auth_failed' } });
    expect(JSON.stringify(refused)).not.toContain(KEY);
    answer = () => ({ status: 432, json: { detail: { error: `Plan limit exceeded for ${KEY}` } } });
    const limited = await testChannel(channel.id);
    expect(limited.error).toMatchObject({ code: 'upstream_432', message: 'The upstream answered 432 to POST /search: Plan limit exceeded for [redacted].' });
    // A manual test changes nothing.
    expect((await getChannel(channel.id)).key_status.map((key) => key.status)).toEqual(['active']);

    const wrongModel = await admin(`/api/channels/${channel.id}/test`, { model: 'gpt-4o' });
    expect(wrongModel.status).toBe(400);
    expect(await wrongModel.json()).toMatchObject({ error: { param: 'model', code: 'model_not_served' } });
    expect(await testChannel(channel.id, { model: 'tavily-model' })).toMatchObject({ model: 'POST /search' });
  });

  it('the scheduled check re-tests a disabled key of a search channel alone: re-enabled when it passes, kept out on a 401', async () => {
    answer = (received) =>
      received.headers['authorization'] === `Bearer ${OTHER_KEY}` ? { status: 401, json: { detail: { error: 'Unauthorized' } } } : { json: tavilyAnswer };
    const channel = await addChannel('tavily', [KEY, OTHER_KEY]);
    await e2e.relay.storage.channels.disableKey(channel.id, KEY, 'upstream answered 401');
    await e2e.relay.storage.channels.disableKey(channel.id, OTHER_KEY, 'upstream answered 401');

    expect(await e2e.relay.services.channelChecks.runOnce()).toEqual({ channelsChecked: 1, circuitsClosed: 0, keysReEnabled: 1 });

    expect(standIn.received.map((sent) => `${sent.method} ${sent.url} ${String(sent.headers['authorization'])}`)).toEqual([
      `POST /search Bearer ${KEY}`,
      `POST /search Bearer ${OTHER_KEY}`,
    ]);
    const shown = await getChannel(channel.id);
    expect(shown.key_status.map((key) => key.status)).toEqual(['active', 'disabled']);
    expect(shown.key_status[1]?.reason).toContain('status 401');
    expect(shown.last_check).toMatchObject({ ok: false, status: 401, model: 'POST /search', trigger: 'scheduled' });
  });

  it('an openai channel serving no chat is tested with GET /models (free), not a chat request', async () => {
    const sim = await e2e.startSim();
    const channel = await e2e.addChannel(sim.baseUrl, { models: ['text-embedding-3-small'], endpoints: ['embeddings'] });

    expect(await testChannel(channel.id)).toMatchObject({ ok: true, model: 'GET /models', status: 200 });
    expect(sim.requests.map((sent) => `${sent.method} ${sent.path} ${String(sent.headers['authorization'])}`)).toEqual([`GET /v1/models Bearer ${SIM_KEY}`]);

    // The same channel serving chat too keeps the chat test.
    await fetch(`${e2e.url}/api/channels/${channel.id}`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${e2e.relay.adminKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ models: ['gpt-4o'], endpoints: ['chat', 'embeddings'] }),
    });
    expect(await testChannel(channel.id)).toMatchObject({ ok: true, model: 'gpt-4o' });
    expect(sim.requests.at(-1)).toMatchObject({ method: 'POST', path: '/v1/chat/completions' });
  });
});
