import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { Readable } from 'node:stream';
import type { MultipartBody } from '@chat-relay/wire';

export interface EncodedMultipart {
  contentType: string;
  /** Known in advance (the files' sizes are): upstreams that refuse chunked uploads take it. */
  contentLength: number;
  /** A fresh stream for each attempt: a retry reads the spooled files again. */
  open(): Readable;
}

/** A name or filename inside a quoted header parameter: no quotes or line breaks (RFC 7578 §4.2). */
const quoted = (value: string) => value.replace(/"/g, '%22').replace(/\r/g, '%0D').replace(/\n/g, '%0A');

/**
 * An upstream multipart body from a parsed upload (SPEC §7a): text fields as they came, then each
 * file's bytes read from where the relay spooled them, piece by piece — never the whole file in
 * memory.
 */
export function encodeMultipart(body: MultipartBody): EncodedMultipart {
  const boundary = `----chat-relay-${randomBytes(12).toString('hex')}`;
  const head: Buffer[] = body.fields.map(([name, value]) =>
    Buffer.from(`--${boundary}\r\ncontent-disposition: form-data; name="${quoted(name)}"\r\n\r\n${value}\r\n`),
  );
  const files = body.files.map(({ field, file }) => ({
    header: Buffer.from(
      `--${boundary}\r\ncontent-disposition: form-data; name="${quoted(field)}"; filename="${quoted(file.filename)}"\r\n` +
        `content-type: ${file.contentType.replace(/[\r\n]/g, '')}\r\n\r\n`,
    ),
    path: file.ref,
    size: file.size,
  }));
  const closing = Buffer.from(`--${boundary}--\r\n`);
  const crlf = Buffer.from('\r\n');
  const contentLength =
    head.reduce((sum, part) => sum + part.length, 0) +
    files.reduce((sum, file) => sum + file.header.length + file.size + crlf.length, 0) +
    closing.length;

  async function* parts(): AsyncGenerator<Buffer> {
    for (const part of head) yield part;
    for (const file of files) {
      yield file.header;
      for await (const piece of createReadStream(file.path)) yield piece as Buffer;
      yield crlf;
    }
    yield closing;
  }
  return { contentType: `multipart/form-data; boundary=${boundary}`, contentLength, open: () => Readable.from(parts(), { objectMode: false }) };
}
