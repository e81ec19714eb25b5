import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { TestRelay } from '../../test/testing/test-relay';

const UPLOAD_LIMIT = 64 * 1024;
const BODY_LIMIT = 8 * 1024;
const BOUNDARY = 'relay-spec-boundary-x8Qz';
const MULTIPART = `multipart/form-data; boundary=${BOUNDARY}`;

interface Answer {
  status: number;
  json: { error?: { message: string; type: string; code: string | null; param: string | null } };
}

const field = (name: string, value: string) => Buffer.from(`--${BOUNDARY}\r\ncontent-disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`);
const fileHead = (name: string, filename: string, contentType: string) =>
  Buffer.from(`--${BOUNDARY}\r\ncontent-disposition: form-data; name="${name}"; filename="${filename}"\r\ncontent-type: ${contentType}\r\n\r\n`);
const closing = Buffer.from(`\r\n--${BOUNDARY}--\r\n`);
/** A whole transcription upload with `size` bytes of audio. */
const transcription = (size: number, extra: Buffer[] = []) =>
  Buffer.concat([field('model', 'whisper-1'), ...extra, fileHead('file', 'speech.wav', 'audio/wav'), Buffer.alloc(size, 0x41), closing]);
const imageEdit = (size: number) =>
  Buffer.concat([field('model', 'gpt-image-1'), field('prompt', 'a hat'), fileHead('image', 'cat.png', 'image/png'), Buffer.alloc(size, 0x42), closing]);

/**
 * The upload middleware in the real relay, in front of `/v1/audio/transcriptions` and
 * `/v1/images/edits`: what it answers itself, before any handler. Uploads are spooled under
 * a temporary directory of this spec's own (os.tmpdir() pointed there before the relay loads),
 * so its directory entries can be counted while other processes upload elsewhere.
 */
describe('multipart uploads through the relay', () => {
  let tmp: string;
  let uploadRoot: string;
  let relay: TestRelay;
  let server: { url: string; close(): Promise<void> };
  let key: string;
  let restoreTmpdir: () => void;

  beforeAll(async () => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'relay-multipart-spec-'));
    uploadRoot = path.join(tmp, 'chat-relay-uploads');
    const spy = jest.spyOn(os, 'tmpdir').mockReturnValue(tmp);
    restoreTmpdir = () => spy.mockRestore();
    // Loaded only now, so the middleware's upload directory is under `tmp`.
    const { createTestRelay, listen } = await import('../../test/testing/test-relay');
    const { createToken } = await import('../../test/testing/system-api');
    relay = await createTestRelay({ maxBodyBytes: BODY_LIMIT, maxUploadBytes: UPLOAD_LIMIT });
    key = (await createToken(relay, { name: 'uploads' })).key;
    server = await listen(relay.app);
    // The relay's whole module graph is imported afresh here: on a loaded 2-core CI machine that
    // took longer than Jest's 5 s for a hook.
  }, 30_000);
  afterAll(async () => {
    await server.close();
    await relay.close();
    restoreTmpdir();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  const spooled = () => (fs.existsSync(uploadRoot) ? fs.readdirSync(uploadRoot) : []);
  const until = async (condition: () => boolean, what: string) => {
    for (let waited = 0; !condition(); waited += 10) {
      if (waited > 3_000) throw new Error(`timed out waiting for ${what}`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  };

  interface Sending {
    /** Resolves with the answer, whether or not the body was finished. */
    answer: Promise<Answer>;
    write(piece: Buffer): void;
    end(): void;
  }

  /** A POST over node:http: the body written piece by piece, ended only when the test says. */
  const start = (route: string, headers: http.OutgoingHttpHeaders, auth = true): Sending => {
    let req: http.ClientRequest | undefined;
    const answer = new Promise<Answer>((resolve, reject) => {
      req = http.request(`${server.url}${route}`, { method: 'POST', headers: { ...(auth ? { authorization: `Bearer ${key}` } : {}), ...headers } }, (res) => {
        let text = '';
        res.setEncoding('utf8').on('data', (piece: string) => (text += piece));
        res.on('end', () => {
          req?.destroy();
          resolve({ status: res.statusCode ?? 0, json: JSON.parse(text) as Answer['json'] });
        });
      });
      // The relay may answer and drop the connection while the body is still being sent.
      req.on('error', (error) => (req?.destroyed ? undefined : reject(error)));
      req.flushHeaders();
    });
    return {
      answer,
      write: (piece) => req?.write(piece),
      end: () => req?.end(),
    };
  };
  const post = (route: string, body: Buffer, contentType = MULTIPART, auth = true) => {
    const sending = start(route, { 'content-type': contentType, 'content-length': body.length }, auth);
    sending.write(body);
    sending.end();
    return sending.answer;
  };
  /** Past the middleware, the route answers for itself: not served yet, or no channel serves the model. */
  const expectPastTheMiddleware = (answer: Answer) => {
    expect(answer.status).toBe(404);
    expect(answer.json.error?.code).not.toBe('request_too_large');
  };

  it('401 for a missing key before any of the body is read', async () => {
    const sending = start('/v1/audio/transcriptions', { 'content-type': MULTIPART, 'content-length': 1_000_000 }, false);
    sending.write(transcription(100).subarray(0, 50));
    const answer = await sending.answer;
    expect(answer.status).toBe(401);
    expect(answer.json.error?.type).toBe('authentication_error');
    expect(spooled()).toEqual([]);
  });

  it('413 request_too_large for a declared Content-Length over RELAY_MAX_UPLOAD_BYTES, without reading the body', async () => {
    const sending = start('/v1/audio/transcriptions', { 'content-type': MULTIPART, 'content-length': UPLOAD_LIMIT + 1 });
    const answer = await sending.answer;
    expect(answer).toEqual({
      status: 413,
      json: { error: { message: `The request body is larger than the limit of ${UPLOAD_LIMIT} bytes.`, type: 'invalid_request_error', param: null, code: 'request_too_large' } },
    });
  });

  it('413 once a chunked upload grows past the limit: answered while the body is still coming', async () => {
    const sending = start('/v1/audio/transcriptions', { 'content-type': MULTIPART, 'transfer-encoding': 'chunked' });
    sending.write(Buffer.concat([field('model', 'whisper-1'), fileHead('file', 'long.wav', 'audio/wav')]));
    for (let sent = 0; sent <= UPLOAD_LIMIT; sent += 16 * 1024) sending.write(Buffer.alloc(16 * 1024, 0x41));
    // Never ended: the relay answers anyway.
    const answer = await sending.answer;
    expect(answer.status).toBe(413);
    expect(answer.json.error).toMatchObject({ code: 'request_too_large', message: expect.stringContaining(`${UPLOAD_LIMIT} bytes`) });
    await until(() => spooled().length === 0, 'the partial upload to be removed');
  });

  it('takes audio up to RELAY_MAX_UPLOAD_BYTES, image edits only up to the body limit', async () => {
    const audio = transcription(BODY_LIMIT * 2);
    expect(audio.length).toBeGreaterThan(BODY_LIMIT);
    expectPastTheMiddleware(await post('/v1/audio/transcriptions', audio));
    expectPastTheMiddleware(await post('/v1/audio/translations', audio));

    const edit = imageEdit(BODY_LIMIT * 2);
    const refused = await post('/v1/images/edits', edit);
    expect(refused.status).toBe(413);
    expect(refused.json.error?.message).toBe(`The request body is larger than the limit of ${BODY_LIMIT} bytes.`);
    expectPastTheMiddleware(await post('/v1/images/edits', imageEdit(BODY_LIMIT / 2)));
  });

  it('413 for a chunked image edit past the body limit, though audio could be that large', async () => {
    const sending = start('/v1/images/edits', { 'content-type': MULTIPART, 'transfer-encoding': 'chunked' });
    sending.write(imageEdit(BODY_LIMIT + 1));
    const answer = await sending.answer;
    expect(answer.status).toBe(413);
    expect(answer.json.error?.message).toContain(`${BODY_LIMIT} bytes`);
  });

  it.each(['/v1/audio/transcriptions', '/v1/images/edits'])('400 invalid_content_type for JSON sent to %s', async (route) => {
    const answer = await post(route, Buffer.from(JSON.stringify({ model: 'whisper-1', prompt: 'x', file: 'c3BlZWNo' })), 'application/json');
    expect(answer.status).toBe(400);
    expect(answer.json.error).toMatchObject({ type: 'invalid_request_error', code: 'invalid_content_type', message: expect.stringContaining('multipart/form-data') });
  });

  it('400 invalid_multipart for a body cut short, or a multipart type without a boundary', async () => {
    const cut = transcription(1_000).subarray(0, 400);
    const truncated = await post('/v1/audio/transcriptions', cut);
    expect(truncated.status).toBe(400);
    expect(truncated.json.error?.code).toBe('invalid_multipart');

    const noBoundary = await post('/v1/audio/transcriptions', transcription(10), 'multipart/form-data; charset=utf-8');
    expect(noBoundary.status).toBe(400);
    expect(noBoundary.json.error?.code).toBe('invalid_multipart');
    await until(() => spooled().length === 0, 'the broken uploads to be removed');
  });

  it('validation reads the fields as the middleware shaped them (timestamp_granularities[] as a list)', async () => {
    const word = await post('/v1/audio/transcriptions', transcription(10, [field('timestamp_granularities[]', 'word'), field('timestamp_granularities[]', 'segment')]));
    expectPastTheMiddleware(word);
    const wrong = await post('/v1/audio/transcriptions', transcription(10, [field('timestamp_granularities[]', 'minute')]));
    expect(wrong.status).toBe(400);
    expect(wrong.json.error?.param).toMatch(/^timestamp_granularities/);
    const noFile = await post('/v1/audio/transcriptions', Buffer.concat([field('model', 'whisper-1'), Buffer.from(`--${BOUNDARY}--\r\n`)]));
    expect(noFile.status).toBe(400);
    expect(noFile.json.error).toMatchObject({ param: 'file', code: 'missing_required_parameter' });
  });

  it('spools the file while it arrives, and removes it once the response is over', async () => {
    await until(() => spooled().length === 0, 'earlier uploads to be removed');
    const before = spooled().length;
    const body = transcription(40 * 1024);
    const sending = start('/v1/audio/transcriptions', { 'content-type': MULTIPART, 'content-length': body.length });
    sending.write(body.subarray(0, 20 * 1024));
    // Half the file in: it is on disk already, in a directory of its own.
    await until(() => spooled().length === before + 1, 'the upload directory');
    const [dir] = spooled();
    await until(() => fs.readdirSync(path.join(uploadRoot, dir ?? '')).length === 1, 'the spooled file');
    sending.write(body.subarray(20 * 1024));
    sending.end();
    expectPastTheMiddleware(await sending.answer);
    await until(() => spooled().length === before, 'the upload to be removed');
  });
});
