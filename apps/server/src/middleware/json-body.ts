import express, { type Request, type RequestHandler, type Response } from 'express';
import { invalidRequest, requestTooLarge, RelayError } from '@chat-relay/wire';
import { readsMultipart, takesMultipartToo } from './multipart-body';
import { parseJsonBody } from './parse-json-body';
import { JsonContainerScanner } from '../validation/json-container-scanner';
import { nestingTooDeep, nestingTooDeepAt, unparsable } from '../validation/json-body-errors';
import { exceedsJsonDepth, pathBeyondDepth } from '../validation/json-depth';
import { scannedBody, type JsonBodyScan } from '../validation/scanned-body';
import { LARGE_JSON_BYTES } from '../core/take-turn';

const JSON_TYPES = ['application/json', 'application/*+json'];
/** `application/json`, optionally with `charset=utf-8`: the body every OpenAI client sends. */
const PLAIN_JSON = /^application\/json\s*(?:;\s*charset\s*=\s*"?utf-8"?\s*)?$/i;

declare module 'express-serve-static-core' {
  interface Locals {
    /** The request body exactly as received, when it came as plain UTF-8 JSON. */
    rawBody?: Buffer;
    /** A large JSON body read but not parsed yet: what its scan found (see parse-json-body.ts). */
    jsonScan?: JsonBodyScan;
    /** The body read (once), by whichever middleware needed it first. */
    bodyRead?: Promise<void>;
  }
}

/** Reads a request's body once; later calls answer the same promise. */
export type BodyReader = (req: Request, res: Response) => Promise<void>;

/**
 * Bodies up to `limitBytes`. Runs after authentication, so an unauthenticated caller cannot make
 * the relay read a large body. Reader failures become OpenAI-shaped errors.
 *
 * Plain uncompressed UTF-8 JSON — what clients send — is read straight off the socket, its bytes
 * kept in `res.locals.rawBody` so the relay can forward them untouched. A small one is parsed at
 * once; a large one (or one of unknown length) is scanned as it arrives — its top level split
 * into members, its nesting checked — and left for `parseJsonBody` to parse, so that the token
 * policy and the model's admission are decided before any of it is parsed. Anything else
 * (compressed, another charset, `+json` types) goes through `express.json()`; uploads to the
 * multipart reader.
 */
export function bodyReader(limitBytes: number, multipart?: RequestHandler): BodyReader {
  const parse = express.json({ limit: limitBytes, strict: false, type: JSON_TYPES });
  const read = (req: Request, res: Response): Promise<void> =>
    new Promise((resolve, reject) => {
      const done = (error?: unknown) => (error ? reject(error) : resolve());
      // Uploads (image edits, audio, a video's reference image) are multipart, streamed to disk: see multipart-body.ts.
      if (multipart && readsMultipart(req)) return multipart(req, res, done);
      const hasBody = req.headers['transfer-encoding'] !== undefined || (req.headers['content-length'] ?? '0') !== '0';
      if (!hasBody) {
        req.body = {};
        return done();
      }
      if (isPlainJson(req)) return readPlainJson(req, limitBytes, (error, read) => done(error ?? take(req, res, read)));
      if (!req.is(JSON_TYPES)) {
        const asked = multipart && takesMultipartToo(req) ? 'as JSON with Content-Type: application/json, or as multipart/form-data' : 'as JSON with Content-Type: application/json';
        return done(invalidRequest(`Send the request body ${asked}.`, null, 'invalid_json'));
      }
      parse(req, res, (error?: unknown) => {
        if (error) return done(mapBodyParserError(error, limitBytes));
        // The rare path (compressed, other charsets): a walk of the parsed value is cheap enough.
        const tooDeep = pathBeyondDepth(req.body);
        done(tooDeep ? nestingTooDeep(tooDeep) : undefined);
      });
    });
  return (req, res) => (res.locals.bodyRead ??= read(req, res));
}

/** The body reader as a middleware (for callers no token policy read it for). */
export const readBody =
  (reader: BodyReader): RequestHandler =>
  (req, res, next) =>
    void reader(req, res).then(() => next(), next);

/** Body reading and parsing in one, for a plain app (no tool limits, no token policy in between). */
export function jsonBody(limitBytes: number, multipart?: RequestHandler): RequestHandler {
  const read = readBody(bodyReader(limitBytes, multipart));
  const parse = parseJsonBody();
  return (req, res, next) => read(req, res, (error?: unknown) => (error ? next(error) : parse(req, res, next)));
}

/** A plain JSON body read whole: parsed now when small, else kept with its scan for later. */
function take(req: Request, res: Response, { raw, scan }: PlainJson): RelayError | undefined {
  // An empty body is no body, as express.json() has it.
  if (raw.length === 0) {
    req.body = {};
    return undefined;
  }
  // A byte-order mark is not JSON (body-parser accepted it; so do we), and is not forwarded.
  const json = raw[0] === 0xef && raw[1] === 0xbb && raw[2] === 0xbf ? raw.subarray(3) : raw;
  res.locals.rawBody = json;
  if (scan && json === raw && raw.length >= LARGE_JSON_BYTES) {
    const failure = scan.finish();
    if (failure) return failure.kind === 'too_deep' ? nestingTooDeepAt(failure.at) : unparsable();
    try {
      res.locals.jsonScan = scannedBody(raw, scan);
    } catch {
      // A key or the model that is no JSON string.
      return unparsable();
    }
    return undefined;
  }
  const parsed = parseJson(json);
  if (parsed instanceof RelayError) return parsed;
  req.body = parsed;
  return undefined;
}

function isPlainJson(req: Request): boolean {
  const encoding = req.headers['content-encoding'];
  return (encoding === undefined || encoding === 'identity') && PLAIN_JSON.test(req.headers['content-type'] ?? '');
}

interface PlainJson {
  raw: Buffer;
  /** Fed as the bytes came, for a body that may be large. */
  scan: JsonContainerScanner | undefined;
}

/** The whole body, or the error to answer with; never more than `limitBytes` held in memory. */
function readPlainJson(req: Request, limitBytes: number, done: (error: RelayError | undefined, read: PlainJson) => void): void {
  const declared = req.headers['content-length'] === undefined ? undefined : Number(req.headers['content-length']);
  if (declared !== undefined && declared > limitBytes) {
    req.resume();
    return done(requestTooLarge(limitBytes), { raw: EMPTY, scan: undefined });
  }
  // Scanned while it arrives — a few µs a chunk — when it may be large: parsing it comes later.
  let scan = declared === undefined || declared >= LARGE_JSON_BYTES ? new JsonContainerScanner() : undefined;
  // A large body of known length is copied into place as it comes: no 20 MB copy at its end.
  const whole = declared !== undefined && declared >= LARGE_JSON_BYTES ? Buffer.allocUnsafe(declared) : undefined;
  const chunks: Buffer[] = [];
  let received = 0;
  let finished = false;
  const finish = (error: RelayError | undefined, raw: Buffer = EMPTY) => {
    if (finished) return;
    finished = true;
    req.off('data', onData).off('end', onEnd).off('error', onAbort).off('aborted', onAbort);
    if (error) req.resume();
    done(error, { raw, scan });
  };
  const onData = (chunk: Buffer) => {
    // A body starting with a byte-order mark is parsed whole, as before (it is rare).
    if (received === 0 && chunk[0] === 0xef) scan = undefined;
    if (received + chunk.length > limitBytes) return finish(requestTooLarge(limitBytes));
    if (whole && received + chunk.length > whole.length) return finish(incomplete());
    if (whole) chunk.copy(whole, received);
    else chunks.push(chunk);
    received += chunk.length;
    if (scan) {
      scan.feed(chunk);
      // A string or number at the top is JSON too, only nothing to split: parsed whole, as a small body.
      if (scan.notContainer) scan = undefined;
      // Not JSON: no need to read the rest of it.
      else if (scan.failure?.kind === 'syntax') return finish(unparsable());
    }
  };
  const onEnd = () => {
    if (declared !== undefined && received !== declared) return finish(incomplete());
    finish(undefined, whole ?? (chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, received)));
  };
  const onAbort = () => finish(incomplete());
  req.on('data', onData).on('end', onEnd).on('error', onAbort).on('aborted', onAbort);
}

const EMPTY: Buffer = Buffer.alloc(0);

const incomplete = () => invalidRequest('The request body was not received completely.', null, 'request_aborted');

function parseJson(raw: Buffer): unknown {
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw.toString('utf8'));
  } catch {
    return unparsable();
  }
  // A linear byte scan first; only a body that is too deep is walked to name the place.
  if (exceedsJsonDepth(raw)) return nestingTooDeep(pathBeyondDepth(parsed) ?? []);
  return parsed;
}

function mapBodyParserError(error: unknown, limitBytes: number): RelayError | unknown {
  const type = (error as { type?: unknown } | null)?.type;
  switch (type) {
    case 'entity.too.large':
      return requestTooLarge(limitBytes);
    case 'entity.parse.failed':
      return unparsable();
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return new RelayError({
        status: 415,
        type: 'invalid_request_error',
        code: 'unsupported_encoding',
        message: 'The request body encoding or charset is not supported; send UTF-8 JSON.',
      });
    case 'request.aborted':
      return incomplete();
    default: {
      // A body that does not inflate (bad gzip) is the caller's error, not ours.
      const status = (error as { status?: unknown } | null)?.status;
      return typeof status === 'number' && status >= 400 && status < 500 ? unparsable() : error;
    }
  }
}
