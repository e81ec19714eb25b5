import express, { type Request, type RequestHandler } from 'express';
import { invalidRequest, requestTooLarge, RelayError } from '@chat-relay/wire';
import { readsMultipart, takesMultipartToo } from './multipart-body';
import { describeJsonPath, exceedsJsonDepth, MAX_JSON_DEPTH, pathBeyondDepth } from '../validation/json-depth';

const JSON_TYPES = ['application/json', 'application/*+json'];
/** `application/json`, optionally with `charset=utf-8`: the body every OpenAI client sends. */
const PLAIN_JSON = /^application\/json\s*(?:;\s*charset\s*=\s*"?utf-8"?\s*)?$/i;

declare module 'express-serve-static-core' {
  interface Locals {
    /** The request body exactly as received, when it came as plain UTF-8 JSON. */
    rawBody?: Buffer;
  }
}

/**
 * JSON bodies up to `limitBytes`. Runs after authentication, so an unauthenticated caller
 * cannot make the relay parse a large body. Parser failures become OpenAI-shaped errors.
 *
 * Plain uncompressed UTF-8 JSON — what clients send — is read straight off the socket and
 * parsed once, its bytes kept in `res.locals.rawBody` so the relay can forward them untouched;
 * anything else (compressed, another charset, `+json` types) goes through `express.json()`.
 */
export function jsonBody(limitBytes: number, multipart?: RequestHandler): RequestHandler {
  const parse = express.json({ limit: limitBytes, strict: false, type: JSON_TYPES });
  return (req, res, next) => {
    // Uploads (image edits, audio, a video's reference image) are multipart, streamed to disk: see multipart-body.ts.
    if (multipart && readsMultipart(req)) return multipart(req, res, next);
    const hasBody = req.headers['transfer-encoding'] !== undefined || (req.headers['content-length'] ?? '0') !== '0';
    if (!hasBody) {
      req.body = {};
      return next();
    }
    if (isPlainJson(req)) {
      return readPlainJson(req, limitBytes, (error, raw) => {
        if (error || !raw) return next(error);
        // An empty body is no body, as express.json() has it.
        if (raw.length === 0) {
          req.body = {};
          return next();
        }
        // A byte-order mark is not JSON (body-parser accepted it; so do we), and is not forwarded.
        const json = raw[0] === 0xef && raw[1] === 0xbb && raw[2] === 0xbf ? raw.subarray(3) : raw;
        const parsed = parseJson(json);
        if (parsed instanceof RelayError) return next(parsed);
        req.body = parsed;
        res.locals.rawBody = json;
        next();
      });
    }
    if (!req.is(JSON_TYPES)) {
      const asked = multipart && takesMultipartToo(req) ? 'as JSON with Content-Type: application/json, or as multipart/form-data' : 'as JSON with Content-Type: application/json';
      return next(invalidRequest(`Send the request body ${asked}.`, null, 'invalid_json'));
    }
    parse(req, res, (error?: unknown) => {
      if (error) return next(mapBodyParserError(error, limitBytes));
      // The rare path (compressed, other charsets): a walk of the parsed value is cheap enough.
      const tooDeep = pathBeyondDepth(req.body);
      next(tooDeep ? nestingTooDeep(tooDeep) : undefined);
    });
  };
}

function isPlainJson(req: Request): boolean {
  const encoding = req.headers['content-encoding'];
  return (encoding === undefined || encoding === 'identity') && PLAIN_JSON.test(req.headers['content-type'] ?? '');
}

/** The whole body, or the error to answer with; never more than `limitBytes` held in memory. */
function readPlainJson(req: Request, limitBytes: number, done: (error: RelayError | undefined, raw?: Buffer) => void): void {
  const declared = req.headers['content-length'] === undefined ? undefined : Number(req.headers['content-length']);
  if (declared !== undefined && declared > limitBytes) {
    req.resume();
    return done(requestTooLarge(limitBytes));
  }
  const chunks: Buffer[] = [];
  let received = 0;
  let finished = false;
  const finish = (error: RelayError | undefined, raw?: Buffer) => {
    if (finished) return;
    finished = true;
    req.off('data', onData).off('end', onEnd).off('error', onAbort).off('aborted', onAbort);
    if (error) req.resume();
    done(error, raw);
  };
  const onData = (chunk: Buffer) => {
    received += chunk.length;
    if (received > limitBytes) return finish(requestTooLarge(limitBytes));
    chunks.push(chunk);
  };
  const onEnd = () => {
    if (declared !== undefined && received !== declared) return finish(incomplete());
    finish(undefined, chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, received));
  };
  const onAbort = () => finish(incomplete());
  req.on('data', onData).on('end', onEnd).on('error', onAbort).on('aborted', onAbort);
}

const incomplete = () => invalidRequest('The request body was not received completely.', null, 'request_aborted');

const unparsable = () =>
  invalidRequest(
    'We could not parse the JSON body of your request. Send valid JSON with Content-Type: application/json.',
    null,
    'invalid_json',
  );

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

/** Deep nesting crashes the recursive code after the parse (issue 10, defect 2). */
function nestingTooDeep(path: ReadonlyArray<string | number>): RelayError {
  const where = describeJsonPath(path);
  return invalidRequest(
    `The JSON body is nested more than ${MAX_JSON_DEPTH} levels deep at ${where}; flatten it.`,
    where,
    'nesting_too_deep',
  );
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
