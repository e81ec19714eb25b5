import { ErrorResponseSchema, VideoDeletedSchema, VideoListSchema } from '@chat-relay/contract';
import { expectSpecValid, warmSpecChecker } from '../responses/testing/openai-spec-check';
import { startUpstreamSim } from '../sim-server';
import { callOpenAi, readAll, testKey } from '../sim-test-client';
import type { UpstreamSim } from '../sim-types';
import { taskFileChunkBytes } from '../tasks/send-task-file';
import { simulatedVideoContent } from './video-content';
import { createVideo, download } from './testing/video-calls';

let sim: UpstreamSim;
beforeAll(async () => {
  warmSpecChecker();
  sim = await startUpstreamSim({ acceptedKeys: [testKey], taskDurationMs: 0 });
});
afterAll(() => sim.close());
beforeEach(() => sim.reset());

const contentUrl = (id: string, variant?: string) => `${sim.baseUrl}/videos/${id}/content${variant ? `?variant=${variant}` : ''}`;

describe('simulatedVideoContent', () => {
  it('makes an MP4 (ftyp, then mdat) of 64 KiB a second from prompt, seconds and size only', () => {
    const source = { prompt: 'a red kite', seconds: '4', size: '720x1280' };
    const { contentType, bytes } = simulatedVideoContent(source);
    expect(contentType).toBe('video/mp4');
    expect(bytes.length).toBe(4 * 64 * 1024);
    expect(bytes.subarray(4, 12).toString('ascii')).toBe('ftypisom');
    expect(bytes.subarray(36, 40).toString('ascii')).toBe('mdat');
    expect(bytes.readUInt32BE(32)).toBe(bytes.length - 32);
    expect(simulatedVideoContent(source).bytes.equals(bytes)).toBe(true);
    expect(simulatedVideoContent({ ...source, prompt: 'a red kite [sim:task_ms=5]' }).bytes.equals(bytes)).toBe(true);
    for (const other of [{ prompt: 'a blue kite' }, { seconds: '8' }, { size: '1280x720' }]) {
      expect(simulatedVideoContent({ ...source, ...other }).bytes.subarray(0, 4096).equals(bytes.subarray(0, 4096))).toBe(false);
    }
  });

  it('makes a WebP thumbnail and a JPEG spritesheet whose headers carry their sizes', () => {
    const source = { prompt: 'a red kite', seconds: '4', size: '1280x720' };
    const thumbnail = simulatedVideoContent(source, 'thumbnail');
    expect(thumbnail.contentType).toBe('image/webp');
    expect([thumbnail.bytes.toString('ascii', 0, 4), thumbnail.bytes.toString('ascii', 8, 16)]).toEqual(['RIFF', 'WEBPVP8L']);
    expect(thumbnail.bytes.readUInt32LE(4)).toBe(thumbnail.bytes.length - 8);
    const bits = thumbnail.bytes.readUInt32LE(21);
    expect([(bits & 0x3fff) + 1, ((bits >> 14) & 0x3fff) + 1]).toEqual([1280, 720]);
    const sprites = simulatedVideoContent(source, 'spritesheet');
    expect(sprites.contentType).toBe('image/jpeg');
    expect([...sprites.bytes.subarray(0, 2), ...sprites.bytes.subarray(-2)]).toEqual([0xff, 0xd8, 0xff, 0xd9]);
    expect(sprites.bytes.toString('ascii', 6, 10)).toBe('JFIF');
  });
});

describe('GET /v1/videos/{id}/content', () => {
  it('streams the exact bytes of a completed video in several chunks', async () => {
    const video = await createVideo(sim, { prompt: 'surf at dusk', seconds: '8', size: '1280x720' });
    const answer = await download(contentUrl(video.id));
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toBe('video/mp4');
    const expected = simulatedVideoContent({ prompt: 'surf at dusk', seconds: '8', size: '1280x720' }).bytes;
    expect(Number(answer.headers['content-length'])).toBe(expected.length);
    expect(Buffer.concat(answer.chunks).equals(expected)).toBe(true);
    expect(answer.chunks.length).toBeGreaterThan(1);
    expect(expected.length / taskFileChunkBytes).toBe(8);
  });

  it('serves the thumbnail and the spritesheet, and refuses an unknown variant', async () => {
    const video = await createVideo(sim, { prompt: 'surf at dusk' });
    const source = { prompt: 'surf at dusk', seconds: '4', size: '720x1280' };
    for (const variant of ['thumbnail', 'spritesheet'] as const) {
      const answer = await download(contentUrl(video.id, variant));
      const expected = simulatedVideoContent(source, variant);
      expect(answer.headers['content-type']).toBe(expected.contentType);
      expect(Buffer.concat(answer.chunks).equals(expected.bytes)).toBe(true);
    }
    const unknown = await callOpenAi(sim, 'GET', `/videos/${video.id}/content?variant=gif`);
    expect(unknown.status).toBe(400);
    expect(ErrorResponseSchema.parse(await unknown.json()).error).toMatchObject({ param: 'variant', code: 'invalid_value' });
  });

  it('answers 409 video_not_ready while the job runs', async () => {
    const video = await createVideo(sim, { prompt: 'slow [sim:task_ms=5000]' });
    const response = await callOpenAi(sim, 'GET', `/videos/${video.id}/content`);
    expect(response.status).toBe(409);
    expect(ErrorResponseSchema.parse(await response.json()).error).toMatchObject({ code: 'video_not_ready' });
  });

  it('cuts a download halfway (cut), sends half as a whole file (malformed), 503s a status fault', async () => {
    const video = await createVideo(sim, { prompt: 'surf' });
    const expected = simulatedVideoContent({ prompt: 'surf', seconds: '4', size: '720x1280' }).bytes;
    sim.failNext({ kind: 'cut' });
    const cut = await download(contentUrl(video.id));
    expect(cut.error).toBeDefined();
    expect(Buffer.concat(cut.chunks).length).toBeLessThan(expected.length);
    sim.failNext({ kind: 'malformed' });
    const malformed = await download(contentUrl(video.id));
    expect(malformed.error).toBeUndefined();
    expect(Buffer.concat(malformed.chunks).equals(expected.subarray(0, expected.length / 2))).toBe(true);
    sim.failNext({ kind: 'status', status: 503 });
    expect((await download(contentUrl(video.id))).status).toBe(503);
    expect(Buffer.concat((await download(contentUrl(video.id))).chunks).equals(expected)).toBe(true);
  });
});

describe('listing and deleting', () => {
  it('lists newest first, paged by limit and after, or oldest first with order=asc', async () => {
    const ids: string[] = [];
    for (const prompt of ['one', 'two', 'three']) ids.push((await createVideo(sim, { prompt })).id);
    const firstJson: unknown = await (await callOpenAi(sim, 'GET', '/videos?limit=2')).json();
    expectSpecValid('VideoListResource', firstJson);
    const first = VideoListSchema.parse(firstJson);
    expect(first.data.map((video) => video.prompt)).toEqual(['three', 'two']);
    expect(first).toMatchObject({ object: 'list', first_id: ids[2], last_id: ids[1], has_more: true });
    expect(first.data[0]?.status).toBe('completed');
    const second = VideoListSchema.parse(await (await callOpenAi(sim, 'GET', `/videos?limit=2&after=${ids[1]}`)).json());
    expect(second).toMatchObject({ first_id: ids[0], last_id: ids[0], has_more: false });
    const ascending = VideoListSchema.parse(await (await callOpenAi(sim, 'GET', '/videos?order=asc')).json());
    expect(ascending.data.map((video) => video.id)).toEqual(ids);
    expect((await callOpenAi(sim, 'GET', '/videos?limit=101')).status).toBe(400);
    expect((await callOpenAi(sim, 'GET', '/videos?order=up')).status).toBe(400);
  });

  it('deletes a video: video.deleted, then 404 on every route and gone from the list', async () => {
    const video = await createVideo(sim, { prompt: 'gone soon' });
    const deleted: unknown = await (await callOpenAi(sim, 'DELETE', `/videos/${video.id}`)).json();
    expectSpecValid('DeletedVideoResource', deleted);
    expect(VideoDeletedSchema.parse(deleted)).toEqual({ id: video.id, object: 'video.deleted', deleted: true });
    for (const [method, path] of [['GET', ''], ['GET', '/content'], ['DELETE', '']] as const) {
      const response = await callOpenAi(sim, method, `/videos/${video.id}${path}`);
      expect(response.status).toBe(404);
      expect(ErrorResponseSchema.parse(await response.json()).error.type).toBe('invalid_request_error');
    }
    expect(VideoListSchema.parse(await (await callOpenAi(sim, 'GET', '/videos')).json()).data).toEqual([]);
  });
});

describe('keys, faults and recording', () => {
  it('answers 401 invalid_api_key on every route without a valid key', async () => {
    const video = await createVideo(sim, { prompt: 'x' });
    for (const [method, path] of [['POST', '/videos'], ['GET', '/videos'], ['GET', `/videos/${video.id}`], ['DELETE', `/videos/${video.id}`], ['GET', `/videos/${video.id}/content`]]) {
      const response = await callOpenAi(sim, method ?? 'GET', path ?? '', { body: method === 'POST' ? { prompt: 'x' } : undefined, key: 'sk-wrong' });
      expect(response.status).toBe(401);
      expect(ErrorResponseSchema.parse(await response.json()).error.code).toBe('invalid_api_key');
    }
  });

  it('plays submit faults from the prompt or x_sim, and creates no job when a status answered', async () => {
    const refused = await callOpenAi(sim, 'POST', '/videos', { body: { prompt: 'x [sim:fault=status:429]' } });
    expect(refused.status).toBe(429);
    expect(ErrorResponseSchema.parse(await refused.json()).error.code).toBe('rate_limit_exceeded');
    const malformed = await callOpenAi(sim, 'POST', '/videos', { body: { prompt: 'y', x_sim: { fault: 'malformed' } } });
    await expect(malformed.json()).rejects.toThrow();
    const cut = await callOpenAi(sim, 'POST', '/videos', { body: { prompt: 'z', x_sim: { fault: 'cut' } } });
    expect((await readAll(cut)).error).toBeDefined();
    const listed = VideoListSchema.parse(await (await callOpenAi(sim, 'GET', '/videos')).json());
    expect(listed.data.map((video) => video.prompt)).toEqual(['z', 'y']);
  });

  it('plays queued faults on polls, in order, and records submits and polls as they arrived', async () => {
    const video = await createVideo(sim, { prompt: 'watched' });
    sim.failNext({ kind: 'status', status: 500 });
    const failed = await callOpenAi(sim, 'GET', `/videos/${video.id}`);
    expect(failed.status).toBe(500);
    expect((await callOpenAi(sim, 'GET', `/videos/${video.id}`)).status).toBe(200);
    sim.failNext({ kind: 'timeout' });
    await expect(callOpenAi(sim, 'GET', `/videos/${video.id}`, { signal: AbortSignal.timeout(150) })).rejects.toThrow();
    expect(sim.requests.map((request) => `${request.method} ${request.path}`)).toEqual([
      'POST /v1/videos',
      ...Array.from({ length: 3 }, () => `GET /v1/videos/${video.id}`),
    ]);
    expect(sim.requests[0]?.body).toEqual({ prompt: 'watched' });
  });
});
