import { createHash } from 'node:crypto';
import { simulatedVideoContent, simPng } from '@chat-relay/upstream-sim';
import OpenAI, { toFile } from 'openai';
import type { Video } from 'openai/resources/videos';
import { createAccount, createToken } from '../testing/system-api';
import { startEndpointsRelay, type EndpointsE2e } from './endpoints-e2e';

// Videos end to end (issue 17): the official `openai` package against the relay, the simulator
// behind an `openai` channel serving `videos`, the relay's task engine polling it. Prices: sora-2
// at $0.10 a second, $0.25 at 1792x1024 — a 4-second clip at the default size costs $0.40.
const SECOND = 100_000;
const WIDE_SECOND = 250_000;

let e2e: EndpointsE2e;
let client: OpenAI;

beforeAll(async () => {
  e2e = await startEndpointsRelay(
    { models: ['sora-2', 'sora-2-pro'], endpoints: ['videos'] },
    { env: { RELAY_TASK_POLL_MS: '100', RELAY_TASK_POLL_MAX_MS: '200' } },
    { taskDurationMs: 400 },
  );
  await e2e.setPrices([{ model: 'sora-2*', input: 0, output: 0, video_second: SECOND, video_second_variants: { '1792x1024': WIDE_SECOND } }]);
  client = e2e.client();
});
afterAll(() => e2e.close());
beforeEach(() => e2e.setQuota(10_000_000));

/** Asks (through the relay) until the video has ended; every state seen. */
async function untilEnded(id: string, as: OpenAI = client): Promise<Video[]> {
  const seen: Video[] = [];
  const deadline = Date.now() + 10_000;
  for (;;) {
    const video = await as.videos.retrieve(id);
    seen.push(video);
    if (video.status === 'completed' || video.status === 'failed') return seen;
    if (Date.now() > deadline) throw new Error(`video ${id} still ${video.status}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The task's usage rows (by the submit's request id) written so far. */
async function rowsOf(requestId: string) {
  await e2e.relay.services.recorder.flush();
  const rows = await e2e.relay.storage.usageLog.recent(200);
  return rows.filter((row) => row.requestId === requestId);
}

/** The row of a request answered already (written when its response closed), waited for. */
async function rowOfAnswered(requestId: string) {
  const deadline = Date.now() + 3000;
  for (;;) {
    const rows = await rowsOf(requestId);
    if (rows.length > 0 || Date.now() > deadline) return rows;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

async function create(params: OpenAI.Videos.VideoCreateParams): Promise<{ video: Video; requestId: string }> {
  const { data, response } = await client.videos.create(params).withResponse();
  return { video: data, requestId: response.headers.get('x-request-id') ?? '' };
}

describe('POST /v1/videos through the official openai package', () => {
  it('creates, polls until completed, downloads the bytes the simulator made, and charges the seconds once', async () => {
    const prompt = 'A calico cat playing a piano on stage';
    const { video, requestId } = await create({ prompt, model: 'sora-2' });
    expect(video).toMatchObject({ object: 'video', model: 'sora-2', status: 'queued', seconds: '4', size: '720x1280', prompt, error: null });
    expect(video.id).toMatch(/^video_[0-9a-f]{32}$/);
    // Running: the task holds its reservation, and no usage row is written yet.
    expect(e2e.openReservations()).toBe(1);
    expect(await rowsOf(requestId)).toEqual([]);

    const seen = await untilEnded(video.id);
    const done = seen.at(-1);
    expect(done).toMatchObject({ id: video.id, status: 'completed', progress: 100, model: 'sora-2' });
    expect(done?.completed_at).toEqual(expect.any(Number));
    // The relay polled the upstream by the upstream's own id, which callers never see.
    const polls = e2e.sim.requests.filter((request) => request.method === 'GET' && request.path.startsWith('/v1/videos/'));
    expect(polls.length).toBeGreaterThan(0);
    expect(polls.every((request) => !request.path.includes(video.id))).toBe(true);

    const content = await client.videos.downloadContent(video.id);
    expect(content.headers.get('content-type')).toBe('video/mp4');
    const expected = simulatedVideoContent({ prompt, seconds: '4', size: '720x1280' });
    const bytes = Buffer.from(await content.arrayBuffer());
    expect(bytes.length).toBe(expected.bytes.length);
    expect(createHash('sha256').update(bytes).digest('hex')).toBe(createHash('sha256').update(expected.bytes).digest('hex'));
    const thumbnail = await client.videos.downloadContent(video.id, { variant: 'thumbnail' });
    expect(thumbnail.headers.get('content-type')).toBe('image/webp');
    expect(Buffer.from(await thumbnail.arrayBuffer()).equals(simulatedVideoContent({ prompt, seconds: '4', size: '720x1280' }, 'thumbnail').bytes)).toBe(true);

    const rows = await rowsOf(requestId);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ endpoint: 'videos', status: 200, units: 4, cost: 4 * SECOND, requestedModel: 'sora-2', tokenId: e2e.tokenId });
    expect(await e2e.quotaUsed()).toBe(4 * SECOND);
    expect(e2e.openReservations()).toBe(0);
    // Reading it again neither polls upstream state back nor charges again.
    expect((await client.videos.retrieve(video.id)).status).toBe('completed');
    expect(await rowsOf(requestId)).toHaveLength(1);
    expect(await e2e.quotaUsed()).toBe(4 * SECOND);
  });

  it('prices by the size the upstream made: 8 seconds at 1792x1024', async () => {
    const { video, requestId } = await create({ prompt: 'A wide shot of a harbour', seconds: '8', size: '1792x1024' });
    expect((await untilEnded(video.id)).at(-1)?.status).toBe('completed');
    expect(await rowsOf(requestId)).toMatchObject([{ units: 8, cost: 8 * WIDE_SECOND }]);
    expect(await e2e.quotaUsed()).toBe(8 * WIDE_SECOND);
  });

  it('gives the whole reservation back when the video fails, with one row saying why', async () => {
    const { video, requestId } = await create({ prompt: 'A storm at sea [sim:task=fail]' });
    const failed = (await untilEnded(video.id)).at(-1);
    expect(failed).toMatchObject({ status: 'failed', error: { code: 'video_generation_failed' } });
    expect(await e2e.quotaUsed()).toBe(0);
    expect(e2e.openReservations()).toBe(0);
    expect(await rowsOf(requestId)).toMatchObject([{ endpoint: 'videos', status: 502, errorCode: 'video_generation_failed', cost: 0 }]);
    await expect(client.videos.downloadContent(video.id)).rejects.toMatchObject({ status: 400 });
  });

  it('passes an upstream refusal of the submit through: no task, nothing charged, one row', async () => {
    const before = e2e.sim.requests.length;
    const error = await client.videos.create({ prompt: 'Something refused [sim:task=refuse]' }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    const refused = error as InstanceType<typeof OpenAI.BadRequestError>;
    expect(refused.code).toBe('moderation_blocked');
    expect(e2e.sim.requests.length).toBe(before + 1);
    // An ordinary failed request: its own row, written as its response closed, settles the reservation.
    expect(await rowOfAnswered(refused.requestID ?? '')).toMatchObject([{ endpoint: 'videos', status: 400, cost: 0 }]);
    expect(await e2e.quotaUsed()).toBe(0);
    expect(e2e.openReservations()).toBe(0);
    expect((await client.videos.list({ limit: 100 })).data.some((video) => video.prompt?.includes('refused'))).toBe(false);
  });

  it('refuses a video over the quota at submit, before the upstream hears of it', async () => {
    await e2e.setQuota(500_000);
    const before = e2e.sim.requests.length;
    const error = await client.videos.create({ prompt: 'A long wide epic', seconds: '12', size: '1792x1024' }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OpenAI.RateLimitError);
    expect((error as InstanceType<typeof OpenAI.RateLimitError>).code).toBe('insufficient_quota');
    expect(e2e.sim.requests.length).toBe(before);
    expect(await e2e.quotaUsed()).toBe(0);
  });

  it('sends an input reference image as the SDK uploads it (multipart), and one given by URL as JSON', async () => {
    const png = simPng('a drawing to animate');
    const { video } = await create({ prompt: 'Animate this drawing', input_reference: await toFile(png, 'drawing.png', { type: 'image/png' }) });
    const upload = e2e.sim.requests.filter((request) => request.method === 'POST' && request.path === '/v1/videos').at(-1);
    expect(upload?.multipart?.fields).toEqual(expect.arrayContaining([['model', 'sora-2'], ['prompt', 'Animate this drawing']]));
    expect(upload?.multipart?.files).toEqual([expect.objectContaining({ field: 'input_reference', size: png.length, sha256: createHash('sha256').update(png).digest('hex') })]);
    expect((await untilEnded(video.id)).at(-1)?.status).toBe('completed');

    const answer = await e2e.postJson('/v1/videos', { prompt: 'From a picture', input_reference: { image_url: 'https://example.com/picture.png' } });
    expect(answer.status).toBe(200);
    const sent = e2e.sim.requests.filter((request) => request.method === 'POST' && request.path === '/v1/videos').at(-1);
    expect(sent?.body).toMatchObject({ model: 'sora-2', prompt: 'From a picture', input_reference: { image_url: 'https://example.com/picture.png' } });
    expect((await untilEnded((answer.json as Video).id)).at(-1)?.status).toBe('completed');
  });

  it('deletes a running video: cancelled upstream, its reservation given back, then unknown', async () => {
    const { video, requestId } = await create({ prompt: 'A slow sunrise [sim:task_ms=5000]' });
    expect(e2e.openReservations()).toBe(1);
    expect(await client.videos.delete(video.id)).toEqual({ id: video.id, object: 'video.deleted', deleted: true });
    expect(e2e.sim.requests.some((request) => request.method === 'DELETE' && request.path.startsWith('/v1/videos/'))).toBe(true);
    await expect(client.videos.retrieve(video.id)).rejects.toBeInstanceOf(OpenAI.NotFoundError);
    expect(await e2e.quotaUsed()).toBe(0);
    expect(e2e.openReservations()).toBe(0);
    expect(await rowsOf(requestId)).toMatchObject([{ status: 499, errorCode: 'cancelled', cost: 0 }]);
  });
});

describe("videos are their account's own", () => {
  it("lists the caller's videos newest first, page by page, and answers another account's id with a 404", async () => {
    const account = await createAccount(e2e.relay, { name: 'other team' });
    const otherToken = await createToken(e2e.relay, { name: 'other' }, account.access_key);
    const other = e2e.client({ apiKey: otherToken.key });
    const ids: string[] = [];
    for (const prompt of ['one', 'two', 'three']) ids.push((await other.videos.create({ prompt })).id);

    const first = await other.videos.list({ limit: 2 });
    expect(first.data.map((video) => video.id)).toEqual([ids[2], ids[1]]);
    expect(first.has_more).toBe(true);
    const rest = await other.videos.list({ limit: 2, after: first.data.at(-1)?.id });
    expect(rest.data.map((video) => video.id)).toEqual([ids[0]]);
    expect(rest.has_more).toBe(false);
    const all: string[] = [];
    for await (const video of other.videos.list({ limit: 2, order: 'asc' })) all.push(video.id);
    expect(all).toEqual(ids);

    // The first token's account sees none of them, and cannot reach them by id.
    const mine = await client.videos.list({ limit: 100 });
    expect(mine.data.some((video) => ids.includes(video.id))).toBe(false);
    const id = ids[0] ?? '';
    await expect(client.videos.retrieve(id)).rejects.toMatchObject({ status: 404, code: 'video_not_found' });
    await expect(client.videos.downloadContent(id)).rejects.toMatchObject({ status: 404 });
    await expect(client.videos.delete(id)).rejects.toMatchObject({ status: 404 });
    expect((await other.videos.retrieve(id)).id).toBe(id);
  });
});
