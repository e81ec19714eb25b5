import { SunoErrorResponseSchema, SunoSubmitResponseSchema, SunoTaskListResponseSchema, SunoTaskResponseSchema, type SunoTask } from '@chat-relay/contract';
import { simulatedSongFile, simulatedSunoSongs, sunoFailReason, type UpstreamSim } from '@chat-relay/upstream-sim';
import { createAccount, createToken } from '../testing/system-api';
import { startE2eRelay, type E2eRelay } from './e2e-relay';

// Music end to end (issue 17): new-api's Suno-style routes on the relay, a `suno` channel on the
// simulator's Suno-style API behind it, the task engine polling it. A song task costs $0.05.
const SONG = 50_000;

let e2e: E2eRelay;
let sim: UpstreamSim;

beforeAll(async () => {
  e2e = await startE2eRelay({ env: { RELAY_TASK_POLL_MS: '100', RELAY_TASK_POLL_MAX_MS: '200' } });
  sim = await e2e.startSim({ taskDurationMs: 400 });
  await e2e.addChannel(sim.origin, { type: 'suno', models: ['suno_music', 'suno_lyrics'] });
  const prices = await fetch(`${e2e.url}/api/prices`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${e2e.relay.adminKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ data: [{ model: 'suno_*', input: 0, output: 0, song: SONG }] }),
  });
  expect(prices.status).toBe(200);
});
afterAll(() => e2e.close());
beforeEach(() => e2e.relay.storage.tokens.update(e2e.tokenId, { quotaLimit: 1_000_000, quotaUsed: 0 }));

async function call(method: 'GET' | 'POST', path: string, body?: unknown, key = e2e.token) {
  const response = await fetch(`${e2e.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, json: (await response.json()) as unknown, requestId: response.headers.get('x-request-id') ?? '' };
}

async function submit(action: string, body: Record<string, unknown>, key = e2e.token): Promise<{ id: string; requestId: string }> {
  const answer = await call('POST', `/suno/submit/${action}`, body, key);
  expect(answer.status).toBe(200);
  const parsed = SunoSubmitResponseSchema.parse(answer.json);
  expect(parsed).toMatchObject({ code: 'success', message: '' });
  return { id: parsed.data, requestId: answer.requestId };
}

/** GET /suno/fetch/:id until the task has ended; every state seen. */
async function untilEnded(id: string): Promise<SunoTask[]> {
  const seen: SunoTask[] = [];
  const deadline = Date.now() + 10_000;
  for (;;) {
    const answer = await call('GET', `/suno/fetch/${id}`);
    expect(answer.status).toBe(200);
    const task = SunoTaskResponseSchema.parse(answer.json).data;
    seen.push(task);
    if (task.status === 'SUCCESS' || task.status === 'FAILURE') return seen;
    if (Date.now() > deadline) throw new Error(`task ${id} still ${task.status}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function rowsOf(requestId: string) {
  await e2e.relay.services.recorder.flush();
  return (await e2e.relay.storage.usageLog.recent(100)).filter((row) => row.requestId === requestId);
}
const quotaUsed = async () => (await e2e.relay.storage.tokens.get(e2e.tokenId))?.quotaUsed;

describe('the Suno-style routes (new-api shapes) to a suno channel', () => {
  it('submits a song, fetches it until SUCCESS with the songs the upstream made, and charges one song once', async () => {
    const request = { prompt: '[Verse]\nNeon rain on the harbour\n[Chorus]\nWe sail at dawn', tags: 'synthwave', title: 'Harbour', mv: 'chirp-v3-5' };
    const { id, requestId } = await submit('music', request);
    expect(id).toMatch(/^task_/);
    const seen = await untilEnded(id);
    const done = seen.at(-1);
    expect(done).toMatchObject({ task_id: id, action: 'MUSIC', status: 'SUCCESS', progress: '100%', fail_reason: '' });
    expect(done?.submit_time).toBeGreaterThan(0);
    expect(done?.finish_time).toBeGreaterThanOrEqual(done?.submit_time ?? 0);
    // The songs as the upstream reported them: two, with their lyrics and playable audio.
    const songs = done?.data as Array<{ id: string; audio_url: string; title: string; status: string }>;
    const expected = simulatedSunoSongs(request);
    expect(songs.map((song) => song.title)).toEqual(expected.map((song) => song.title));
    expect(songs.every((song) => song.status === 'complete')).toBe(true);
    const audio = await fetch(songs[0]?.audio_url ?? '');
    expect(audio.headers.get('content-type')).toBe('audio/mpeg');
    expect(Buffer.from(await audio.arrayBuffer()).equals(simulatedSongFile(request, 0, 'audio').bytes)).toBe(true);
    // The relay asked the upstream with the channel's key, by the upstream's id (never ours).
    const submits = sim.requests.filter((seenRequest) => seenRequest.path.startsWith('/suno/submit/'));
    expect(submits.at(-1)?.body).toMatchObject({ prompt: request.prompt, mv: 'chirp-v3-5', title: 'Harbour' });
    const polls = sim.requests.filter((seenRequest) => seenRequest.path === '/suno/fetch');
    expect(polls.length).toBeGreaterThan(0);
    expect(JSON.stringify(polls.map((poll) => poll.body))).not.toContain(id);

    expect(await rowsOf(requestId)).toMatchObject([{ endpoint: 'music', status: 200, units: 1, cost: SONG, requestedModel: 'suno_music' }]);
    expect(await quotaUsed()).toBe(SONG);
  });

  it('writes lyrics as a lyrics task, priced on its own model', async () => {
    const { id, requestId } = await submit('lyrics', { prompt: 'a song about lighthouses' });
    const done = (await untilEnded(id)).at(-1);
    expect(done).toMatchObject({ action: 'LYRICS', status: 'SUCCESS' });
    expect(done?.data).toMatchObject({ text: expect.stringMatching(/\S/) });
    expect(await rowsOf(requestId)).toMatchObject([{ requestedModel: 'suno_lyrics', units: 1, cost: SONG }]);
  });

  it('gives the reservation back when the song fails, with the upstream fail_reason', async () => {
    const { id, requestId } = await submit('music', { gpt_description_prompt: 'a lullaby [sim:task=fail]' });
    const done = (await untilEnded(id)).at(-1);
    expect(done).toMatchObject({ status: 'FAILURE', fail_reason: sunoFailReason });
    expect(await rowsOf(requestId)).toMatchObject([{ status: 502, cost: 0, units: 0 }]);
    expect(await quotaUsed()).toBe(0);
  });

  it("fetches several by id: the caller's own, in the order asked; others' and unknown ids are left out", async () => {
    const account = await createAccount(e2e.relay, { name: 'band' });
    const theirs = await createToken(e2e.relay, { name: 'band' }, account.access_key);
    const mine = [await submit('music', { prompt: 'first' }), await submit('music', { prompt: 'second' })];
    const other = await submit('music', { prompt: 'not yours' }, theirs.key);
    const answer = await call('POST', '/suno/fetch', { ids: [mine[1]?.id, other.id, 'task_unknown', mine[0]?.id] });
    expect(answer.status).toBe(200);
    const list = SunoTaskListResponseSchema.parse(answer.json);
    expect(list.data.map((task) => task.task_id)).toEqual([mine[1]?.id, mine[0]?.id]);
    for (const { id } of mine) await untilEnded(id);

    const refused = await call('GET', `/suno/fetch/${other.id}`);
    expect(refused.status).toBe(404);
    expect(SunoErrorResponseSchema.parse(refused.json)).toMatchObject({ code: 'task_not_exist', data: null });
  });

  it('answers in new-api error shapes: an unknown action, a missing key, over quota', async () => {
    const badAction = await call('POST', '/suno/submit/video', { prompt: 'x' });
    expect(badAction.status).toBe(400);
    expect(SunoErrorResponseSchema.parse(badAction.json).data).toBeNull();
    const keyless = await call('GET', '/suno/fetch/task_x', undefined, '');
    expect(keyless.status).toBe(401);
    SunoErrorResponseSchema.parse(keyless.json);

    await e2e.relay.storage.tokens.update(e2e.tokenId, { quotaLimit: SONG - 1, quotaUsed: 0 });
    const before = sim.requests.length;
    const over = await call('POST', '/suno/submit/music', { prompt: 'too dear' });
    expect(over.status).toBe(429);
    expect(SunoErrorResponseSchema.parse(over.json).code).toBe('insufficient_quota');
    expect(sim.requests.length).toBe(before);
  });
});
