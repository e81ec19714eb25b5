import type { RouteMetadata } from '@chat-relay/contract';
import express, { type RequestHandler } from 'express';
import request from 'supertest';
import { createLogger } from '../logger';
import { bearer, createToken } from '../../test/testing/system-api';
import { createTestRelay, listen, type TestRelay } from '../../test/testing/test-relay';
import { errorHandler } from './error-handler';
import { jsonBody } from './json-body';
import { multipartBody } from './multipart-body';

const JSON_LIMIT = 1024;
const UPLOAD_LIMIT = 16 * 1024;
const BOUNDARY = 'multipart-too-boundary-7Qx';
const MULTIPART = `multipart/form-data; boundary=${BOUNDARY}`;

const field = (name: string, value: string) => `--${BOUNDARY}\r\ncontent-disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
const file = (name: string, filename: string, bytes: number) =>
  Buffer.concat([
    Buffer.from(`--${BOUNDARY}\r\ncontent-disposition: form-data; name="${name}"; filename="${filename}"\r\ncontent-type: image/png\r\n\r\n`),
    Buffer.alloc(bytes, 0x50),
    Buffer.from('\r\n'),
  ]);
const multipart = (...parts: Array<string | Buffer>) => Buffer.concat([...parts.map((part) => (typeof part === 'string' ? Buffer.from(part) : part)), Buffer.from(`--${BOUNDARY}--\r\n`)]);

/** What ts-rest sets on a request it matched: the route, with its metadata and declared content type. */
const matched = (route: { metadata: RouteMetadata; contentType?: string }): RequestHandler => (req, _res, next) => {
  Object.assign(req, { tsRestRoute: { path: req.path, ...route } });
  next();
};

/**
 * Issue 17: a JSON route whose metadata says `multipartToo` (`POST /v1/videos`) reads its body by
 * the request's own type — multipart to the upload parser, JSON to the JSON path — while other
 * JSON routes keep refusing multipart.
 */
describe('multipartToo routes', () => {
  let server: Awaited<ReturnType<typeof listen>>;

  beforeAll(async () => {
    const app = express();
    const body = jsonBody(JSON_LIMIT, multipartBody({ bodyBytes: () => UPLOAD_LIMIT }));
    const echo: RequestHandler = (req, res) => {
      const upload = res.locals.upload;
      res.json({
        body: req.body as unknown,
        upload: upload ? { fields: upload.fields, files: upload.files.map(({ field: name, filename, size }) => ({ field: name, filename, size })) } : null,
        raw: res.locals.rawBody !== undefined,
      });
    };
    app.post('/both', matched({ metadata: { auth: 'token', multipartToo: true } }), body, echo);
    app.post('/json-only', matched({ metadata: { auth: 'token' } }), body, echo);
    app.post('/upload-only', matched({ metadata: { auth: 'token' }, contentType: 'multipart/form-data' }), body, echo);
    app.use(errorHandler(createLogger('silent')));
    server = await listen(app);
  });
  afterAll(() => server.close());

  const post = (path: string, contentType: string, payload: string | Buffer) => request(server.url).post(path).set('content-type', contentType).send(payload);

  it('takes JSON as JSON: the parsed body, its raw bytes kept, no upload', async () => {
    const answer = await post('/both', 'application/json', JSON.stringify({ prompt: 'a cat', seconds: '4' })).expect(200);
    expect(answer.body).toEqual({ body: { prompt: 'a cat', seconds: '4' }, upload: null, raw: true });
  });

  it('takes multipart as an upload: the fields (and each file as what arrived) for validation, the upload in res.locals', async () => {
    const payload = multipart(field('prompt', 'a cat'), field('seconds', '8'), file('input_reference', 'cat.png', 3000));
    const answer = await post('/both', MULTIPART, payload).expect(200);
    expect(answer.body).toEqual({
      body: { prompt: 'a cat', seconds: '8', input_reference: { filename: 'cat.png', content_type: 'image/png', size: 3000 } },
      upload: { fields: [['prompt', 'a cat'], ['seconds', '8']], files: [{ field: 'input_reference', filename: 'cat.png', size: 3000 }] },
      raw: false,
    });
  });

  it('holds multipart to the upload limit and JSON to the JSON limit', async () => {
    // Larger than the JSON limit, within the upload limit.
    await post('/both', MULTIPART, multipart(field('prompt', 'a cat'), file('input_reference', 'cat.png', 4 * JSON_LIMIT))).expect(200);
    const tooBig = await post('/both', MULTIPART, multipart(file('input_reference', 'cat.png', UPLOAD_LIMIT + 1))).expect(413);
    expect(tooBig.body.error.code).toBe('request_too_large');
    await post('/both', 'application/json', JSON.stringify({ prompt: 'x'.repeat(JSON_LIMIT) })).expect(413);
  });

  it('refuses other content types with the usual 400, saying both it takes', async () => {
    const plain = await post('/both', 'text/plain', 'a cat').expect(400);
    expect(plain.body.error).toEqual({
      message: 'Send the request body as JSON with Content-Type: application/json, or as multipart/form-data.',
      type: 'invalid_request_error',
      param: null,
      code: 'invalid_json',
    });
    // Multipart without its boundary goes to the upload parser, which answers as on the upload routes.
    const noBoundary = await post('/both', 'multipart/form-data', 'a cat').expect(400);
    expect(noBoundary.body.error.code).toBe('invalid_content_type');
  });

  it('leaves other routes as they were: a JSON route refuses multipart, an upload route refuses JSON', async () => {
    const payload = multipart(field('prompt', 'a cat'));
    const jsonOnly = await post('/json-only', MULTIPART, payload).expect(400);
    expect(jsonOnly.body.error).toMatchObject({ code: 'invalid_json', message: 'Send the request body as JSON with Content-Type: application/json.' });
    const uploadOnly = await post('/upload-only', 'application/json', '{"prompt":"a cat"}').expect(400);
    expect(uploadOnly.body.error.code).toBe('invalid_content_type');
  });
});

describe('POST /v1/videos reads JSON and multipart, uploads up to RELAY_MAX_UPLOAD_BYTES', () => {
  let relay: TestRelay;
  let key: string;

  beforeAll(async () => {
    relay = await createTestRelay({ maxBodyBytes: JSON_LIMIT, maxUploadBytes: UPLOAD_LIMIT });
    key = (await createToken(relay, { name: 'videos' })).key;
  });
  afterAll(() => relay.close());

  // A body the contract refuses shows its fields reached validation, whichever way they came.
  it('validates the fields of a JSON body and of a multipart one alike', async () => {
    const json = await request(relay.app).post('/v1/videos').set(bearer(key)).send({ prompt: 'a cat', seconds: '999' }).expect(400);
    expect(json.body.error).toMatchObject({ param: 'seconds', code: 'invalid_value' });

    const upload = multipart(field('prompt', 'a cat'), field('seconds', '999'), file('input_reference', 'cat.png', 4 * JSON_LIMIT));
    const parts = await request(relay.app).post('/v1/videos').set(bearer(key)).set('content-type', MULTIPART).send(upload).expect(400);
    expect(parts.body.error).toMatchObject({ param: 'seconds', code: 'invalid_value' });
    expect(parts.headers['x-request-id']).toBeTruthy();
  });

  it('refuses a multipart body past the upload limit (413) and a text body (400)', async () => {
    const tooBig = multipart(field('prompt', 'a cat'), file('input_reference', 'cat.png', UPLOAD_LIMIT));
    expect((await request(relay.app).post('/v1/videos').set(bearer(key)).set('content-type', MULTIPART).send(tooBig).expect(413)).body.error.code).toBe('request_too_large');
    const text = await request(relay.app).post('/v1/videos').set(bearer(key)).set('content-type', 'text/plain').send('a cat').expect(400);
    expect(text.body.error.code).toBe('invalid_json');
  });
});
