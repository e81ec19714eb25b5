import http from 'node:http';
import net from 'node:net';
import { gzipSync } from 'node:zlib';
import express, { type ErrorRequestHandler } from 'express';
import request from 'supertest';
import { createLogger } from '../logger';
import { listen } from '../../test/testing/test-relay';
import { errorHandler } from './error-handler';
import { jsonBody } from './json-body';

const LIMIT = 1024;

interface Echo {
  body: unknown;
  /** `res.locals.rawBody` as base64, or null when it was not set. */
  raw: string | null;
}

interface RawAnswer {
  status: number;
  json: unknown;
}

describe('jsonBody over HTTP', () => {
  let server: Awaited<ReturnType<typeof listen>>;
  let reached = 0;
  const seenErrors: unknown[] = [];

  beforeAll(async () => {
    const app = express();
    app.post('/echo', jsonBody(LIMIT), (req, res) => {
      reached += 1;
      res.json({ body: req.body, raw: res.locals.rawBody?.toString('base64') ?? null } satisfies Echo);
    });
    const recordError: ErrorRequestHandler = (error, _req, _res, next) => {
      seenErrors.push(error);
      next(error);
    };
    app.use(recordError, errorHandler(createLogger('silent')));
    server = await listen(app);
  });
  afterAll(() => server.close());
  beforeEach(() => {
    reached = 0;
    seenErrors.length = 0;
  });

  const expectError = (json: unknown, code: string) =>
    expect(json).toEqual({ error: { message: expect.any(String), type: 'invalid_request_error', param: null, code } });

  /** A POST over node:http: chunked or unfinished bodies, and raw bytes (superagent JSON-encodes Buffers). */
  const rawPost = (headers: http.OutgoingHttpHeaders, chunks: Buffer[], end = true) =>
    new Promise<RawAnswer>((resolve, reject) => {
      const req = http.request(`${server.url}/echo`, { method: 'POST', headers }, (res) => {
        let text = '';
        res.setEncoding('utf8').on('data', (piece: string) => (text += piece));
        res.on('end', () => {
          req.destroy();
          resolve({ status: res.statusCode ?? 0, json: JSON.parse(text) });
        });
      });
      // The server may answer and drop the connection while the body is still being sent.
      req.on('error', (error) => (req.destroyed ? undefined : reject(error)));
      req.flushHeaders();
      for (const chunk of chunks) req.write(chunk);
      if (end) req.end();
    });

  const post = (contentType: string, body: string | Buffer, headers: http.OutgoingHttpHeaders = {}) => {
    const bytes = Buffer.from(body);
    return rawPost({ 'content-type': contentType, 'content-length': bytes.length, ...headers }, [bytes]);
  };

  it.each(['application/json', 'application/json; charset=utf-8', 'Application/JSON;charset="UTF-8"'])(
    'parses %s and keeps the exact bytes as rawBody',
    async (contentType) => {
      const sent = Buffer.from('{ "model" :"m",\n  "messages":[{"role":"user","content":"h\\u00e9 ☃"}], "x_extra": 1 }\n');
      const answer = await post(contentType, sent);
      expect(answer.status).toBe(200);
      const echo = answer.json as Echo;
      expect(echo.body).toEqual({ model: 'm', messages: [{ role: 'user', content: 'hé ☃' }], x_extra: 1 });
      expect(Buffer.from(echo.raw ?? '', 'base64').equals(sent)).toBe(true);
    },
  );

  it('accepts a body that starts with a UTF-8 byte-order mark', async () => {
    const sent = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"a":"é"}')]);
    const answer = await post('application/json', sent);
    expect(answer.status).toBe(200);
    expect((answer.json as Echo).body).toEqual({ a: 'é' });
  });

  it('does not keep the byte-order mark in the bytes forwarded upstream', async () => {
    const answer = await post('application/json', Buffer.from('\ufeff{"a":1}'));
    expect(answer).toEqual({ status: 200, json: { body: { a: 1 }, raw: Buffer.from('{"a":1}').toString('base64') } });
  });

  it('gives {} for an empty chunked JSON body, as the fallback parser does', async () => {
    expect(await rawPost({ 'content-type': 'application/json' }, [])).toEqual({ status: 200, json: { body: {}, raw: null } });
  });

  it('400 invalid_json for a body declared gzip that does not inflate', async () => {
    const answer = await post('application/json', 'not gzip', { 'content-encoding': 'gzip' });
    expect(answer.status).toBe(400);
    expectError(answer.json, 'invalid_json');
  });

  it('parses a chunked body within the limit from several pieces', async () => {
    const pieces = [Buffer.from('{"a":'), Buffer.from('[1,'), Buffer.from('2]}')];
    const answer = await rawPost({ 'content-type': 'application/json' }, pieces);
    expect(answer.status).toBe(200);
    expect(answer.json).toEqual({ body: { a: [1, 2] }, raw: Buffer.concat(pieces).toString('base64') });
  });

  it('413 for a declared Content-Length over the limit, answered before any body byte is sent', async () => {
    const answer = await rawPost({ 'content-type': 'application/json', 'content-length': LIMIT * 1000 }, [], false);
    expect(answer.status).toBe(413);
    expectError(answer.json, 'request_too_large');
    expect(reached).toBe(0);
  });

  it('413 once a chunked body grows past the limit, without waiting for its end', async () => {
    const piece = Buffer.from(`"${'x'.repeat(598)}"`);
    const answer = await rawPost({ 'content-type': 'application/json' }, [piece, piece], false);
    expect(answer.status).toBe(413);
    expectError(answer.json, 'request_too_large');
    expect(reached).toBe(0);
  });

  it('400 invalid_json for malformed JSON', async () => {
    const answer = await post('application/json', '{"model": "m", "messages": [');
    expect(answer.status).toBe(400);
    expectError(answer.json, 'invalid_json');
  });

  it('400 invalid_json for a body that is not declared as JSON', async () => {
    const answer = await post('text/plain', '{"a":1}');
    expect(answer.status).toBe(400);
    expectError(answer.json, 'invalid_json');
    expect(reached).toBe(0);
  });

  it('415 unsupported_encoding for a charset other than UTF-8', async () => {
    const answer = await post('application/json; charset=latin1', '{"a":1}');
    expect(answer.status).toBe(415);
    expect(answer.json).toEqual({
      error: { message: expect.any(String), type: 'invalid_request_error', param: null, code: 'unsupported_encoding' },
    });
  });

  it('inflates a gzip body through the fallback parser, without a rawBody', async () => {
    const answer = await post('application/json', gzipSync('{"a":[1,2,3]}'), { 'content-encoding': 'gzip' });
    expect(answer).toEqual({ status: 200, json: { body: { a: [1, 2, 3] }, raw: null } });
  });

  it('parses a +json media type through the fallback parser', async () => {
    const answer = await post('application/vnd.foo+json', '{"b":true}');
    expect(answer).toEqual({ status: 200, json: { body: { b: true }, raw: null } });
  });

  it('413 from the fallback parser too', async () => {
    const answer = await post('application/vnd.foo+json', `"${'y'.repeat(LIMIT)}"`);
    expect(answer.status).toBe(413);
    expectError(answer.json, 'request_too_large');
  });

  it('gives {} when there is no body at all, whatever the content type', async () => {
    const bare = await request(server.url).post('/echo').expect(200);
    expect(bare.body).toEqual({ body: {}, raw: null });
    expect(await post('text/plain', '')).toEqual({ status: 200, json: { body: {}, raw: null } });
  });

  it('never reaches the handler when the client sends less than its Content-Length and hangs up', async () => {
    const socket = net.connect((server.server.address() as net.AddressInfo).port, '127.0.0.1');
    await new Promise<void>((resolve) => socket.once('connect', resolve));
    socket.on('error', () => undefined);
    socket.write('POST /echo HTTP/1.1\r\nHost: x\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n{"a":"1234');
    await new Promise((resolve) => setTimeout(resolve, 20));
    socket.destroy();
    for (let waited = 0; seenErrors.length === 0 && waited < 2000; waited += 10) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(seenErrors).toEqual([expect.objectContaining({ code: 'request_aborted' })]);
    expect(reached).toBe(0);
    const after = await post('application/json', '{"ok":true}');
    expect(after).toEqual({ status: 200, json: { body: { ok: true }, raw: Buffer.from('{"ok":true}').toString('base64') } });
  });
});
