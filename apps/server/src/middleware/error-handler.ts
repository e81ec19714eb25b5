import type { SunoErrorResponse } from '@chat-relay/contract';
import type { ErrorRequestHandler, RequestHandler } from 'express';
import { STATUS_CODES, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { internalError, invalidRequest, notFound, RelayError, toAnthropicError, toGeminiError } from '@chat-relay/wire';
import { errorDialectOf, type ErrorDialect } from './error-dialect';
import { throttledWarn } from '../core/throttled-log';
import type { Logger } from '../logger';
import { isStoreFault } from '../storage/store-faults';

/** A path that does not decode is a 400 before anything else is said about it (auth, 404). */
export const undecodablePath: RequestHandler = (req, _res, next) => {
  next(decodable(req.path) ? undefined : badPercentEncoding());
};

/** Unknown routes answer like OpenAI does, in the §9 shape. */
export const unknownRoute: RequestHandler = (req, _res, next) => {
  if (!decodable(req.path)) return next(badPercentEncoding());
  next(notFound('unknown_url', `Unknown request URL: ${req.method} ${req.path}.`));
};

/** `%ff`, `%zz`, a lone `%`: Express throws a URIError decoding such a path parameter. */
const badPercentEncoding = () =>
  invalidRequest('The request URL has invalid percent-encoding; encode its path as UTF-8.', null, 'invalid_url');

function decodable(path: string): boolean {
  try {
    decodeURIComponent(path);
    return true;
  } catch {
    return false;
  }
}

/** How long a caller is asked to wait when the database cannot answer. */
export const STORE_RETRY_AFTER_SECONDS = 2;

/** SPEC §9: the database (or Redis) cannot answer; nothing was half-written. */
export function storeUnavailable(): RelayError {
  return new RelayError({
    status: 503,
    type: 'service_unavailable',
    code: 'store_unavailable',
    message: 'The relay cannot reach its database right now. Please retry shortly.',
    headers: { 'retry-after': String(STORE_RETRY_AFTER_SECONDS) },
  });
}

/**
 * The Bedrock Runtime error an error is told as, in `x-amzn-errortype` as the AWS SDKs read it
 * (https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_InvokeModel.html#API_runtime_InvokeModel_Errors).
 */
function bedrockErrorType(error: RelayError): string {
  switch (error.status) {
    case 401:
    case 403:
      return 'AccessDeniedException';
    case 404:
      return 'ResourceNotFoundException';
    case 408:
    case 504:
      return 'ModelTimeoutException';
    case 429:
      return 'ThrottlingException';
    case 503:
    case 529:
      return 'ServiceUnavailableException';
    case 500:
      return 'InternalServerException';
    default:
      return error.status < 500 ? 'ValidationException' : 'ModelErrorException';
  }
}

/** The one place that writes error responses (SPEC §9). */
export function errorHandler(logger: Logger): ErrorRequestHandler {
  // An outage fails every request alike: one line per interval with a count, not a stack each.
  const warnStoreFault = throttledWarn(logger);
  return (thrown: unknown, req, res, _next) => {
    // Express's own decoding of path parameters fails with a URIError: the caller's mistake.
    const error = thrown instanceof URIError ? badPercentEncoding() : thrown;
    const storeFault = !(error instanceof RelayError) && isStoreFault(error);
    const relayError = error instanceof RelayError ? error : storeFault ? storeUnavailable() : internalError();
    if (storeFault) {
      warnStoreFault('store', error, 'database unavailable: requests answered 503 store_unavailable');
    } else if (!(error instanceof RelayError)) {
      logger.error({ err: error, requestId: res.locals.requestId, path: req.path }, 'unhandled error');
    }
    // Already answered by someone else (a 503 on shutdown): nothing more to say.
    if (res.writableEnded) return;
    const trace = res.locals.trace;
    if (trace) {
      trace.errorCode = relayError.code ?? relayError.type;
      // A relayed request refused by the relay itself gets a usage row: the log names why (issue 29).
      // The caller's errors only: the relay's own 5xx (a store outage) are said once per interval, never once per request.
      if (trace.attempts === 0 && res.locals.caller !== undefined && relayError.status < 500) {
        const { status, code, param, message } = relayError;
        logger.info({ requestId: res.locals.requestId, path: req.path, status, code, param, message }, 'request refused before any upstream attempt');
      }
    }
    if (res.headersSent) {
      res.destroy();
      return;
    }
    writeJsonError(res, relayError, errorDialectOf(req), res.locals.requestId);
  };
}

/** new-api's TaskError as its Suno routes write it: the relay's code (else its type), the message, no data. */
export const toSunoError = (error: RelayError): SunoErrorResponse => ({ code: error.code ?? error.type, message: error.message, data: null });

/**
 * An error answer on a response nothing was sent on yet, in the caller's dialect: OpenAI's
 * `{"error":{…}}` (SPEC §9), Anthropic's `{"type":"error","error":{…}}` with its status, type
 * and `request-id` header, Google's `{"error":{code,message,status}}`, or new-api's task error
 * `{"code","message","data":null}` on the Suno-style routes (with the relay's status).
 */
export function writeJsonError(res: ServerResponse, error: RelayError, dialect: ErrorDialect = 'openai', requestId?: string): void {
  let body: string;
  if (dialect === 'anthropic') {
    const answer = toAnthropicError(error, requestId);
    body = JSON.stringify(answer.body);
    res.statusCode = answer.status;
    if (requestId) res.setHeader('request-id', requestId);
  } else if (dialect === 'gemini') {
    const answer = toGeminiError(error);
    body = JSON.stringify(answer.body);
    res.statusCode = answer.status;
  } else if (dialect === 'suno') {
    body = JSON.stringify(toSunoError(error));
    res.statusCode = error.status;
  } else if (dialect === 'bedrock') {
    body = JSON.stringify({ message: error.message });
    res.statusCode = error.status;
    res.setHeader('x-amzn-errortype', bedrockErrorType(error));
  } else {
    body = JSON.stringify(error.toBody());
    res.statusCode = error.status;
  }
  for (const [name, value] of Object.entries(error.headers)) res.setHeader(name, value);
  res.setHeader('content-type', 'application/json; charset=utf-8');
  res.setHeader('content-length', Buffer.byteLength(body));
  res.end(body);
}

/**
 * The same error body for what Node's HTTP parser refuses before Express sees a request
 * (`clientError`): a bare HTTP/1.1 answer on the socket, then the socket closed.
 */
export function writeSocketError(socket: Duplex, error: RelayError): void {
  const body = JSON.stringify(error.toBody());
  socket.end(
    `HTTP/1.1 ${error.status} ${STATUS_CODES[error.status] ?? 'Error'}\r\n` +
      'Content-Type: application/json; charset=utf-8\r\n' +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      'Connection: close\r\n\r\n' +
      body,
    () => socket.destroy(),
  );
  // A peer that never reads must not keep the socket.
  setTimeout(() => socket.destroy(), 1000).unref();
}
