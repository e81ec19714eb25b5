import type { Price } from '@chat-relay/contract';
import { createHash } from 'node:crypto';
import { toneWav, type UpstreamSim } from '@chat-relay/upstream-sim';
import { SIM_KEY } from './e2e-relay';
import { usageRowsFor } from './usage-rows-for';
import { formOf, modelCalls, startEndpointsRelay, type Answer, type EndpointsE2e } from './endpoints-e2e';
import { startTcpTap, type TcpTap } from './tcp-tap';

/**
 * SPEC §6/§8 on the endpoints beside chat: a caller who leaves a speech stream mid-way cancels
 * the upstream request and is charged what the upstream bills (the whole input), settling the
 * reservation; a failure before the first byte is retried on another channel serving the
 * endpoint; an upstream 401 disables the key, as on chat.
 */
const PRICES: Price[] = [
  { model: 'tts-1', input: 0, output: 0, characters: 15_000_000 },
  { model: '*', input: 1_000_000, output: 2_000_000, search_unit: 2_000, image: 20_000, audio_minute: 6_000 },
];
const WAV = toneWav(1.5);
const png = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');

/** One request of each kind of answer: JSON, SSE, bytes, and multipart uploads (sent again on a retry). */
interface EndpointRequest {
  name: string;
  send(e2e: EndpointsE2e): Promise<Answer>;
  /** The file a multipart request uploads. */
  upload?: Buffer;
}
const requests: EndpointRequest[] = [
  { name: 'embeddings', send: (e2e) => e2e.postJson('/v1/embeddings', { model: 'text-embedding-3-small', input: 'hello world' }) },
  { name: 'rerank', send: (e2e) => e2e.postJson('/v1/rerank', { model: 'rerank-english-v3.0', query: 'cats', documents: ['a cat', 'a dog'] }) },
  { name: 'streamed completions', send: (e2e) => e2e.postJson('/v1/completions', { model: 'gpt-3.5-turbo-instruct', prompt: 'Say hi', stream: true }) },
  { name: 'speech', send: (e2e) => e2e.postJson('/v1/audio/speech', { model: 'tts-1', input: 'Hello there.', voice: 'alloy' }) },
  {
    name: 'transcriptions',
    upload: WAV,
    send: (e2e) => e2e.postForm('/v1/audio/transcriptions', formOf({ model: 'whisper-1' }, [['file', WAV, 'a.wav', 'audio/wav']])),
  },
  {
    name: 'image edits',
    upload: png,
    send: (e2e) => e2e.postForm('/v1/images/edits', formOf({ model: 'dall-e-2', prompt: 'a hat' }, [['image', png, 'a.png', 'image/png']])),
  },
];
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

describe('e2e: a speech stream the caller aborts mid-way', () => {
  let e2e: EndpointsE2e;
  let tap: TcpTap;

  beforeEach(async () => {
    e2e = await startEndpointsRelay({ models: ['tts-1'], endpoints: ['audio_speech'] });
    tap = await startTcpTap(e2e.sim.port);
    // The only channel serving speech goes through the tap, which sees the upstream socket close.
    await e2e.admin('PATCH', `/api/channels/${e2e.channel.id}`, { base_url: `http://127.0.0.1:${tap.port}/v1` });
    await e2e.setPrices(PRICES);
    await e2e.setQuota(10_000_000);
  });
  afterEach(async () => {
    await e2e.close();
    await tap.close();
  });

  it('cancels the upstream request, logs 499 charging the characters, settles the reservation, and does not hang', async () => {
    // 30 s of audio, a chunk (0.1 s) every 100 ms: half a minute of streaming unless cancelled.
    const input = '[sim:audio_seconds=30] [sim:latency=100] Read this slowly, please.';
    const abort = new AbortController();
    const response = await fetch(`${e2e.url}/v1/audio/speech`, {
      method: 'POST',
      headers: { authorization: `Bearer ${e2e.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'tts-1', input, voice: 'alloy', response_format: 'wav' }),
      signal: abort.signal,
    });
    expect(response.status).toBe(200);
    const requestId = response.headers.get('x-request-id');
    const reader = response.body!.getReader();
    let received = 0;
    while (received < 20_000) {
      const { value, done } = await reader.read();
      if (done) throw new Error('the speech ended before it was aborted');
      received += value.length;
    }
    expect(e2e.openReservations()).toBe(1);
    const abortedAt = Date.now();
    abort.abort();
    await reader.cancel().catch(() => undefined);

    expect(tap.connections).toHaveLength(1);
    const upstream = tap.connections[0]!;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([upstream.closed, new Promise((resolve) => (timer = setTimeout(resolve, 2_000)))]);
    clearTimeout(timer);
    expect(upstream.closedAt).toBeDefined();
    expect(upstream.closedAt! - abortedAt).toBeLessThan(1_000);

    const [row] = await usageRowsFor(e2e, [requestId]);
    const characters = [...input].length;
    expect(row).toMatchObject({ status: 499, errorCode: 'client_closed', endpoint: 'audio_speech', units: characters, cost: characters * 15, attempts: 1 });
    expect(Date.now() - abortedAt).toBeLessThan(2_000);
    expect(await e2e.quotaUsed()).toBe(characters * 15);
    expect(e2e.openReservations()).toBe(0);
    expect(modelCalls(e2e.sim)).toHaveLength(1);
  });
});

describe('e2e: an upstream failure before the first byte is retried on another channel serving the endpoint', () => {
  let e2e: EndpointsE2e;
  let second: UpstreamSim;
  let secondChannelId: number;

  beforeAll(async () => {
    e2e = await startEndpointsRelay({ priority: 10 });
    second = await e2e.startSim();
    // Serves every endpoint too, but is tried only after the first; a chat-only one would never be.
    await e2e.addChannel(second.baseUrl, { models: ['*'], endpoints: ['chat'], priority: 5 });
    secondChannelId = (await e2e.addChannel(second.baseUrl, { models: ['*'], endpoints: [...e2e.channel.endpoints], priority: 0 })).id;
    await e2e.setPrices(PRICES);
  });
  afterAll(() => e2e.close());
  beforeEach(async () => {
    e2e.sim.reset();
    second.reset();
    await e2e.setQuota(10_000_000);
  });

  it.each(requests)('$name: a 500 from the first channel → answered by the second, one row with attempts 2', async ({ send, upload }) => {
    e2e.sim.failNext({ kind: 'status', status: 500 });
    const answer = await send(e2e);
    expect(answer.status).toBe(200);
    const [failed] = modelCalls(e2e.sim);
    const [answered] = modelCalls(second);
    expect(modelCalls(e2e.sim)).toHaveLength(1);
    expect(modelCalls(second)).toHaveLength(1);
    expect(answered!.path).toBe(failed!.path);
    // An upload is sent again whole, from the relay's spool.
    expect(answered!.multipart?.files).toEqual(failed!.multipart?.files);
    expect(answered!.multipart?.files.map((file) => file.sha256)).toEqual(upload ? [sha256(upload)] : undefined);

    const [row] = await usageRowsFor(e2e, [answer.requestId]);
    expect(row).toMatchObject({ status: 200, attempts: 2, channelId: secondChannelId, errorCode: null });
    expect(row!.cost).toBeGreaterThan(0);
    expect(await e2e.quotaUsed()).toBe(row!.cost);
    expect(e2e.openReservations()).toBe(0);
  });
});

describe('e2e: an upstream 401 on an endpoint disables the key, as on chat', () => {
  let e2e: EndpointsE2e;
  let goodChannelId: number;

  beforeEach(async () => {
    e2e = await startEndpointsRelay({ keys: ['sk-revoked-key'], priority: 10 });
    goodChannelId = (await e2e.addChannel(e2e.sim.baseUrl, { models: ['*'], endpoints: [...e2e.channel.endpoints], keys: [SIM_KEY] })).id;
    await e2e.setPrices(PRICES);
    await e2e.setQuota(10_000_000);
  });
  afterEach(() => e2e.close());

  const withRevokedKey = () => modelCalls(e2e.sim).filter((request) => request.headers['authorization'] === 'Bearer sk-revoked-key');

  it.each(requests)('$name', async ({ send }) => {
    const first = await send(e2e);
    expect(first.status).toBe(200);
    expect(withRevokedKey()).toHaveLength(1);
    const [row] = await usageRowsFor(e2e, [first.requestId]);
    expect(row).toMatchObject({ status: 200, attempts: 2, channelId: goodChannelId });

    const channel = await e2e.admin('GET', `/api/channels/${e2e.channel.id}`);
    expect(channel.json).toMatchObject({
      has_active_key: false,
      key_status: [{ index: 0, status: 'disabled', reason: expect.stringMatching(/upstream_auth_failed.*401/) }],
    });
    // Out of rotation: the next request goes to the good key at once.
    const second = await send(e2e);
    expect(second.status).toBe(200);
    expect(withRevokedKey()).toHaveLength(1);
    const [secondRow] = await usageRowsFor(e2e, [second.requestId]);
    expect(secondRow).toMatchObject({ attempts: 1, channelId: goodChannelId });
  });
});
