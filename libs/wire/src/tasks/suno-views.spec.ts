import { SunoSubmitResponseSchema, SunoTaskListResponseSchema, SunoTaskResponseSchema, SunoTaskSchema } from '@chat-relay/contract';
import { sunoEnvelope, sunoTaskView } from './suno-views';
import type { TaskViewSource } from './task-common';

const UPSTREAM_ID = '736a6f88-bd29-4b1e-b110-37132a5325ac';
const songs = [{ id: 'clip-1', title: 'Night drive', status: 'complete', audio_url: 'https://cdn1.suno.ai/clip-1.mp3' }];

const task = (fields: Partial<TaskViewSource> = {}): TaskViewSource => ({
  id: 'task_relay_01',
  model: 'suno_music',
  status: 'queued',
  progress: 0,
  error: null,
  createdAt: '2024-05-27T03:40:00.000Z',
  startedAt: null,
  completedAt: null,
  params: { action: 'music' },
  result: { task_id: UPSTREAM_ID },
  ...fields,
});

function expectValidTask(value: unknown): void {
  expect(SunoTaskSchema.safeParse(value).error?.issues ?? []).toEqual([]);
}

describe('sunoTaskView', () => {
  it('a task just submitted: SUBMITTED, the relay’s id, times in unix seconds, no data', () => {
    const view = sunoTaskView(task());
    expect(view).toEqual({
      task_id: 'task_relay_01',
      action: 'MUSIC',
      status: 'SUBMITTED',
      fail_reason: '',
      submit_time: 1716781200,
      start_time: 0,
      finish_time: 0,
      progress: '0%',
      data: null,
    });
    expectValidTask(view);
  });

  it.each([
    ['NOT_START', 'NOT_START'],
    ['QUEUED', 'QUEUED'],
    ['queued', 'QUEUED'],
    ['QUEUEING', 'SUBMITTED'],
  ])("a queued task polled: the upstream's own status %s shows as %s", (upstream, shown) => {
    const view = sunoTaskView(task({ result: { task_id: UPSTREAM_ID, status: upstream } }));
    expect(view.status).toBe(shown);
    expectValidTask(view);
  });

  it('in progress: IN_PROGRESS with its progress and start time', () => {
    const view = sunoTaskView(task({ status: 'in_progress', progress: 62.4, startedAt: '2024-05-27T03:40:05.000Z', result: { status: 'UNKNOWN' } }));
    expect(view).toMatchObject({ status: 'IN_PROGRESS', progress: '62%', start_time: 1716781205, finish_time: 0 });
    expectValidTask(view);
  });

  it("the upstream's times when the relay saw none", () => {
    const view = sunoTaskView(task({ status: 'completed', result: { start_time: 1716781210, finish_time: 1716781300, data: songs } }));
    expect(view).toMatchObject({ start_time: 1716781210, finish_time: 1716781300 });
  });

  it("completed: SUCCESS at 100%, the upstream's songs as data, never its task id", () => {
    const result = { task_id: UPSTREAM_ID, action: 'MUSIC', status: 'SUCCESS', fail_reason: '', data: songs };
    const view = sunoTaskView(
      task({ status: 'completed', progress: 100, startedAt: '2024-05-27T03:40:05.000Z', completedAt: '2024-05-27T03:41:40.000Z', result }),
    );
    expect(view).toMatchObject({ task_id: 'task_relay_01', status: 'SUCCESS', progress: '100%', finish_time: 1716781300, data: songs });
    expect(JSON.stringify(view)).not.toContain(UPSTREAM_ID);
    expectValidTask(view);
  });

  it('lyrics show their action upper-cased', () => {
    const view = sunoTaskView(task({ params: { action: 'lyrics' }, status: 'completed', result: { data: { text: '[Verse] ...', title: 'Sea' } } }));
    expect(view).toMatchObject({ action: 'LYRICS', data: { text: '[Verse] ...', title: 'Sea' } });
    expectValidTask(view);
  });

  it("failed: FAILURE at 100% with the error's message", () => {
    const view = sunoTaskView(
      task({ status: 'failed', progress: 50, error: { code: 'music_generation_failed', message: 'Lyrics contain a flagged word' }, completedAt: '2024-05-27T03:41:00.000Z' }),
    );
    expect(view).toMatchObject({ status: 'FAILURE', progress: '100%', fail_reason: 'Lyrics contain a flagged word', finish_time: 1716781260 });
    expectValidTask(view);
  });

  it('cancelled: FAILURE, said so when no error was stored', () => {
    const view = sunoTaskView(task({ status: 'cancelled', progress: 20 }));
    expect(view).toMatchObject({ status: 'FAILURE', progress: '100%', fail_reason: expect.stringMatching(/cancel/i) });
    expectValidTask(view);
  });
});

describe('sunoEnvelope', () => {
  it('wraps one task, a list of them, or a new id in new-api’s success envelope', () => {
    const one = sunoEnvelope(sunoTaskView(task()));
    expect(one).toMatchObject({ code: 'success', message: '' });
    expect(SunoTaskResponseSchema.safeParse(one).error?.issues ?? []).toEqual([]);
    const list = sunoEnvelope([sunoTaskView(task()), sunoTaskView(task({ id: 'task_relay_02', status: 'completed', result: { data: songs } }))]);
    expect(SunoTaskListResponseSchema.safeParse(list).error?.issues ?? []).toEqual([]);
    expect(SunoSubmitResponseSchema.safeParse(sunoEnvelope('task_relay_01')).success).toBe(true);
  });
});
