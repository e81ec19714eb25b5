import express, { type Request, type RequestHandler } from 'express';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { createLogger } from '../logger';
import { errorHandler } from './error-handler';

const LIMIT = 1024 * 1024;
/** The limit of `/small`, for uploads that pass it. */
const SMALL_LIMIT = 20_000;

/** What the route saw: the body validation gets, and the upload as received (files read back). */
interface Seen {
  body: Record<string, unknown>;
  /** Whether `req.body` is a plain object (nobody set its prototype). */
  plainPrototype: boolean;
  fields: Array<[string, string]>;
  files: Array<{ field: string; filename: string; contentType: string; size: number; ref: string; exists: boolean; base64: string }>;
}

interface Part {
  name: string;
  value: string | Buffer;
  filename?: string;
  contentType?: string;
}

const BOUNDARY = 'spec-boundary-7MA4YWxkTrZu0gW';

/** A multipart/form-data body as a browser or the OpenAI SDK sends it. */
const multipart = (parts: Part[]): Buffer =>
  Buffer.concat([
    ...parts.flatMap((part) => [
      Buffer.from(
        `--${BOUNDARY}\r\ncontent-disposition: form-data; name="${part.name}"` +
          (part.filename === undefined ? '' : `; filename="${part.filename}"`) +
          '\r\n' +
          (part.contentType ? `content-type: ${part.contentType}\r\n` : '') +
          '\r\n',
      ),
      Buffer.from(part.value),
      Buffer.from('\r\n'),
    ]),
    Buffer.from(`--${BOUNDARY}--\r\n`),
  ]);

/**
 * The middleware as the app mounts it: inside jsonBody, for a route ts-rest declared multipart.
 * Its uploads go under a temporary directory of this spec's own (os.tmpdir() pointed there
 * before the middleware loads), so what is left there can be counted.
 */
describe('multipartBody', () => {
  let server: { url: string; close(): Promise<void> };
  let tmp: string;
  let uploadRoot: string;
  let restoreTmpdir: () => void;

  beforeAll(async () => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'relay-multipart-unit-'));
    uploadRoot = path.join(tmp, 'chat-relay-uploads');
    const spy = jest.spyOn(os, 'tmpdir').mockReturnValue(tmp);
    restoreTmpdir = () => spy.mockRestore();
    const { jsonBody } = await import('./json-body');
    const { multipartBody } = await import('./multipart-body');
    const { listen } = await import('../../test/testing/test-relay');
    const app = express();
    const declaredMultipart: RequestHandler = (req, _res, next) => {
      (req as Request & { tsRestRoute?: { contentType?: string } }).tsRestRoute = { contentType: 'multipart/form-data' };
      next();
    };
    const echo: RequestHandler = (req, res) => {
      const upload = res.locals.upload;
      const seen: Seen = {
        body: req.body as Record<string, unknown>,
        plainPrototype: Object.getPrototypeOf(req.body) === Object.prototype,
        fields: (upload?.fields ?? []).map(([name, value]) => [name, value]),
        files: (upload?.files ?? []).map((file) => ({
          ...file,
          exists: fs.existsSync(file.ref),
          base64: fs.readFileSync(file.ref).toString('base64'),
        })),
      };
      res.json(seen);
    };
    const uploads = jsonBody(1024, multipartBody({ bodyBytes: (req) => (req.path === '/small' ? SMALL_LIMIT : LIMIT) }));
    app.post(['/upload', '/small'], declaredMultipart, uploads, echo);
    app.use(errorHandler(createLogger('silent')));
    server = await listen(app);
  });
  afterAll(async () => {
    await server.close();
    restoreTmpdir();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  const send = (body: Buffer, contentType = `multipart/form-data; boundary=${BOUNDARY}`) =>
    new Promise<{ status: number; json: unknown }>((resolve, reject) => {
      const req = http.request(`${server.url}/upload`, { method: 'POST', headers: { 'content-type': contentType, 'content-length': body.length } }, (res) => {
        let text = '';
        res.setEncoding('utf8').on('data', (piece: string) => (text += piece));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, json: JSON.parse(text) }));
      });
      req.on('error', reject);
      req.end(body);
    });
  const upload = async (parts: Part[]): Promise<Seen> => {
    const answer = await send(multipart(parts));
    expect(answer.status).toBe(200);
    return answer.json as Seen;
  };

  const until = async (condition: () => boolean, what: string) => {
    for (let waited = 0; !condition(); waited += 10) {
      if (waited > 2_000) throw new Error(`timed out waiting for ${what}`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  };

  it('gives validation `x[]` fields as arrays, even one of them, and keeps the raw fields in order', async () => {
    const seen = await upload([
      { name: 'model', value: 'whisper-1' },
      { name: 'timestamp_granularities[]', value: 'word' },
      { name: 'language', value: 'en' },
      { name: 'timestamp_granularities[]', value: 'segment' },
      { name: 'include[]', value: 'logprobs' },
    ]);
    expect(seen.body).toEqual({ model: 'whisper-1', timestamp_granularities: ['word', 'segment'], language: 'en', include: ['logprobs'] });
    expect(seen.plainPrototype).toBe(true);
    expect(seen.fields).toEqual([
      ['model', 'whisper-1'],
      ['timestamp_granularities[]', 'word'],
      ['language', 'en'],
      ['timestamp_granularities[]', 'segment'],
      ['include[]', 'logprobs'],
    ]);
  });

  it('makes a repeated plain name an array, and leaves a single one a string', async () => {
    const seen = await upload([
      { name: 'tag', value: 'a' },
      { name: 'tag', value: 'b' },
      { name: 'tag', value: 'c' },
      { name: 'prompt', value: 'a cat, "quoted"\r\nsecond line ☃' },
      { name: 'n', value: '2' },
    ]);
    expect(seen.body).toEqual({ tag: ['a', 'b', 'c'], prompt: 'a cat, "quoted"\r\nsecond line ☃', n: '2' });
  });

  it('shows a file field as {filename, content_type, size} and spools its bytes, unchanged, to disk', async () => {
    const audio = randomBytes(300_000);
    const seen = await upload([
      { name: 'model', value: 'whisper-1' },
      { name: 'file', value: audio, filename: 'speech.wav', contentType: 'audio/wav' },
    ]);
    expect(seen.body).toEqual({ model: 'whisper-1', file: { filename: 'speech.wav', content_type: 'audio/wav', size: audio.length } });
    expect(seen.files).toHaveLength(1);
    expect(seen.files[0]).toMatchObject({ field: 'file', filename: 'speech.wav', contentType: 'audio/wav', size: audio.length, exists: true });
    expect(Buffer.from(seen.files[0]?.base64 ?? '', 'base64').equals(audio)).toBe(true);
  });

  it('makes several files of one name (image[]) an array of them, a mask apart, in the order sent', async () => {
    const seen = await upload([
      { name: 'image[]', value: Buffer.from('one'), filename: 'a.png', contentType: 'image/png' },
      { name: 'image[]', value: Buffer.from('second'), filename: 'b.webp', contentType: 'image/webp' },
      { name: 'mask', value: Buffer.from('m'), filename: 'mask.png', contentType: 'image/png' },
      { name: 'prompt', value: 'p' },
    ]);
    expect(seen.body).toEqual({
      prompt: 'p',
      image: [
        { filename: 'a.png', content_type: 'image/png', size: 3 },
        { filename: 'b.webp', content_type: 'image/webp', size: 6 },
      ],
      mask: { filename: 'mask.png', content_type: 'image/png', size: 1 },
    });
    expect(seen.files.map((file) => [file.field, Buffer.from(file.base64, 'base64').toString()])).toEqual([
      ['image[]', 'one'],
      ['image[]', 'second'],
      ['mask', 'm'],
    ]);
  });

  it('an empty file is a file of size 0', async () => {
    const seen = await upload([{ name: 'file', value: Buffer.alloc(0), filename: 'empty.mp3', contentType: 'audio/mpeg' }]);
    expect(seen.body).toEqual({ file: { filename: 'empty.mp3', content_type: 'audio/mpeg', size: 0 } });
  });

  it('removes the spooled files once the response is over', async () => {
    const seen = await upload([
      { name: 'file', value: randomBytes(50_000), filename: 'a.wav', contentType: 'audio/wav' },
      { name: 'image', value: randomBytes(10), filename: 'b.png', contentType: 'image/png' },
    ]);
    const dirs = [...new Set(seen.files.map((file) => path.dirname(file.ref)))];
    expect(dirs).toHaveLength(1);
    expect(path.basename(path.dirname(dirs[0] ?? ''))).toBe('chat-relay-uploads');
    await until(() => dirs.every((dir) => !fs.existsSync(dir)), 'the upload directory to be removed');
    for (const file of seen.files) expect(fs.existsSync(file.ref)).toBe(false);
  });

  it('keeps each request’s files apart', async () => {
    const [first, second] = await Promise.all([
      upload([{ name: 'file', value: Buffer.from('first'), filename: 'same.wav', contentType: 'audio/wav' }]),
      upload([{ name: 'file', value: Buffer.from('second'), filename: 'same.wav', contentType: 'audio/wav' }]),
    ]);
    expect(first?.files[0]?.ref).not.toBe(second?.files[0]?.ref);
    expect(Buffer.from(first?.files[0]?.base64 ?? '', 'base64').toString()).toBe('first');
    expect(Buffer.from(second?.files[0]?.base64 ?? '', 'base64').toString()).toBe('second');
  });

  it('a field named __proto__ is an ordinary field: it never becomes the body’s prototype', async () => {
    const seen = await send(
      multipart([
        { name: 'model', value: 'whisper-1' },
        { name: '__proto__', value: Buffer.from('x'), filename: 'p.wav', contentType: 'audio/wav' },
      ]),
    );
    expect(seen.status).toBe(200);
    expect((seen.json as Seen).plainPrototype).toBe(true);
    expect((seen.json as Seen).body).toEqual({ model: 'whisper-1', ['__proto__']: { filename: 'p.wav', content_type: 'audio/wav', size: 1 } });
  });

  describe('an upload that fails leaves no file open and nothing on disk', () => {
    /** Open file descriptors of this process (sockets included: each request below closes its own). */
    const openFds = () => fs.readdirSync('/dev/fd').length;
    const spooled = () => (fs.existsSync(uploadRoot) ? fs.readdirSync(uploadRoot) : []);
    const fileHead = Buffer.from(`--${BOUNDARY}\r\ncontent-disposition: form-data; name="file"; filename="a.wav"\r\ncontent-type: audio/wav\r\n\r\n`);

    /** A POST on its own connection; resolves with the status, or 0 once `abandon` cut it. */
    const attempt = (route: string, headers: http.OutgoingHttpHeaders, pieces: Buffer[], options: { end: boolean; abandonWhen?: () => boolean }) =>
      new Promise<number>((resolve) => {
        const req = http.request(`${server.url}${route}`, { method: 'POST', agent: false, headers: { connection: 'close', ...headers } }, (res) => {
          res.resume();
          res.on('end', () => {
            req.destroy();
            resolve(res.statusCode ?? 0);
          });
        });
        req.on('error', () => undefined);
        req.on('close', () => resolve(0));
        req.flushHeaders();
        const write = (index: number) => {
          if (req.destroyed) return;
          const piece = pieces[index];
          if (piece) {
            req.write(piece);
            setTimeout(() => write(index + 1), 2);
          } else if (options.end) req.end();
          else if (options.abandonWhen) void until(options.abandonWhen, 'the upload to be spooled').then(() => req.destroy());
        };
        write(0);
      });

    const settled = async (before: number) => {
      await until(() => spooled().length === 0, 'the upload directories to be removed');
      await until(() => openFds() <= before, `open files back to ${before} (now ${openFds()})`);
    };

    it('over the limit (413)', async () => {
      await settled(openFds());
      const before = openFds();
      for (let round = 0; round < 5; round += 1) {
        const pieces = [fileHead, ...Array.from({ length: 6 }, () => Buffer.alloc(8 * 1024, 0x41))];
        expect(await attempt('/small', { 'content-type': `multipart/form-data; boundary=${BOUNDARY}`, 'transfer-encoding': 'chunked' }, pieces, { end: false })).toBe(413);
      }
      await settled(before);
    });

    it('cut short inside a file (400 invalid_multipart)', async () => {
      await settled(openFds());
      const before = openFds();
      const cut = Buffer.concat([fileHead, Buffer.alloc(5_000, 0x41)]);
      for (let round = 0; round < 5; round += 1) {
        expect(await attempt('/upload', { 'content-type': `multipart/form-data; boundary=${BOUNDARY}`, 'content-length': cut.length }, [cut], { end: true })).toBe(400);
      }
      await settled(before);
    });

    it('abandoned by its caller mid-file', async () => {
      await settled(openFds());
      const before = openFds();
      for (let round = 0; round < 5; round += 1) {
        const spooling = () => spooled().some((dir) => fs.readdirSync(path.join(uploadRoot, dir)).length > 0);
        const pieces = [fileHead, Buffer.alloc(10_000, 0x41)];
        expect(await attempt('/upload', { 'content-type': `multipart/form-data; boundary=${BOUNDARY}`, 'content-length': 100_000 }, pieces, { end: false, abandonWhen: spooling })).toBe(0);
      }
      await settled(before);
    });
  });
});
