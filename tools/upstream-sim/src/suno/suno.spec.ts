import { setTimeout as sleep } from 'node:timers/promises';
import { SunoErrorResponseSchema, SunoSubmitResponseSchema, SunoTaskListResponseSchema, SunoTaskResponseSchema, type SunoTask } from '@chat-relay/contract';
import { startUpstreamSim } from '../sim-server';
import { readAll, testKey } from '../sim-test-client';
import type { UpstreamSim } from '../sim-types';
import { mp3FrameSeconds } from '../endpoints/audio';
import { simulatedSongFile, simulatedSunoLyrics, simulatedSunoSongs } from './suno-songs';
import { sunoFailReason } from './suno-task';

let sim: UpstreamSim;
beforeAll(async () => {
  sim = await startUpstreamSim({ acceptedKeys: [testKey], taskDurationMs: 0 });
});
afterAll(() => sim.close());
beforeEach(() => sim.reset());

function callSuno(method: string, path: string, body?: unknown, key: string = testKey): Promise<Response> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (key) headers['authorization'] = `Bearer ${key}`;
  return fetch(`${sim.origin}${path}`, { method, headers, body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body) });
}

async function submit(action: string, body: Record<string, unknown>): Promise<string> {
  const response = await callSuno('POST', `/suno/submit/${action}`, body);
  expect(response.status).toBe(200);
  const answer = SunoSubmitResponseSchema.parse(await response.json());
  expect(answer).toMatchObject({ code: 'success', message: '' });
  return answer.data;
}

async function fetchTask(id: string): Promise<SunoTask> {
  const response = await callSuno('GET', `/suno/fetch/${id}`);
  expect(response.status).toBe(200);
  return SunoTaskResponseSchema.parse(await response.json()).data;
}

interface Song {
  id: string;
  status: string;
  audio_url: string;
  image_url: string;
  video_url: string;
  title: string;
  text: string;
  model_name: string;
  metadata: { tags: string; duration: number | null; error_message: string | null; gpt_description_prompt: string | null };
}
const songsOf = (task: SunoTask): Song[] => task.data as Song[];

async function expectError(response: Response, status: number, code: string): Promise<void> {
  expect(response.status).toBe(status);
  expect(SunoErrorResponseSchema.parse(await response.json()).code).toBe(code);
}

describe('POST /suno/submit/{action}', () => {
  it('answers the new task id in new-api’s envelope, for music or lyrics in any case (new-api sends MUSIC)', async () => {
    const music = await submit('MUSIC', { gpt_description_prompt: 'a song about rain', mv: 'chirp-v3-5', make_instrumental: false });
    const lyrics = await submit('lyrics', { prompt: 'the sea at night' });
    expect(music).toMatch(/^[0-9a-f-]{36}$/);
    expect(lyrics).not.toBe(music);
    expect(sim.requests.map((request) => `${request.method} ${request.path}`)).toEqual(['POST /suno/submit/MUSIC', 'POST /suno/submit/lyrics']);
    expect(sim.requests[0]?.body).toMatchObject({ gpt_description_prompt: 'a song about rain', mv: 'chirp-v3-5' });
  });

  it('refuses unknown actions, missing prompts, bodies that are not JSON and blocked prompts', async () => {
    await expectError(await callSuno('POST', '/suno/submit/video', { prompt: 'x' }), 400, 'invalid_action');
    await expectError(await callSuno('POST', '/suno/submit/music', { tags: 'pop' }), 400, 'prompt_empty');
    await expectError(await callSuno('POST', '/suno/submit/lyrics', { gpt_description_prompt: 'only a description' }), 400, 'prompt_empty');
    await expectError(await callSuno('POST', '/suno/submit/music', '{not json'), 400, 'invalid_request');
    await expectError(await callSuno('POST', '/suno/submit/music', { prompt: 5 }), 400, 'invalid_request');
    await expectError(await callSuno('POST', '/suno/submit/music', { prompt: 'bad [sim:task=refuse]' }), 400, 'moderation_blocked');
  });

  it('answers 401 in the same shape without a key or with a wrong one', async () => {
    for (const key of ['', 'sk-wrong']) {
      await expectError(await callSuno('POST', '/suno/submit/music', { prompt: 'x' }, key), 401, 'invalid_api_key');
      await expectError(await callSuno('POST', '/suno/fetch', { ids: [] }, key), 401, 'invalid_api_key');
      await expectError(await callSuno('GET', '/suno/fetch/abc', undefined, key), 401, 'invalid_api_key');
    }
  });
});

describe('a music task over its time', () => {
  it('goes SUBMITTED → QUEUED → IN_PROGRESS → SUCCESS, times filled in as they become known', async () => {
    const id = await submit('music', { gpt_description_prompt: 'rain on a tin roof [sim:task_ms=500]' });
    const seen: SunoTask[] = [];
    const deadline = Date.now() + 3000;
    while (seen.at(-1)?.status !== 'SUCCESS' && Date.now() < deadline) {
      seen.push(await fetchTask(id));
      await sleep(10);
    }
    const statuses = [...new Set(seen.map((task) => task.status))];
    expect(statuses.slice(-2)).toEqual(['IN_PROGRESS', 'SUCCESS']);
    expect(['SUBMITTED', 'QUEUED', 'IN_PROGRESS', 'SUCCESS']).toEqual(expect.arrayContaining(statuses));
    for (const task of seen) {
      expect(task).toMatchObject({ task_id: id, action: 'MUSIC', fail_reason: '' });
      expect(task.progress).toMatch(/^\d{1,3}%$/);
      if (task.status === 'SUBMITTED' || task.status === 'QUEUED') {
        expect(task).toMatchObject({ progress: '0%', start_time: 0, finish_time: 0 });
        expect(songsOf(task).map((song) => song.audio_url)).toEqual(['', '']);
      }
      if (task.status === 'IN_PROGRESS') {
        expect(task.start_time).toBeGreaterThanOrEqual(task.submit_time);
        expect(task.finish_time).toBe(0);
        expect(songsOf(task).map((song) => song.status)).toEqual(['streaming', 'streaming']);
      }
    }
    const done = seen.at(-1);
    expect(done).toMatchObject({ status: 'SUCCESS', progress: '100%' });
    expect(done?.finish_time).toBeGreaterThanOrEqual(done?.start_time ?? Infinity);
    const percents = seen.map((task) => Number(task.progress.slice(0, -1)));
    expect(percents).toEqual([...percents].sort((left, right) => left - right));
  });

  it('reports two songs made from the request, lyrics written from the description', async () => {
    const request = { gpt_description_prompt: 'rain on a tin roof', tags: 'folk, calm', mv: 'chirp-v3-5' };
    const task = await fetchTask(await submit('music', request));
    const expected = simulatedSunoSongs(request);
    const songs = songsOf(task);
    expect(songs).toHaveLength(2);
    expect(songs.map((song) => [song.title, song.text, song.status, song.model_name, song.metadata.tags, song.metadata.duration])).toEqual(
      expected.map((song) => [song.title, song.lyrics, 'complete', 'chirp-v3-5', 'folk, calm', song.durationSeconds]),
    );
    expect(songs[0]?.title).toBe('Rain On A Tin');
    expect(songs[0]?.text).toContain('Rain on a tin roof');
    expect(songs[0]?.metadata.gpt_description_prompt).toBe('rain on a tin roof');
    expect(songs[0]?.audio_url).toBe(`${sim.origin}/suno/files/${songs[0]?.id ?? ''}.mp3`);
    const again = songsOf(await fetchTask(await submit('music', request)));
    expect(again.map((song) => song.title + song.text)).toEqual(songs.map((song) => song.title + song.text));
    expect(again[0]?.id).not.toBe(songs[0]?.id);
  });

  it('serves each song’s audio without a key: an ID3-tagged MP3 as long as the song, the bytes simulatedSongFile makes', async () => {
    const request = { prompt: '[Verse]\nmy own words [sim:task_ms=0]', title: 'Mine', tags: 'pop' };
    const songs = songsOf(await fetchTask(await submit('music', request)));
    expect(songs[0]?.text).toBe('[Verse]\nmy own words');
    for (const [index, song] of songs.entries()) {
      const audio = await fetch(song.audio_url);
      expect(audio.status).toBe(200);
      expect(audio.headers.get('content-type')).toBe('audio/mpeg');
      const bytes = Buffer.from(await audio.arrayBuffer());
      expect(bytes.equals(simulatedSongFile(request, index).bytes)).toBe(true);
      expect(bytes.toString('ascii', 0, 3)).toBe('ID3');
      expect(bytes.length).toBeGreaterThan(((song.metadata.duration ?? 0) / mp3FrameSeconds) * 144);
      const cover = await fetch(song.image_url);
      expect([cover.status, cover.headers.get('content-type')]).toEqual([200, 'image/jpeg']);
    }
    expect(songs[0]?.audio_url).not.toBe(songs[1]?.audio_url);
    expect((await fetch(`${sim.origin}/suno/files/00000000-0000-0000-0000-000000000000.mp3`)).status).toBe(404);
  });

  it('ends FAILURE with a fail_reason when asked, its songs in error and no files', async () => {
    const task = await fetchTask(await submit('music', { prompt: 'doomed', x_sim: { task: 'fail' } }));
    expect(task).toMatchObject({ status: 'FAILURE', fail_reason: sunoFailReason, progress: '100%' });
    const songs = songsOf(task);
    expect(songs.map((song) => [song.status, song.audio_url, song.metadata.error_message])).toEqual([
      ['error', '', sunoFailReason],
      ['error', '', sunoFailReason],
    ]);
    expect((await fetch(`${sim.origin}/suno/files/${songs[0]?.id ?? ''}.mp3`)).status).toBe(404);
  });

  it('makes no audio for an instrumental', async () => {
    const songs = songsOf(await fetchTask(await submit('music', { gpt_description_prompt: 'calm piano', make_instrumental: true })));
    expect(songs.map((song) => song.text)).toEqual(['', '']);
  });
});

describe('lyrics and fetching', () => {
  it('answers lyrics as {id, status, title, text} written from the prompt', async () => {
    const task = await fetchTask(await submit('lyrics', { prompt: 'the sea at night' }));
    expect(task).toMatchObject({ action: 'LYRICS', status: 'SUCCESS' });
    expect(task.data).toEqual({ id: expect.stringMatching(/^[0-9a-f-]{36}$/), status: 'complete', ...simulatedSunoLyrics({ prompt: 'the sea at night' }) });
    expect(simulatedSunoLyrics({ prompt: 'the sea at night' }).text).toContain('The sea at night');
  });

  it('fetches several by POST /suno/fetch in the order asked, leaving unknown ids out; GET of an unknown id is 404', async () => {
    const first = await submit('music', { prompt: 'one' });
    const second = await submit('lyrics', { prompt: 'two' });
    const response = await callSuno('POST', '/suno/fetch', { ids: [second, 'nope', first], action: 'MUSIC' });
    const list = SunoTaskListResponseSchema.parse(await response.json());
    expect(list).toMatchObject({ code: 'success', message: '' });
    expect(list.data.map((task) => task.task_id)).toEqual([second, first]);
    await expectError(await callSuno('GET', '/suno/fetch/nope'), 404, 'task_not_exist');
  });
});

describe('faults on the Suno routes', () => {
  it('plays a submit fault from the description or x_sim in the Suno error shape', async () => {
    await expectError(await callSuno('POST', '/suno/submit/music', { gpt_description_prompt: 'x [sim:fault=status:503]' }), 503, 'internal_error');
    await expectError(await callSuno('POST', '/suno/submit/music', { prompt: 'x', x_sim: { fault: 'status:429' } }), 429, 'too_many_requests');
    const malformed = await callSuno('POST', '/suno/submit/music', { prompt: 'x', x_sim: { fault: 'malformed' } });
    await expect(malformed.json()).rejects.toThrow();
  });

  it('plays failNext on fetches, then answers; a cut breaks the body', async () => {
    const id = await submit('lyrics', { prompt: 'x' });
    sim.failNext({ kind: 'status', status: 500 });
    await expectError(await callSuno('GET', `/suno/fetch/${id}`), 500, 'internal_error');
    sim.failNext({ kind: 'cut' });
    expect((await readAll(await callSuno('POST', '/suno/fetch', { ids: [id] }))).error).toBeDefined();
    expect((await fetchTask(id)).task_id).toBe(id);
  });
});
