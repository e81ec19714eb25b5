import type { MultipartRequest } from '../hub/endpoint-adapter';
import type { MultipartBody, UploadedFile } from '../hub/upstream-adapter';
import { openaiVideosProvider, type VideoSubmitRequest } from './openai-videos-provider';

const channel = { baseUrl: 'https://api.example.com/v1/' };
const KEY = 'sk-proj-VIDEOKEY-7f3a9c2e1d';
const submit = openaiVideosProvider.submit;

/** A Video object as OpenAI answers it (VideoResource), upstream ids and all. */
const upstreamVideo = (fields: Record<string, unknown>) => ({
  id: 'video_68d7512d07848190b3e45da0ecbebcde004da08e1e0678d5',
  object: 'video',
  created_at: 1758941485,
  status: 'queued',
  model: 'sora-2-2025-10-06',
  progress: 0,
  seconds: '8',
  size: '1280x720',
  ...fields,
});

function sentForm(body: unknown): MultipartBody {
  if (typeof body !== 'object' || body === null || Buffer.isBuffer(body) || (body as MultipartBody).kind !== 'multipart') throw new Error('expected a multipart body');
  return body as MultipartBody;
}

describe('openaiVideosProvider submit', () => {
  it('posts JSON to {base_url}/videos with the key as a bearer token and the model mapped', () => {
    const request: VideoSubmitRequest = { kind: 'json', body: { model: 'my-video', prompt: 'a calico cat', seconds: '8' } };
    const built = submit.buildRequest({ channel, key: KEY, request, upstreamModel: 'sora-2' });
    expect(built.url).toBe('https://api.example.com/v1/videos');
    expect(built.method ?? 'POST').toBe('POST');
    expect(built.headers).toEqual({ authorization: `Bearer ${KEY}`, 'content-type': 'application/json' });
    expect(JSON.parse(built.body.toString())).toEqual({ model: 'sora-2', prompt: 'a calico cat', seconds: '8' });
  });

  it("forwards the caller's bytes as they are when the model is not mapped, and swaps only the model when it is", () => {
    const raw = '{ "prompt": "a cat",\n  "model": "sora-2", "size": "720x1280" }';
    const request: VideoSubmitRequest = { kind: 'json', body: JSON.parse(raw) as Record<string, unknown> };
    const same = submit.buildRequest({ channel, key: KEY, request, upstreamModel: 'sora-2', rawBody: Buffer.from(raw) });
    expect(same.body.toString()).toBe(raw);
    const mapped = submit.buildRequest({ channel, key: KEY, request, upstreamModel: 'sora-2-pro', rawBody: Buffer.from(raw) });
    expect(mapped.body.toString()).toBe(raw.replace('"sora-2"', '"sora-2-pro"'));
  });

  it('adds the model to a JSON body that names none (OpenAI defaults it; the channel names its own)', () => {
    const built = submit.buildRequest({ channel, key: KEY, request: { kind: 'json', body: { prompt: 'a cat' } }, upstreamModel: 'sora-2' });
    expect(JSON.parse(built.body.toString())).toEqual({ prompt: 'a cat', model: 'sora-2' });
  });

  const file: UploadedFile = { field: 'input_reference', filename: 'ref.png', contentType: 'image/png', size: 2048, ref: 'spool/abc' };

  it('sends a multipart form with its fields in order, the model replaced, and the files as received', () => {
    const upload: MultipartRequest = {
      fields: [
        ['prompt', 'she turns around'],
        ['model', 'my-video'],
        ['seconds', '4'],
      ],
      files: [file],
    };
    const built = submit.buildRequest({ channel, key: KEY, request: { kind: 'multipart', upload }, upstreamModel: 'sora-2' });
    expect(built.url).toBe('https://api.example.com/v1/videos');
    expect(built.headers).toEqual({ authorization: `Bearer ${KEY}` });
    const form = sentForm(built.body);
    expect(form.fields).toEqual([
      ['prompt', 'she turns around'],
      ['model', 'sora-2'],
      ['seconds', '4'],
    ]);
    expect(form.files).toEqual([{ field: 'input_reference', file }]);
    expect(form.files[0]?.file).toBe(file);
  });

  it('adds the model first to a multipart form that names none', () => {
    const upload: MultipartRequest = { fields: [['prompt', 'a cat']], files: [] };
    const form = sentForm(submit.buildRequest({ channel, key: KEY, request: { kind: 'multipart', upload }, upstreamModel: 'sora-2' }).body);
    expect(form.fields).toEqual([
      ['model', 'sora-2'],
      ['prompt', 'a cat'],
    ]);
  });

  const context = { request: { kind: 'json', body: {} } as VideoSubmitRequest, publicModel: 'my-video', contentType: 'application/json' };

  it("answers the upstream's Video object unchanged, with no usage: the task is priced when it completes", () => {
    const text = JSON.stringify(upstreamVideo({}));
    expect(submit.convertResponse(text, context)).toEqual({
      ok: true,
      kind: 'json',
      body: JSON.parse(text),
      text,
      usage: { promptTokens: 0, completionTokens: 0, units: 0 },
    });
  });

  it.each([
    ['without an id', JSON.stringify({ object: 'video', status: 'queued' })],
    ['that is not JSON', 'Bad gateway'],
    ['that is a list', '[]'],
  ])('fails a 2xx answer %s as the upstream’s fault, so the pipeline may try another channel', (_name, text) => {
    expect(submit.convertResponse(text, context)).toMatchObject({ ok: false, error: { status: 502, code: 'bad_response' } });
  });
});

describe('openaiVideosProvider.readSubmitted', () => {
  it("takes the upstream's id and the task's first state", () => {
    const body = upstreamVideo({});
    expect(openaiVideosProvider.readSubmitted(body)).toEqual({
      ok: true,
      upstreamId: body.id,
      snapshot: { state: 'queued', progress: 0, error: null, result: body },
    });
  });

  it('reads a submit answer without a status as queued: the task exists upstream once it has an id', () => {
    const reading = openaiVideosProvider.readSubmitted({ id: 'video_1', object: 'video' });
    expect(reading).toMatchObject({ ok: true, upstreamId: 'video_1', snapshot: { state: 'queued', progress: 0 } });
  });

  it.each([[{ object: 'video', status: 'queued' }], [{ id: 42, status: 'queued' }], [{ id: '', status: 'queued' }]])('refuses an answer without a string id: %j', (body) => {
    expect(openaiVideosProvider.readSubmitted(body)).toMatchObject({ ok: false, error: { status: 502, type: 'upstream_error' } });
  });
});

describe('openaiVideosProvider polls', () => {
  const args = { channel, key: KEY, upstreamId: 'video_a/b?c' };

  it('polls with GET {base_url}/videos/{id}, the id encoded', () => {
    expect(openaiVideosProvider.buildPoll(args)).toEqual({
      method: 'GET',
      url: 'https://api.example.com/v1/videos/video_a%2Fb%3Fc',
      headers: { authorization: `Bearer ${KEY}` },
    });
  });

  const poll = (fields: Record<string, unknown>) => openaiVideosProvider.readPoll(JSON.stringify(upstreamVideo(fields)), 'video_1');

  it.each([
    ['queued', { status: 'queued', progress: 0 }, { state: 'queued', progress: 0, error: null }],
    ['in_progress, progress rounded', { status: 'in_progress', progress: 37.6 }, { state: 'in_progress', progress: 38, error: null }],
    ['in_progress, progress over 100 clamped', { status: 'in_progress', progress: 140 }, { state: 'in_progress', progress: 100, error: null }],
    ['in_progress, negative progress clamped', { status: 'in_progress', progress: -3 }, { state: 'in_progress', progress: 0, error: null }],
    ['in_progress, progress not a number', { status: 'in_progress', progress: '40%' }, { state: 'in_progress', progress: 0, error: null }],
    ['an unknown status as still running', { status: 'processing', progress: 12 }, { state: 'in_progress', progress: 12, error: null }],
  ])('maps %s', (_name, fields, expected) => {
    const reading = poll(fields);
    expect(reading).toEqual({ ok: true, snapshot: { ...expected, result: upstreamVideo(fields) } });
  });

  it('maps completed: progress 100, priced by its seconds and size', () => {
    const fields = { status: 'completed', progress: 100, seconds: '12', size: '1792x1024', completed_at: 1758941600, expires_at: 1759028000 };
    expect(poll(fields)).toEqual({
      ok: true,
      snapshot: { state: 'completed', progress: 100, error: null, result: upstreamVideo(fields), units: 12, unitVariant: '1792x1024' },
    });
  });

  it('completed with numeric seconds and a progress short of 100: still 100, the seconds read', () => {
    expect(poll({ status: 'completed', progress: 99, seconds: 4 })).toMatchObject({ ok: true, snapshot: { progress: 100, units: 4, unitVariant: '1280x720' } });
  });

  it.each([['unreadable', 'four'], ['zero', '0'], ['empty', ''], ['absent', undefined]])(
    'completed with %s seconds: no units (the seconds reserved at submit stand)',
    (_name, seconds) => {
      const reading = poll({ status: 'completed', seconds });
      if (!reading.ok) throw new Error('expected a snapshot');
      expect(reading.snapshot.state).toBe('completed');
      expect(reading.snapshot).not.toHaveProperty('units');
    },
  );

  it("maps failed with the upstream's error", () => {
    const fields = { status: 'failed', progress: 20, error: { code: 'moderation_blocked', message: 'Your request was blocked by our moderation system.' } };
    expect(poll(fields)).toEqual({
      ok: true,
      snapshot: { state: 'failed', progress: 20, error: fields.error, result: upstreamVideo(fields) },
    });
  });

  it.each([
    ['no error at all', {}],
    ['a null error', { error: null }],
    ['an error without a code', { error: { message: 'It broke.' } }],
  ])('maps failed with %s to video_generation_failed', (_name, extra) => {
    const reading = poll({ status: 'failed', ...extra });
    if (!reading.ok) throw new Error('expected a snapshot');
    expect(reading.snapshot.error?.code).toBe('video_generation_failed');
    expect(reading.snapshot.error?.message).toBeTruthy();
  });

  it('keeps no error on a task that has not failed, even when the upstream sends one', () => {
    expect(poll({ status: 'in_progress', error: { code: 'x', message: 'y' } })).toMatchObject({ ok: true, snapshot: { error: null } });
  });

  it.each([
    ['not JSON', '<html>502</html>'],
    ['a JSON list', '[{"status":"queued"}]'],
    ['an object without a status', JSON.stringify({ id: 'video_1', object: 'video', progress: 5 })],
    ['a status that is not a string', JSON.stringify({ id: 'video_1', status: 3 })],
  ])('fails a poll answer that is %s with a 502', (_name, text) => {
    expect(openaiVideosProvider.readPoll(text, 'video_1')).toMatchObject({ ok: false, error: { status: 502, type: 'upstream_error', code: 'bad_response' } });
  });

  it('cancels with DELETE {base_url}/videos/{id}', () => {
    expect(openaiVideosProvider.buildCancel?.(args)).toEqual({
      method: 'DELETE',
      url: 'https://api.example.com/v1/videos/video_a%2Fb%3Fc',
      headers: { authorization: `Bearer ${KEY}` },
    });
  });

  it.each([
    ['video', 'https://api.example.com/v1/videos/video_1/content'],
    ['thumbnail', 'https://api.example.com/v1/videos/video_1/content?variant=thumbnail'],
    ['spritesheet', 'https://api.example.com/v1/videos/video_1/content?variant=spritesheet'],
  ])('downloads the %s from /content', (variant, url) => {
    expect(openaiVideosProvider.buildContent?.({ ...args, upstreamId: 'video_1', variant })).toEqual({
      method: 'GET',
      url,
      headers: { authorization: `Bearer ${KEY}` },
    });
  });
});

describe('openaiVideosProvider.mapErrorResponse', () => {
  const quoting = (message: string, code: string | null = null) => JSON.stringify({ error: { message, type: 'invalid_request_error', param: null, code } });

  it('a rejected key disables it, and the message never repeats it', () => {
    const failure = openaiVideosProvider.mapErrorResponse(401, quoting(`Incorrect API key provided: ${KEY}.`, 'invalid_api_key'), [KEY]);
    expect(failure).toMatchObject({ keyRejected: true, retryable: true, error: { status: 502, code: 'upstream_auth_failed' } });
    expect(JSON.stringify(failure.error.toBody())).not.toContain(KEY);
  });

  it("a request's own error keeps its status and message, the key cut out", () => {
    const failure = openaiVideosProvider.mapErrorResponse(400, quoting(`Invalid size for key ${KEY}: 100x100`, 'invalid_value'), [KEY]);
    expect(failure).toMatchObject({ retryable: false, error: { status: 400, code: 'invalid_value' } });
    expect(failure.error.message).toContain('Invalid size');
    expect(JSON.stringify(failure.error.toBody())).not.toContain(KEY);
  });

  it('a poll of a task the upstream no longer knows is a 404, not retried', () => {
    const failure = openaiVideosProvider.mapErrorResponse(404, quoting('Video not found', 'not_found'), [KEY]);
    expect(failure).toMatchObject({ retryable: false, error: { status: 404 } });
  });

  it('an upstream outage is retryable and the channel’s fault', () => {
    expect(openaiVideosProvider.mapErrorResponse(503, 'upstream connect error', [KEY])).toMatchObject({ retryable: true, channelFault: true, error: { status: 502 } });
  });
});
