import type busboy from 'busboy';
import type { Request, RequestHandler, Response } from 'express';
import { createWriteStream, mkdirSync, rmSync, type WriteStream } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { invalidRequest, requestTooLarge, RelayError, type MultipartRequest, type UploadedFile } from '@chat-relay/wire';
import { routeMetadata } from './route-metadata';

declare module 'express-serve-static-core' {
  interface Locals {
    /** A multipart request as received: its fields in order, and its files spooled to disk. */
    upload?: MultipartRequest;
  }
}

/** Whether ts-rest matched a route declared `multipart/form-data`. */
export const isMultipartRoute = (req: Request): boolean =>
  (req as Request & { tsRestRoute?: { contentType?: string } }).tsRestRoute?.contentType === 'multipart/form-data';

/** A JSON route that takes the same fields as multipart too (`multipartToo`, `POST /v1/videos`). */
export const takesMultipartToo = (req: Request): boolean => routeMetadata(req)?.multipartToo === true;

/** The request says it is multipart/form-data (with or without its boundary: the parser says what is missing). */
const MULTIPART_TYPE = /^\s*multipart\/form-data\s*(?:;|$)/i;

/**
 * Whether the body goes to the multipart parser: always on a multipart route (which refuses any
 * other type), and on a `multipartToo` route when the request is multipart — else that route's
 * body is read as JSON.
 */
export const readsMultipart = (req: Request): boolean =>
  isMultipartRoute(req) || (takesMultipartToo(req) && MULTIPART_TYPE.test(req.headers['content-type'] ?? ''));

/** The route's limit: audio uploads may be larger than JSON bodies. */
export interface UploadLimits {
  /** Bytes of the whole body. */
  bodyBytes(req: Request): number;
}

const MAX_FIELDS = 200;
const MAX_FIELD_BYTES = 1024 * 1024;
const MAX_FILES = 20;

const uploadRoot = path.join(os.tmpdir(), 'chat-relay-uploads');

let loadedBusboy: typeof busboy | undefined;

/** busboy, required at the first upload rather than imported: most relays never take one. */
function multipartParser(): typeof busboy {
  loadedBusboy ??= require('busboy') as typeof busboy;
  return loadedBusboy;
}

/**
 * A multipart body, streamed (SPEC §7a): each file goes to a temporary file as it arrives — never
 * held whole in memory — and is removed when the response closes; text fields are kept. What
 * validation sees (`req.body`) is the fields by name (`x[]` and repeated names as arrays) and,
 * for each file field, `{filename, content_type, size}`. Bytes past the limit end the upload
 * with a 413 at once.
 */
export function multipartBody(limits: UploadLimits): RequestHandler {
  return (req, res, next) => {
    const limit = limits.bodyBytes(req);
    const declared = req.headers['content-length'] === undefined ? undefined : Number(req.headers['content-length']);
    if (declared !== undefined && declared > limit) {
      req.resume();
      return next(requestTooLarge(limit));
    }
    if (!/^multipart\/form-data\s*;/i.test(req.headers['content-type'] ?? '')) {
      req.resume();
      return next(invalidRequest('Send this request as multipart/form-data, with the file in a form field.', null, 'invalid_content_type'));
    }
    void receive(req, res, limit).then(
      (upload) => {
        res.locals.upload = upload;
        req.body = bodyForValidation(upload);
        next();
      },
      (error: unknown) => next(error),
    );
  };
}

async function receive(req: Request, res: Response, limit: number): Promise<MultipartRequest> {
  mkdirSync(uploadRoot, { recursive: true, mode: 0o700 });
  const dir = await mkdtemp(path.join(uploadRoot, 'u-'));
  // Removed once the answer is over, whatever happened (the upstream has read the files by then).
  const cleanup = () => rmSync(dir, { recursive: true, force: true });
  if (res.writableFinished || res.destroyed) cleanup();
  else res.once('close', cleanup);

  return new Promise<MultipartRequest>((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = multipartParser()({
        headers: req.headers,
        limits: { fields: MAX_FIELDS, fieldSize: MAX_FIELD_BYTES, files: MAX_FILES, parts: MAX_FIELDS + MAX_FILES },
      });
    } catch {
      req.resume();
      return reject(invalidRequest('The multipart body has no boundary; send it as multipart/form-data.', null, 'invalid_multipart'));
    }
    const fields: Array<readonly [string, string]> = [];
    const files: UploadedFile[] = [];
    const writing: Array<Promise<void>> = [];
    const outs: WriteStream[] = [];
    let received = 0;
    let failed: RelayError | undefined;
    const fail = (error: RelayError) => {
      if (failed) return;
      failed = error;
      req.unpipe(parser);
      req.resume();
      // The parser hears no more: files being written would never end, their descriptors held
      // (and the bytes of the unlinked files with them) until the process exits.
      for (const out of outs) out.destroy();
      reject(error);
    };
    req.on('data', (chunk: Buffer) => {
      received += chunk.length;
      if (received > limit) fail(requestTooLarge(limit));
    });
    req.on('aborted', () => fail(invalidRequest('The request body was not received completely.', null, 'request_aborted')));

    parser.on('field', (name, value, info) => {
      if (info.nameTruncated || info.valueTruncated) return fail(invalidRequest(`The form field '${name}' is longer than ${MAX_FIELD_BYTES} bytes.`, name, 'field_too_long'));
      fields.push([name, value]);
    });
    parser.on('file', (name, stream, info) => {
      if (failed) {
        stream.resume(); // the upload is refused: its bytes are only drained
        return;
      }
      const file: UploadedFile = {
        field: name,
        filename: info.filename ?? 'file',
        contentType: info.mimeType || 'application/octet-stream',
        size: 0,
        ref: path.join(dir, `f${files.length}`),
      };
      files.push(file);
      const out = createWriteStream(file.ref, { mode: 0o600 });
      outs.push(out);
      stream.on('data', (chunk: Buffer) => (file.size += chunk.length));
      const written = new Promise<void>((done, broke) => {
        out.on('finish', done);
        out.on('error', broke);
        stream.on('error', broke);
      });
      // Awaited only when the whole upload arrived; after a failure nobody waits for it.
      written.catch(() => undefined);
      writing.push(written);
      stream.pipe(out);
    });
    const tooMany = (what: string) => fail(invalidRequest(`The multipart body has too many ${what}.`, null, 'too_many_parts'));
    parser.on('partsLimit', () => tooMany('parts'));
    parser.on('filesLimit', () => tooMany('files'));
    parser.on('fieldsLimit', () => tooMany('fields'));
    parser.on('error', () => fail(invalidRequest('The multipart body could not be read; send valid multipart/form-data.', null, 'invalid_multipart')));
    parser.on('close', () => {
      if (failed) return;
      Promise.all(writing).then(
        () => resolve({ fields, files }),
        (error: unknown) => reject(error),
      );
    });
    req.pipe(parser);
  });
}

/** `x[]` and repeated names become arrays; file fields show what arrived, not the bytes. */
function bodyForValidation(upload: MultipartRequest): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  const add = (rawName: string, value: unknown) => {
    const isArray = rawName.endsWith('[]');
    const name = isArray ? rawName.slice(0, -2) : rawName;
    const existing = Object.prototype.hasOwnProperty.call(body, name) ? body[name] : undefined;
    const next = existing === undefined ? (isArray ? [value] : value) : Array.isArray(existing) ? [...(existing as unknown[]), value] : [existing, value];
    // Defined, not assigned: a field named `__proto__` is a field, not the body's prototype.
    Object.defineProperty(body, name, { value: next, enumerable: true, writable: true, configurable: true });
  };
  for (const [name, value] of upload.fields) add(name, value);
  for (const file of upload.files) add(file.field, { filename: file.filename, content_type: file.contentType, size: file.size });
  return body;
}
