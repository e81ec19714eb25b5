import { setTimeout as sleep } from 'node:timers/promises';
import { ErrorResponseSchema, VideoListSchema, VideoSchema, type Video } from '@chat-relay/contract';
import { warmSpecChecker } from '../responses/testing/openai-spec-check';
import { startUpstreamSim } from '../sim-server';
import { callOpenAi, postForm, testKey } from '../sim-test-client';
import type { UpstreamSim } from '../sim-types';
import { checkedVideo as checked, createVideo, pollVideoUntil, retrieveVideo } from './testing/video-calls';

let sim: UpstreamSim;
beforeAll(async () => {
  warmSpecChecker();
  sim = await startUpstreamSim({ acceptedKeys: [testKey], taskDurationMs: 5000 });
});
afterAll(() => sim.close());
beforeEach(() => sim.reset());

const create = (body: Record<string, unknown>) => createVideo(sim, body);
const retrieve = (id: string) => retrieveVideo(sim, id);
const pollUntil = (id: string, done: (video: Video) => boolean) => pollVideoUntil(sim, id, done);

describe('POST /v1/videos', () => {
  it('answers a queued Video object with OpenAI defaults, a video_ id and the prompt as sent', async () => {
    const before = Math.floor(Date.now() / 1000);
    const video = await create({ prompt: 'a calico cat playing piano' });
    expect(video).toEqual({
      id: expect.stringMatching(/^video_[0-9a-f]{32}$/),
      object: 'video',
      model: 'sora-2',
      status: 'queued',
      progress: 0,
      created_at: expect.any(Number),
      completed_at: null,
      expires_at: null,
      prompt: 'a calico cat playing piano',
      size: '720x1280',
      seconds: '4',
      remixed_from_video_id: null,
      error: null,
    });
    expect(video.created_at).toBeGreaterThanOrEqual(before);
    expect((await create({ prompt: 'a calico cat playing piano' })).id).not.toBe(video.id);
  });

  it('keeps the model, seconds and size asked', async () => {
    const video = await create({ prompt: 'waves', model: 'sora-2-pro', seconds: '12', size: '1792x1024' });
    expect(video).toMatchObject({ model: 'sora-2-pro', seconds: '12', size: '1792x1024' });
  });

  it('refuses a missing prompt, seconds other than 4/8/12 and unknown sizes as OpenAI does', async () => {
    const missing = await callOpenAi(sim, 'POST', '/videos', { body: { model: 'sora-2' } });
    expect(missing.status).toBe(400);
    expect(ErrorResponseSchema.parse(await missing.json()).error).toMatchObject({ param: 'prompt', message: "Missing required parameter: 'prompt'." });
    const seconds = await callOpenAi(sim, 'POST', '/videos', { body: { prompt: 'x', seconds: '5' } });
    expect(ErrorResponseSchema.parse(await seconds.json()).error).toMatchObject({
      param: 'seconds',
      code: 'invalid_value',
      message: "Invalid value: '5'. Supported values are: '4', '8', and '12'.",
    });
    const size = await callOpenAi(sim, 'POST', '/videos', { body: { prompt: 'x', size: '640x480' } });
    expect(ErrorResponseSchema.parse(await size.json()).error).toMatchObject({ param: 'size', code: 'invalid_value' });
    const reference = await callOpenAi(sim, 'POST', '/videos', { body: { prompt: 'x', input_reference: { image_url: 'https://x/a.png', file_id: 'file-1' } } });
    expect(ErrorResponseSchema.parse(await reference.json()).error.param).toBe('input_reference');
  });

  it('takes multipart forms with a reference file or input_reference[…] fields, recorded as received', async () => {
    const withFile = new FormData();
    withFile.set('prompt', 'a lighthouse');
    withFile.set('seconds', '8');
    withFile.set('input_reference', new Blob([Buffer.from('png bytes')], { type: 'image/png' }), 'ref.png');
    const fromFile = await postForm(sim, '/videos', withFile);
    expect(checked(await fromFile.json())).toMatchObject({ prompt: 'a lighthouse', seconds: '8', status: 'queued' });
    expect(sim.requests[0]?.multipart?.files).toEqual([expect.objectContaining({ field: 'input_reference', filename: 'ref.png', size: 9 })]);

    const withUrl = new FormData();
    withUrl.set('prompt', 'a harbour');
    withUrl.set('input_reference[image_url]', 'https://example.com/ref.png');
    const fromUrl = await postForm(sim, '/videos', withUrl);
    expect(fromUrl.status).toBe(200);
    expect(sim.requests[1]?.multipart?.fields).toContainEqual(['input_reference[image_url]', 'https://example.com/ref.png']);

    const noPrompt = new FormData();
    noPrompt.set('input_reference[file_id]', 'file-1');
    expect(ErrorResponseSchema.parse(await (await postForm(sim, '/videos', noPrompt)).json()).error.param).toBe('prompt');
  });

  it('refuses the submit itself with [sim:task=refuse]: 400 moderation_blocked, no job', async () => {
    const response = await callOpenAi(sim, 'POST', '/videos', { body: { prompt: 'forbidden [sim:task=refuse]' } });
    expect(response.status).toBe(400);
    expect(ErrorResponseSchema.parse(await response.json()).error).toMatchObject({ code: 'moderation_blocked' });
    expect(VideoListSchema.parse(await (await callOpenAi(sim, 'GET', '/videos')).json()).data).toEqual([]);
    const invalid = await callOpenAi(sim, 'POST', '/videos', { body: { prompt: 'x', x_sim: { task_ms: -1 } } });
    expect(ErrorResponseSchema.parse(await invalid.json()).error.param).toBe('x_sim.task_ms');
  });
});

describe('progress over the task time', () => {
  it('goes queued → in_progress (progress rising) → completed, timed by [sim:task_ms=N]', async () => {
    const video = await create({ prompt: 'sunrise [sim:task_ms=400]' });
    const started = Date.now();
    // The submit's answer counts as the first state: a loaded machine may poll after the queue.
    const seen = [video, ...(await pollUntil(video.id, (state) => state.status === 'completed'))];
    expect(Date.now() - started).toBeGreaterThanOrEqual(350);
    const statuses = [...new Set(seen.map((state) => state.status))];
    expect(statuses).toEqual(['queued', 'in_progress', 'completed']);
    const progress = seen.map((state) => state.progress);
    expect(progress).toEqual([...progress].sort((left, right) => left - right));
    for (const state of seen.filter((each) => each.status === 'in_progress')) {
      expect(state.progress).toBeGreaterThanOrEqual(1);
      expect(state.progress).toBeLessThanOrEqual(99);
      expect(state.completed_at).toBeNull();
    }
    const done = seen.at(-1);
    expect(done).toMatchObject({ progress: 100, error: null });
    expect(done?.completed_at).toBeGreaterThanOrEqual(video.created_at);
    expect(done?.expires_at).toBe((done?.completed_at ?? 0) + 3600);
  });

  it('runs the taskDurationMs option (here 5 s) unless the request sets its own', async () => {
    const slow = await create({ prompt: 'slow' });
    const quick = await create({ prompt: 'quick', x_sim: { task_ms: 0 } });
    await sleep(300);
    expect((await retrieve(slow.id)).status).not.toBe('completed');
    expect(await retrieve(quick.id)).toMatchObject({ status: 'completed', progress: 100 });
    const shortSim = await startUpstreamSim({ taskDurationMs: 50 });
    try {
      const body = { prompt: 'default time' };
      const created = VideoSchema.parse(await (await callOpenAi(shortSim, 'POST', '/videos', { body })).json());
      await sleep(120);
      const polled = VideoSchema.parse(await (await callOpenAi(shortSim, 'GET', `/videos/${created.id}`)).json());
      expect(polled.status).toBe('completed');
    } finally {
      await shortSim.close();
    }
  });

  it('ends failed with video_generation_failed when asked ([sim:task=fail]), and has no content', async () => {
    const video = await create({ prompt: 'doomed [sim:task=fail] [sim:task_ms=100]' });
    const seen = await pollUntil(video.id, (state) => state.status === 'failed');
    expect(seen.some((state) => state.status === 'completed')).toBe(false);
    expect(seen.at(-1)).toMatchObject({ completed_at: null, expires_at: null, error: { code: 'video_generation_failed' } });
    const content = await callOpenAi(sim, 'GET', `/videos/${video.id}/content`);
    expect(content.status).toBe(409);
    const viaBody = await create({ prompt: 'doomed too', x_sim: { task: 'fail', task_ms: 0 } });
    expect((await retrieve(viaBody.id)).status).toBe('failed');
  });
});
