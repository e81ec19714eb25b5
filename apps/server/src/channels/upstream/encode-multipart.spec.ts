import busboy from 'busboy';
import type { MultipartBody, UploadedFile } from '@chat-relay/wire';
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { encodeMultipart } from './encode-multipart';

interface Parsed {
  fields: Array<[string, string]>;
  files: Array<{ field: string; filename: string; mimeType: string; bytes: Buffer }>;
  /** Bytes the stream produced. */
  length: number;
}

/** Reads an encoded body the way an upstream would: busboy over the bytes as they stream. */
function parse(contentType: string, body: Readable): Promise<Parsed> {
  return new Promise((resolve, reject) => {
    const parsed: Parsed = { fields: [], files: [], length: 0 };
    // preservePath: the filename as sent, not cut after its last slash.
    const parser = busboy({ headers: { 'content-type': contentType }, preservePath: true, limits: { fileSize: Infinity } });
    parser.on('field', (name, value) => parsed.fields.push([name, value]));
    parser.on('file', (field, stream, info) => {
      const pieces: Buffer[] = [];
      stream.on('data', (piece: Buffer) => pieces.push(piece));
      stream.on('end', () => parsed.files.push({ field, filename: info.filename ?? '', mimeType: info.mimeType, bytes: Buffer.concat(pieces) }));
    });
    parser.on('error', reject);
    parser.on('close', () => resolve(parsed));
    body.on('data', (piece: Buffer) => (parsed.length += piece.length));
    body.on('error', reject);
    body.pipe(parser);
  });
}

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

describe('encodeMultipart', () => {
  let dir: string;
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'relay-encode-'));
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  const spooled = (field: string, filename: string, contentType: string, bytes: Buffer): { field: string; file: UploadedFile } => {
    const ref = path.join(dir, `${field}-${randomBytes(4).toString('hex')}`);
    fs.writeFileSync(ref, bytes);
    return { field, file: { field, filename, contentType, size: bytes.length, ref } };
  };

  it('sends the fields in order (repeated names kept), then each file byte for byte; 3 MB streamed, its length exact', async () => {
    const audio = randomBytes(3 * 1024 * 1024 + 17);
    const mask = randomBytes(1000);
    const body: MultipartBody = {
      kind: 'multipart',
      fields: [
        ['model', 'whisper-1'],
        ['timestamp_granularities[]', 'word'],
        ['timestamp_granularities[]', 'segment'],
        ['prompt', 'Line one\r\nline two, "quoted" — é ☃'],
        ['empty', ''],
      ],
      files: [spooled('file', 'speech.wav', 'audio/wav', audio), spooled('mask', 'mask.png', 'image/png', mask)],
    };
    const encoded = encodeMultipart(body);
    expect(encoded.contentType).toMatch(/^multipart\/form-data; boundary=\S+$/);

    const stream = encoded.open();
    let largestPiece = 0;
    stream.on('data', (piece: Buffer) => (largestPiece = Math.max(largestPiece, piece.length)));
    const parsed = await parse(encoded.contentType, stream);

    expect(parsed.fields).toEqual(body.fields);
    expect(parsed.files.map(({ field, filename, mimeType }) => ({ field, filename, mimeType }))).toEqual([
      { field: 'file', filename: 'speech.wav', mimeType: 'audio/wav' },
      { field: 'mask', filename: 'mask.png', mimeType: 'image/png' },
    ]);
    expect(parsed.files[0]?.bytes.length).toBe(audio.length);
    expect(sha256(parsed.files[0]?.bytes ?? Buffer.alloc(0))).toBe(sha256(audio));
    expect(parsed.files[1]?.bytes.equals(mask)).toBe(true);
    expect(parsed.length).toBe(encoded.contentLength);
    // Streamed: the file came in pieces, never whole.
    expect(largestPiece).toBeLessThan(audio.length);
  });

  it('escapes quotes, CR and LF in field names and filenames, and strips line breaks from a content type', async () => {
    const body: MultipartBody = {
      kind: 'multipart',
      fields: [['a"b\r\nc', 'value']],
      files: [spooled('image', 'x.png"\r\ncontent-type: text/html\r\n\r\nevil', 'image/png\r\nx-injected: 1', Buffer.from('PNG'))],
    };
    const encoded = encodeMultipart(body);
    const raw = await new Promise<string>((resolve, reject) => {
      let text = '';
      encoded.open().on('data', (piece: Buffer) => (text += piece.toString('latin1'))).on('end', () => resolve(text)).on('error', reject);
    });
    expect(raw).toContain('name="a%22b%0D%0Ac"');
    expect(raw).toContain('filename="x.png%22%0D%0Acontent-type: text/html%0D%0A%0D%0Aevil"');
    expect(raw).toContain('content-type: image/pngx-injected: 1\r\n');
    expect(raw).not.toMatch(/^x-injected/m);
    expect(raw).not.toMatch(/^content-type: text\/html/im);

    const parsed = await parse(encoded.contentType, encoded.open());
    expect(parsed.fields).toEqual([['a%22b%0D%0Ac', 'value']]);
    expect(parsed.files).toHaveLength(1);
    expect(parsed.files[0]).toMatchObject({ field: 'image', filename: 'x.png%22%0D%0Acontent-type: text/html%0D%0A%0D%0Aevil' });
    expect(parsed.files[0]?.bytes.toString()).toBe('PNG');
    expect(parsed.length).toBe(encoded.contentLength);
  });

  it('counts bytes, not characters, in its length (names and values outside ASCII)', async () => {
    const body: MultipartBody = {
      kind: 'multipart',
      fields: [['prompt', 'café ☃ 😀']],
      files: [spooled('image[]', 'ïmage ☃.png', 'image/png', randomBytes(10))],
    };
    const encoded = encodeMultipart(body);
    const parsed = await parse(encoded.contentType, encoded.open());
    expect(parsed.length).toBe(encoded.contentLength);
    expect(parsed.fields).toEqual([['prompt', 'café ☃ 😀']]);
  });

  it('open() twice gives two complete bodies, the files read again (a retry)', async () => {
    const bytes = randomBytes(200_000);
    const encoded = encodeMultipart({ kind: 'multipart', fields: [['model', 'gpt-image-1']], files: [spooled('image', 'a.png', 'image/png', bytes)] });
    const first = await parse(encoded.contentType, encoded.open());
    const second = await parse(encoded.contentType, encoded.open());
    for (const parsed of [first, second]) {
      expect(parsed.length).toBe(encoded.contentLength);
      expect(parsed.fields).toEqual([['model', 'gpt-image-1']]);
      expect(parsed.files[0]?.bytes.equals(bytes)).toBe(true);
    }
  });

  it('an empty file, and a body without files, are still well formed', async () => {
    const encoded = encodeMultipart({ kind: 'multipart', fields: [], files: [spooled('file', 'empty.wav', 'audio/wav', Buffer.alloc(0))] });
    const parsed = await parse(encoded.contentType, encoded.open());
    expect(parsed.files).toEqual([{ field: 'file', filename: 'empty.wav', mimeType: 'audio/wav', bytes: Buffer.alloc(0) }]);
    expect(parsed.length).toBe(encoded.contentLength);

    const fieldsOnly = encodeMultipart({ kind: 'multipart', fields: [['model', 'm']], files: [] });
    const onlyFields = await parse(fieldsOnly.contentType, fieldsOnly.open());
    expect(onlyFields).toEqual({ fields: [['model', 'm']], files: [], length: fieldsOnly.contentLength });
  });

  it('uses a boundary of its own for each body', () => {
    const body: MultipartBody = { kind: 'multipart', fields: [['a', 'b']], files: [] };
    expect(encodeMultipart(body).contentType).not.toBe(encodeMultipart(body).contentType);
  });
});
