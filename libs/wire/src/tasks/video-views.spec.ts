import { VideoDeletedSchema, VideoListSchema, VideoSchema } from '@chat-relay/contract';
import { expectOpenAiValid } from '../gemini/testing/expect-openai-valid';
import type { TaskViewSource } from './task-common';
import { videoDeletedView, videoListView, videoView } from './video-views';

const task = (fields: Partial<TaskViewSource> = {}): TaskViewSource => ({
  id: 'video_relay_01',
  model: 'my-video',
  status: 'queued',
  progress: 0,
  error: null,
  createdAt: '2025-09-27T02:51:25.400Z',
  startedAt: null,
  completedAt: null,
  params: { prompt: 'a calico cat playing a piano', size: '1280x720', seconds: '8' },
  result: null,
  ...fields,
});

/** The upstream's own object: its id and model must never reach the caller. */
const upstreamResult = {
  id: 'video_UPSTREAM_68d7',
  object: 'video',
  model: 'sora-2-2025-10-06',
  status: 'completed',
  seconds: '12',
  size: '1792x1024',
  expires_at: 1759028000,
};

function expectValidVideo(value: unknown): void {
  expect(VideoSchema.safeParse(value).error?.issues ?? []).toEqual([]);
  expectOpenAiValid('VideoResource', value);
}

describe('videoView', () => {
  it('a queued task before any poll: the relay’s id, the caller’s model, size and seconds as asked', () => {
    const view = videoView(task());
    expect(view).toEqual({
      id: 'video_relay_01',
      object: 'video',
      model: 'my-video',
      status: 'queued',
      progress: 0,
      created_at: 1758941485,
      completed_at: null,
      expires_at: null,
      prompt: 'a calico cat playing a piano',
      size: '1280x720',
      seconds: '8',
      remixed_from_video_id: null,
      error: null,
    });
    expectValidVideo(view);
  });

  it("OpenAI's defaults when neither the request nor the upstream said a size or seconds", () => {
    const view = videoView(task({ params: { prompt: 'x' } }));
    expect(view).toMatchObject({ size: '720x1280', seconds: '4' });
    expectValidVideo(view);
  });

  it('a prompt that was not kept shows as null', () => {
    const view = videoView(task({ params: {} }));
    expect(view.prompt).toBeNull();
    expectValidVideo(view);
  });

  it('in progress: the stored progress, a whole number', () => {
    const view = videoView(task({ status: 'in_progress', progress: 41.7, result: { ...upstreamResult, status: 'in_progress' } }));
    expect(view).toMatchObject({ status: 'in_progress', progress: 42, error: null });
    expectValidVideo(view);
  });

  it("completed: the upstream's size, seconds and expiry, never its id or model", () => {
    const view = videoView(task({ status: 'completed', progress: 100, completedAt: '2025-09-27T02:53:20.999Z', result: upstreamResult }));
    expect(view).toMatchObject({
      id: 'video_relay_01',
      model: 'my-video',
      status: 'completed',
      progress: 100,
      completed_at: 1758941600,
      expires_at: 1759028000,
      size: '1792x1024',
      seconds: '12',
      error: null,
    });
    expect(JSON.stringify(view)).not.toContain('UPSTREAM');
    expect(JSON.stringify(view)).not.toContain('sora-2-2025-10-06');
    expectValidVideo(view);
  });

  it('numeric seconds in the upstream object are shown as the string OpenAI uses', () => {
    expect(videoView(task({ status: 'completed', result: { seconds: 8 } })).seconds).toBe('8');
  });

  it('an expiry that is not a whole number of seconds shows as null', () => {
    expect(videoView(task({ status: 'completed', result: { expires_at: '2025-10-01' } })).expires_at).toBeNull();
  });

  it("failed: the task's error", () => {
    const error = { code: 'moderation_blocked', message: 'Your request was blocked by our moderation system.' };
    const view = videoView(task({ status: 'failed', progress: 20, error, completedAt: '2025-09-27T02:52:00.000Z' }));
    expect(view).toMatchObject({ status: 'failed', progress: 20, error, completed_at: 1758941520 });
    expectValidVideo(view);
  });

  it('failed without a stored error: video_generation_failed', () => {
    const view = videoView(task({ status: 'failed' }));
    expect(view.error).toEqual({ code: 'video_generation_failed', message: expect.any(String) });
    expectValidVideo(view);
  });

  it('cancelled: shown as failed with the code cancelled (OpenAI has no such status)', () => {
    const view = videoView(task({ status: 'cancelled', progress: 30, completedAt: '2025-09-27T02:52:00.000Z' }));
    expect(view).toMatchObject({ status: 'failed', progress: 30, error: { code: 'cancelled', message: expect.any(String) } });
    expectValidVideo(view);
  });
});

describe('videoListView', () => {
  it('a page in the order given, its first and last ids, and whether more follow', () => {
    const list = videoListView([task({ id: 'video_b' }), task({ id: 'video_a', status: 'completed', result: upstreamResult })], true);
    expect(list).toMatchObject({ object: 'list', first_id: 'video_b', last_id: 'video_a', has_more: true });
    expect(list.data.map((video) => video.id)).toEqual(['video_b', 'video_a']);
    expect(VideoListSchema.safeParse(list).error?.issues ?? []).toEqual([]);
    expectOpenAiValid('VideoListResource', list);
  });

  it('an empty page has null ids', () => {
    const list = videoListView([], false);
    expect(list).toEqual({ object: 'list', data: [], first_id: null, last_id: null, has_more: false });
    expect(VideoListSchema.safeParse(list).success).toBe(true);
    expectOpenAiValid('VideoListResource', list);
  });
});

describe('videoDeletedView', () => {
  it('answers a delete in OpenAI’s shape', () => {
    const deleted = videoDeletedView('video_relay_01');
    expect(deleted).toEqual({ id: 'video_relay_01', object: 'video.deleted', deleted: true });
    expect(VideoDeletedSchema.safeParse(deleted).success).toBe(true);
    expectOpenAiValid('DeletedVideoResource', deleted);
  });
});
