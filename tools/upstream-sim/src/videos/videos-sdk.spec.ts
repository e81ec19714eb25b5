import { setTimeout as sleep } from 'node:timers/promises';
import OpenAI, { toFile } from 'openai';
import type { Video, VideoCreateParams } from 'openai/resources/videos';
import { startUpstreamSim } from '../sim-server';
import { testKey } from '../sim-test-client';
import type { UpstreamSim } from '../sim-types';
import { simPng } from '../endpoints/png';
import { simulatedVideoContent } from './video-content';

// The official `openai` SDK sends the create as multipart (always) and reads the rest as OpenAI's.

let sim: UpstreamSim;
let client: OpenAI;
beforeAll(async () => {
  sim = await startUpstreamSim({ acceptedKeys: [testKey], taskDurationMs: 150 });
  client = new OpenAI({ apiKey: testKey, baseURL: sim.baseUrl, maxRetries: 0 });
});
afterAll(() => sim.close());
beforeEach(() => sim.reset());

/** Create, then retrieve until the job ends, as a client of the SDK polls. */
async function createAndPoll(params: VideoCreateParams): Promise<Video> {
  let video = await client.videos.create(params);
  while (video.status === 'queued' || video.status === 'in_progress') {
    await sleep(20);
    video = await client.videos.retrieve(video.id);
  }
  return video;
}

describe('official openai SDK: videos', () => {
  it('creates (multipart, with a reference file), polls to completion, downloads and deletes', async () => {
    const created = await client.videos.create({
      prompt: 'a paper boat on a river',
      seconds: '8',
      size: '1280x720',
      input_reference: await toFile(simPng('boat'), 'boat.png', { type: 'image/png' }),
    });
    expect(created).toMatchObject({ status: 'queued', seconds: '8', size: '1280x720', model: 'sora-2' });
    expect(sim.requests[0]?.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    expect(sim.requests[0]?.multipart?.files[0]).toMatchObject({ field: 'input_reference', filename: 'boat.png', contentType: 'image/png' });

    const done = await createAndPoll({ prompt: 'a paper boat on a river', seconds: '8', size: '1280x720' });
    expect(done).toMatchObject({ status: 'completed', progress: 100 });
    expect(sim.requests.filter((request) => request.method === 'GET').length).toBeGreaterThan(0);

    const content = await client.videos.downloadContent(done.id);
    const expected = simulatedVideoContent({ prompt: 'a paper boat on a river', seconds: '8', size: '1280x720' });
    expect(content.headers.get('content-type')).toBe('video/mp4');
    expect(Buffer.from(await content.arrayBuffer()).equals(expected.bytes)).toBe(true);

    expect(await client.videos.delete(done.id)).toEqual({ id: done.id, object: 'video.deleted', deleted: true });
    await expect(client.videos.retrieve(done.id)).rejects.toMatchObject({ status: 404 });
  });

  it('lists every video through the cursor pages, newest first', async () => {
    for (const prompt of ['a', 'b', 'c']) await client.videos.create({ prompt });
    const prompts: (string | null)[] = [];
    for await (const video of client.videos.list({ limit: 2 })) prompts.push(video.prompt);
    expect(prompts).toEqual(['c', 'b', 'a']);
    expect(sim.requests.filter((request) => request.method === 'GET').map((request) => request.query)).toEqual([
      'limit=2',
      expect.stringMatching(/^limit=2&after=video_[0-9a-f]{32}$/),
    ]);
  });

  it('surfaces a failed job and a refused submit as the SDK reports OpenAI errors', async () => {
    const failed = await createAndPoll({ prompt: 'no luck [sim:task=fail]' });
    expect(failed).toMatchObject({ status: 'failed', error: { code: 'video_generation_failed' } });
    await expect(client.videos.create({ prompt: 'blocked [sim:task=refuse]' })).rejects.toMatchObject({ status: 400, code: 'moderation_blocked' });
  });
});
