import fs from 'node:fs';
import { toneWav } from '@chat-relay/upstream-sim';
import { usageRowsFor } from './usage-rows-for';
import { endlessUpload, errorOf, formOf, modelCalls, startEndpointsRelay, type Answer, type EndpointsE2e } from './endpoints-e2e';

/**
 * SPEC §7a: what the endpoints beside chat refuse is refused by the relay itself — in OpenAI's
 * error shape, naming the parameter — before a reservation, a channel or the upstream is
 * touched; a refusal is logged and costs nothing, even with prices and a quota in force.
 */
const MAX_BODY_BYTES = 20_000;
const MAX_UPLOAD_BYTES = 60_000;
/** Every unit priced, so a refusal that were charged would show. */
const PRICES = [{ model: '*', input: 1_000_000, output: 2_000_000, image: 40_000, search_unit: 2_000, characters: 15_000_000, audio_minute: 6_000 }];
const LIMIT = 50_000_000;

const png = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');

describe('e2e: bad input on the endpoints beside chat', () => {
  let e2e: EndpointsE2e;

  beforeAll(async () => {
    e2e = await startEndpointsRelay({}, { maxBodyBytes: MAX_BODY_BYTES, maxUploadBytes: MAX_UPLOAD_BYTES });
    await e2e.setPrices(PRICES);
  });
  afterAll(() => e2e.close());
  beforeEach(async () => {
    e2e.sim.reset();
    await e2e.setQuota(LIMIT);
  });

  /** One usage row for the refusal, charging nothing; nothing reserved, nothing sent upstream. */
  async function expectFree(requestId: string, status: number): Promise<void> {
    const [row] = await usageRowsFor(e2e, [requestId]);
    expect(row).toMatchObject({ status, cost: 0, units: 0, promptTokens: 0, completionTokens: 0, channelId: null, attempts: 0 });
    expect(await e2e.quotaUsed()).toBe(0);
    expect(e2e.openReservations()).toBe(0);
    expect(modelCalls(e2e.sim)).toEqual([]);
  }

  function expect400(answer: Answer, param: string | null): ReturnType<typeof errorOf> {
    expect(answer.status).toBe(400);
    const error = errorOf(answer);
    expect(error).toMatchObject({ type: 'invalid_request_error', param });
    if (param) expect(error.message).toContain(param);
    return error;
  }

  it.each([
    ['/v1/embeddings', { model: 'text-embedding-3-small', input: 5 }, 'input'],
    ['/v1/embeddings', { model: 'text-embedding-3-small', input: [] }, 'input'],
    ['/v1/embeddings', { model: 'text-embedding-3-small', input: 'hi', dimensions: 'x' }, 'dimensions'],
    ['/v1/embeddings', { model: 'text-embedding-3-small', input: 'hi', dimensions: 0 }, 'dimensions'],
    ['/v1/embeddings', { input: 'hi' }, 'model'],
    ['/v1/completions', { model: 'gpt-3.5-turbo-instruct', prompt: {} }, 'prompt'],
    ['/v1/completions', { model: 'gpt-3.5-turbo-instruct', prompt: 'hi', max_tokens: -1 }, 'max_tokens'],
    ['/v1/completions', { model: 'gpt-3.5-turbo-instruct', prompt: 'hi', stream_options: { include_usage: true } }, 'stream_options'],
    ['/v1/images/generations', { model: 'dall-e-3', prompt: 'a cat', n: 0 }, 'n'],
    ['/v1/images/generations', { model: 'dall-e-3', prompt: 'a cat', response_format: 'gif' }, 'response_format'],
    ['/v1/images/generations', { model: 'dall-e-3' }, 'prompt'],
    ['/v1/audio/speech', { model: 'tts-1', input: 'hello', voice: 'alloy', speed: 9 }, 'speed'],
    ['/v1/audio/speech', { model: 'tts-1', input: 'hello', voice: 'alloy', response_format: 'ogg' }, 'response_format'],
    ['/v1/audio/speech', { model: 'tts-1', input: '', voice: 'alloy' }, 'input'],
    ['/v1/audio/speech', { model: 'tts-1', input: 'hello' }, 'voice'],
    ['/v1/rerank', { model: 'rerank-english-v3.0', query: 'q', documents: [] }, 'documents'],
    ['/v1/rerank', { model: 'rerank-english-v3.0', query: 5, documents: ['a'] }, 'query'],
    ['/v1/rerank', { model: 'rerank-english-v3.0', query: 'q', documents: ['a'], top_n: 0 }, 'top_n'],
    ['/v1/moderations', { input: 5 }, 'input'],
    ['/v1/moderations', { input: [{ type: 'video', video: 'x' }] }, 'input[0].type'],
  ])('%s %j → 400 naming %s, free', async (route, body, param) => {
    const answer = await e2e.postJson(route, body);
    expect400(answer, param);
    await expectFree(answer.requestId, 400);
  });

  it("an unsupported encoding_format → 400 naming it and what is supported, free", async () => {
    const answer = await e2e.postJson('/v1/embeddings', { model: 'text-embedding-3-small', input: 'hi', encoding_format: 'md5' });
    const error = expect400(answer, 'encoding_format');
    expect(error.message).toMatch(/float.*base64/);
    await expectFree(answer.requestId, 400);
  });

  it('a body that is not JSON → 400 in the same shape, free', async () => {
    const answer = await e2e.postJson('/v1/embeddings', '{"model": "text-embedding-3-small", "input": ');
    expect(answer.status).toBe(400);
    expect(errorOf(answer).type).toBe('invalid_request_error');
    await expectFree(answer.requestId, 400);
  });

  it.each(['/v1/audio/transcriptions', '/v1/audio/translations'])('%s without a file → 400 naming file, free', async (route) => {
    const answer = await e2e.postForm(route, formOf({ model: 'whisper-1' }));
    expect(expect400(answer, 'file').code).toBe('missing_required_parameter');
    await expectFree(answer.requestId, 400);
  });

  it('/v1/images/edits without an image → 400 naming image, free', async () => {
    const answer = await e2e.postForm('/v1/images/edits', formOf({ model: 'dall-e-2', prompt: 'a hat' }));
    expect(expect400(answer, 'image').code).toBe('missing_required_parameter');
    await expectFree(answer.requestId, 400);
  });

  it('a transcription whose temperature is not a number → 400 naming temperature, free', async () => {
    const answer = await e2e.postForm('/v1/audio/transcriptions', formOf({ model: 'whisper-1', temperature: 'hot' }, [['file', toneWav(0.5), 'a.wav', 'audio/wav']]));
    expect400(answer, 'temperature');
    await expectFree(answer.requestId, 400);
  });

  it.each([
    ['/v1/audio/transcriptions', { model: 'whisper-1', file: 'a.wav' }],
    ['/v1/audio/translations', { model: 'whisper-1', file: 'a.wav' }],
    ['/v1/images/edits', { model: 'dall-e-2', prompt: 'a hat', image: 'a.png' }],
  ])('JSON to the multipart route %s → 400, free', async (route, body) => {
    const answer = await e2e.postJson(route, body);
    expect(answer.status).toBe(400);
    expect(errorOf(answer)).toMatchObject({ type: 'invalid_request_error', code: 'invalid_content_type' });
    expect(errorOf(answer).message).toContain('multipart/form-data');
    await expectFree(answer.requestId, 400);
  });

  describe('uploads over the limit → 413 request_too_large, answered while the caller is still sending', () => {
    const expect413 = async (answer: { status: number; body: string; requestId: string }, limit: number) => {
      expect(answer.status).toBe(413);
      const error = errorOf({ status: answer.status, json: JSON.parse(answer.body) });
      expect(error).toMatchObject({ type: 'invalid_request_error', code: 'request_too_large' });
      expect(error.message).toContain(String(limit));
      await expectFree(answer.requestId, 413);
    };

    it('a declared Content-Length past the audio limit: refused before the body is read', async () => {
      const answer = await endlessUpload(e2e.url, '/v1/audio/transcriptions', e2e.token, { declaredLength: 50 * 1024 * 1024 });
      expect(answer.sent).toBeLessThan(50 * 1024 * 1024);
      await expect413(answer, MAX_UPLOAD_BYTES);
    });

    it('a chunked transcription upload: refused once it passes the audio limit, not at its end', async () => {
      const answer = await endlessUpload(e2e.url, '/v1/audio/transcriptions', e2e.token, {});
      expect(answer.sent).toBeGreaterThan(MAX_UPLOAD_BYTES);
      expect(answer.sent).toBeLessThan(16 * 1024 * 1024);
      await expect413(answer, MAX_UPLOAD_BYTES);
    });

    it('a chunked image edit: refused at the body limit (RELAY_MAX_BODY_BYTES), not the audio one', async () => {
      const answer = await endlessUpload(e2e.url, '/v1/images/edits', e2e.token, { fields: { model: 'dall-e-2', prompt: 'a hat' }, fileField: 'image' });
      expect(answer.sent).toBeLessThan(16 * 1024 * 1024);
      await expect413(answer, MAX_BODY_BYTES);
    });

    it('a refused upload leaves no spool file open (the relay runs in this process)', async () => {
      const spoolsOpen = () =>
        fs.readdirSync('/proc/self/fd').filter((fd) => {
          try {
            return fs.readlinkSync(`/proc/self/fd/${fd}`).includes('chat-relay-uploads');
          } catch {
            return false; // closed meanwhile
          }
        }).length;
      for (let i = 0; i < 10; i++) {
        expect((await endlessUpload(e2e.url, '/v1/audio/transcriptions', e2e.token, {})).status).toBe(413);
      }
      for (let waited = 0; spoolsOpen() > 0 && waited < 1_000; waited += 20) await new Promise((resolve) => setTimeout(resolve, 20));
      expect(spoolsOpen()).toBe(0);
    });

    it('the same sizes under each limit are relayed (and charged): the limits are per route', async () => {
      const wav = toneWav(1); // 48 KB: over the body limit, under the audio one
      expect(wav.length).toBeGreaterThan(MAX_BODY_BYTES);
      const transcription = await e2e.postForm('/v1/audio/transcriptions', formOf({ model: 'whisper-1' }, [['file', wav, 'a.wav', 'audio/wav']]));
      expect(transcription.status).toBe(200);
      expect(modelCalls(e2e.sim)[0]?.multipart?.files[0]?.size).toBe(wav.length);
      const edit = await e2e.postForm('/v1/images/edits', formOf({ model: 'dall-e-2', prompt: 'a hat' }, [['image', png, 'a.png', 'image/png']]));
      expect(edit.status).toBe(200);
      const rows = await usageRowsFor(e2e, [transcription.requestId, edit.requestId]);
      expect(rows.map((row) => row?.cost)).toEqual([100, 40_000]); // 1 s at 6,000 a minute; one image
      expect(await e2e.quotaUsed()).toBe(40_100);
    });
  });

  describe('a model served only for another endpoint → 404 model_not_found naming both, free', () => {
    it.each([
      ['dall-e-3', 'images (/v1/images)'],
      ['text-embedding-3-small', 'embeddings (/v1/embeddings)'],
      ['tts-1', 'audio_speech (/v1/audio/speech)'],
    ])('%s on /v1/chat/completions of a `*` channel', async (model, servedOn) => {
      const answer = await e2e.postJson('/v1/chat/completions', { model, messages: [{ role: 'user', content: 'hi' }] });
      expect(answer.status).toBe(404);
      const error = errorOf(answer);
      expect(error).toMatchObject({ code: 'model_not_found', param: 'model' });
      expect(error.message).toContain(`'${model}'`);
      expect(error.message).toContain('not served for chat');
      expect(error.message).toContain(servedOn);
      await expectFree(answer.requestId, 404);
    });

    it('whisper-1 on /v1/audio/speech names speech and transcriptions', async () => {
      const answer = await e2e.postJson('/v1/audio/speech', { model: 'whisper-1', input: 'hello', voice: 'alloy' });
      expect(answer.status).toBe(404);
      expect(errorOf(answer).message).toMatch(/not served for audio_speech \(\/v1\/audio\/speech\).*audio_transcriptions \(\/v1\/audio\/transcriptions\)/);
      await expectFree(answer.requestId, 404);
    });
  });
});

describe('e2e: a chat-only channel and the endpoints beside chat', () => {
  let e2e: EndpointsE2e;

  beforeAll(async () => {
    e2e = await startEndpointsRelay({ models: ['gpt-4o'], endpoints: ['chat'] });
    await e2e.setPrices(PRICES);
    await e2e.setQuota(LIMIT);
  });
  afterAll(() => e2e.close());

  it("gpt-4o on /v1/embeddings of a channel whose endpoints are ['chat'] → 404 naming embeddings and chat, free", async () => {
    const answer = await e2e.postJson('/v1/embeddings', { model: 'gpt-4o', input: 'hello' });
    expect(answer.status).toBe(404);
    const error = errorOf(answer);
    expect(error).toMatchObject({ code: 'model_not_found', param: 'model' });
    expect(error.message).toContain('embeddings (/v1/embeddings)');
    expect(error.message).toMatch(/served for chat/);
    const [row] = await usageRowsFor(e2e, [answer.requestId]);
    expect(row).toMatchObject({ status: 404, endpoint: 'embeddings', cost: 0, channelId: null, attempts: 0 });
    expect(await e2e.quotaUsed()).toBe(0);
    expect(e2e.openReservations()).toBe(0);
    expect(modelCalls(e2e.sim)).toEqual([]);
    // The channel itself works: the same model on chat reaches it.
    const chat = await e2e.postJson('/v1/chat/completions', { model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] });
    expect(chat.status).toBe(200);
    expect(modelCalls(e2e.sim).map((request) => request.path)).toEqual(['/v1/chat/completions']);
  });
});
