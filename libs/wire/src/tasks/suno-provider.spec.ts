import { sunoProvider, type SunoTaskRequest } from './suno-provider';

const channel = { baseUrl: 'https://suno-api.example.com/' };
const KEY = 'sk-SUNOKEY-4b9e2a71c0d3f8';
const submit = sunoProvider.submit;
const UPSTREAM_ID = '736a6f88-bd29-4b1e-b110-37132a5325ac';

/** One task as new-api's `/suno/fetch` answers it (dto.SunoDataResponse). */
const upstreamTask = (fields: Record<string, unknown>) => ({
  task_id: UPSTREAM_ID,
  action: 'MUSIC',
  status: 'IN_PROGRESS',
  fail_reason: '',
  submit_time: 1716781200,
  start_time: 1716781205,
  finish_time: 0,
  data: null,
  ...fields,
});

const songs = [
  {
    id: 'clip-1',
    title: 'Night drive',
    status: 'complete',
    audio_url: 'https://cdn1.suno.ai/clip-1.mp3',
    image_url: 'https://cdn1.suno.ai/clip-1.png',
    metadata: { tags: 'synthwave', duration: 169.52 },
  },
];

const fetchAnswer = (data: unknown, code = 'success', message = '') => JSON.stringify({ code, message, data });

describe('sunoProvider submit', () => {
  const build = (request: SunoTaskRequest, rawBody?: Buffer) => submit.buildRequest({ channel, key: KEY, request, upstreamModel: 'suno_music', rawBody });

  it('posts to {base_url}/suno/submit/{action} with the key as a bearer token', () => {
    const built = build({ action: 'music', body: { prompt: 'a synthwave song', mv: 'chirp-v3-5' } });
    expect(built.url).toBe('https://suno-api.example.com/suno/submit/music');
    expect(built.headers).toEqual({ authorization: `Bearer ${KEY}`, 'content-type': 'application/json' });
    expect(JSON.parse(built.body.toString())).toEqual({ prompt: 'a synthwave song', mv: 'chirp-v3-5' });
  });

  it("forwards the caller's bytes as they are when nothing is added, and sends no model of the relay's", () => {
    const raw = '{"gpt_description_prompt": "rain on a tin roof",\n "mv":"chirp-v3-5", "make_instrumental": true}';
    const built = build({ action: 'music', body: JSON.parse(raw) as Record<string, unknown> }, Buffer.from(raw));
    expect(built.body.toString()).toBe(raw);
    expect(built.body.toString()).not.toContain('suno_music');
  });

  it.each([
    ['absent', { prompt: 'a song' }],
    ['empty', { prompt: 'a song', mv: '' }],
  ])('sends new-api’s default song model when mv is %s', (_name, body) => {
    const built = build({ action: 'music', body }, Buffer.from(JSON.stringify(body)));
    expect(JSON.parse(built.body.toString())).toEqual({ ...body, mv: 'chirp-v3-0' });
  });

  it('writes lyrics at /suno/submit/lyrics, the body as sent (no song model added)', () => {
    const built = build({ action: 'lyrics', body: { prompt: 'about the sea' } });
    expect(built.url).toBe('https://suno-api.example.com/suno/submit/lyrics');
    expect(JSON.parse(built.body.toString())).toEqual({ prompt: 'about the sea' });
  });

  it('refuses lyrics without a prompt by name, as new-api does', () => {
    expect(() => build({ action: 'lyrics', body: { title: 'x' } })).toThrow(expect.objectContaining({ status: 400, param: 'prompt' }));
  });

  const context = { request: { action: 'music', body: {} } as SunoTaskRequest, publicModel: 'suno_music', contentType: 'application/json' };

  it("answers the upstream's envelope unchanged, with no usage: the song is priced when it completes", () => {
    const text = JSON.stringify({ code: 'success', message: '', data: UPSTREAM_ID });
    expect(submit.convertResponse(text, context)).toEqual({
      ok: true,
      kind: 'json',
      body: JSON.parse(text),
      text,
      usage: { promptTokens: 0, completionTokens: 0, units: 0 },
    });
  });

  it.each([
    ['a refusal in a 2xx envelope', JSON.stringify({ code: 'quota_not_enough', message: 'upstream quota exhausted', data: null }), 'quota_not_enough'],
    ['a success without an id', JSON.stringify({ code: 'success', message: '', data: '' }), 'bad_response'],
    ['not JSON', 'OK', 'bad_response'],
  ])('fails %s inside the pipeline, as a 502', (_name, text, code) => {
    expect(submit.convertResponse(text, context)).toMatchObject({ ok: false, error: { status: 502, type: 'upstream_error', code } });
  });
});

describe('sunoProvider.readSubmitted', () => {
  it('takes the id from data; the task is queued until the first poll', () => {
    expect(sunoProvider.readSubmitted({ code: 'success', message: '', data: UPSTREAM_ID })).toEqual({
      ok: true,
      upstreamId: UPSTREAM_ID,
      snapshot: { state: 'queued', progress: 0, error: null, result: { task_id: UPSTREAM_ID } },
    });
  });

  it("a code other than success is the upstream's refusal, in its words", () => {
    const reading = sunoProvider.readSubmitted({ code: 'get_channel_failed', message: 'no channel for suno', data: null });
    expect(reading).toMatchObject({ ok: false, error: { status: 502, code: 'get_channel_failed' } });
    if (reading.ok) throw new Error('expected a refusal');
    expect(reading.error.message).toContain('no channel for suno');
  });

  it.each([[{ message: '', data: UPSTREAM_ID }], [{ code: 'success', data: 42 }]])('refuses an envelope it cannot read: %j', (body) => {
    expect(sunoProvider.readSubmitted(body)).toMatchObject({ ok: false, error: { status: 502 } });
  });
});

describe('sunoProvider polls', () => {
  it('polls with POST {base_url}/suno/fetch and the id, as new-api does', () => {
    expect(sunoProvider.buildPoll({ channel, key: KEY, upstreamId: UPSTREAM_ID })).toEqual({
      method: 'POST',
      url: 'https://suno-api.example.com/suno/fetch',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ ids: [UPSTREAM_ID] }),
    });
  });

  it('has no cancel and no content call: Suno-style APIs have none, songs are URLs in data', () => {
    expect(sunoProvider.buildCancel).toBeUndefined();
    expect(sunoProvider.buildContent).toBeUndefined();
  });

  const poll = (fields: Record<string, unknown>) => sunoProvider.readPoll(fetchAnswer([upstreamTask(fields)]), UPSTREAM_ID);

  it.each([
    ['NOT_START', {}, 'queued', 0],
    ['SUBMITTED', {}, 'queued', 0],
    ['QUEUED', {}, 'queued', 0],
    ['QUEUED', { progress: '10%' }, 'queued', 10],
    ['IN_PROGRESS', {}, 'in_progress', 50],
    ['IN_PROGRESS', { progress: '73%' }, 'in_progress', 73],
    ['IN_PROGRESS', { progress: '33.6%' }, 'in_progress', 34],
    ['IN_PROGRESS', { progress: '120%' }, 'in_progress', 100],
    ['IN_PROGRESS', { progress: 'soon' }, 'in_progress', 50],
    ['in_progress', {}, 'in_progress', 50],
    ['processing', {}, 'in_progress', 50],
    ['UNKNOWN', {}, 'in_progress', 50],
    ['', {}, 'in_progress', 50],
    ['STREAMING', {}, 'in_progress', 50],
  ])('maps %s %j to %s at %d%%', (status, extra, state, progress) => {
    const item = upstreamTask({ status, ...extra });
    expect(poll({ status, ...extra })).toEqual({ ok: true, snapshot: { state, progress, error: null, result: item } });
  });

  it('maps SUCCESS to completed at 100%, one unit, the item kept as the result', () => {
    const item = upstreamTask({ status: 'SUCCESS', finish_time: 1716781300, progress: '90%', data: songs });
    expect(poll(item)).toEqual({ ok: true, snapshot: { state: 'completed', progress: 100, error: null, result: item, units: 1 } });
  });

  it.each(['FAILURE', 'FAILED'])('maps %s to failed with its fail_reason', (status) => {
    const item = upstreamTask({ status, fail_reason: 'Lyrics contain a flagged word' });
    expect(poll(item)).toEqual({
      ok: true,
      snapshot: { state: 'failed', progress: 100, error: { code: 'music_generation_failed', message: 'Lyrics contain a flagged word' }, result: item },
    });
  });

  it('a failure without a reason still says why in a sentence', () => {
    const reading = poll({ status: 'FAILURE' });
    if (!reading.ok) throw new Error('expected a snapshot');
    expect(reading.snapshot.error).toEqual({ code: 'music_generation_failed', message: expect.stringMatching(/\w/) });
  });

  it('a fail_reason on a task still running fails it, as new-api refunds it', () => {
    expect(poll({ status: 'IN_PROGRESS', fail_reason: 'generation error' })).toMatchObject({ ok: true, snapshot: { state: 'failed' } });
  });

  it('picks the item of the task polled among others', () => {
    const other = upstreamTask({ task_id: 'someone-else', status: 'FAILURE', fail_reason: 'x' });
    const mine = upstreamTask({ status: 'SUCCESS', data: songs });
    expect(sunoProvider.readPoll(fetchAnswer([other, mine]), UPSTREAM_ID)).toMatchObject({ ok: true, snapshot: { state: 'completed', result: mine } });
  });

  it.each([
    ['an empty list', []],
    ['null (Go’s empty list)', null],
    ['only other tasks', [upstreamTask({ task_id: 'other' })]],
  ])('a task the upstream does not list is gone: %s', (_name, data) => {
    expect(sunoProvider.readPoll(fetchAnswer(data), UPSTREAM_ID)).toMatchObject({ ok: false, gone: true, error: { status: 502 } });
  });

  it.each([
    ['not JSON', '<html>bad gateway</html>'],
    ['data that is not a list', fetchAnswer({ task_id: UPSTREAM_ID })],
    ['a JSON list', JSON.stringify([upstreamTask({})])],
  ])('fails a poll answer that is %s with a 502, not as gone', (_name, text) => {
    const reading = sunoProvider.readPoll(text, UPSTREAM_ID);
    expect(reading).toMatchObject({ ok: false, error: { status: 502, code: 'bad_response' } });
    expect(reading).not.toHaveProperty('gone');
  });

  it('a refusal envelope on a poll is an error with its message, not a gone task', () => {
    const reading = sunoProvider.readPoll(fetchAnswer(null, 'fetch_failed', 'try later'), UPSTREAM_ID);
    expect(reading).toMatchObject({ ok: false, error: { status: 502, code: 'fetch_failed', message: expect.stringContaining('try later') } });
    expect(reading).not.toHaveProperty('gone');
  });
});

describe('sunoProvider.mapErrorResponse', () => {
  const taskError = (message: string, code: string) => JSON.stringify({ code, message, data: null });

  it('a refused key is disabled and another tried, the key never repeated', () => {
    const failure = sunoProvider.mapErrorResponse(401, taskError(`invalid token ${KEY}`, 'unauthorized'), [KEY]);
    expect(failure).toMatchObject({ keyRejected: true, retryable: true, error: { status: 502, code: 'upstream_auth_failed' } });
    expect(JSON.stringify(failure.error.toBody())).not.toContain(KEY);
  });

  it("the request's own error keeps its status, code and message, the key cut out", () => {
    const failure = sunoProvider.mapErrorResponse(400, taskError(`prompt_empty (key ${KEY})`, 'invalid_request'), [KEY]);
    expect(failure).toMatchObject({ retryable: false, channelFault: false, error: { status: 400, code: 'invalid_request' } });
    expect(failure.error.message).toContain('prompt_empty');
    expect(JSON.stringify(failure.error.toBody())).not.toContain(KEY);
  });

  it('an OpenAI-style error from a gateway in front of the upstream is read too', () => {
    const text = JSON.stringify({ error: { message: `Bad key ${KEY}`, code: 'bad_key' } });
    const failure = sunoProvider.mapErrorResponse(422, text, [KEY]);
    expect(failure.error).toMatchObject({ status: 422, code: 'bad_key' });
    expect(failure.error.message).not.toContain(KEY);
  });

  it('a plain-text outage is retryable, its text kept without the key', () => {
    const failure = sunoProvider.mapErrorResponse(503, `service down; auth=${KEY}`, [KEY]);
    expect(failure).toMatchObject({ retryable: true, channelFault: true, error: { status: 502, code: 'upstream_503' } });
    expect(failure.error.message).toContain('service down');
    expect(failure.error.message).not.toContain(KEY);
  });

  it('an HTML error page is not quoted', () => {
    const failure = sunoProvider.mapErrorResponse(502, '<html><body>Bad Gateway</body></html>', [KEY]);
    expect(failure.error.message).toBe('The upstream provider failed with status 502');
  });
});
