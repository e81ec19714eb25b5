import type { ErrorRequestHandler, RequestHandler } from 'express';
import { internalError, invalidRequest, notFound, RelayError } from '../errors/relay-error';
import type { Logger } from '../logger';

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

/** The one place that writes error responses (SPEC §9). */
export function errorHandler(logger: Logger): ErrorRequestHandler {
  return (error: unknown, req, res, _next) => {
    // Express's own decoding of path parameters fails with a URIError: the caller's mistake.
    if (error instanceof URIError) error = badPercentEncoding();
    const relayError = error instanceof RelayError ? error : internalError();
    if (!(error instanceof RelayError)) {
      logger.error({ err: error, requestId: res.locals.requestId, path: req.path }, 'unhandled error');
    }
    if (res.locals.trace) res.locals.trace.errorCode = relayError.code ?? relayError.type;
    if (res.headersSent) {
      res.destroy();
      return;
    }
    res.status(relayError.status);
    for (const [name, value] of Object.entries(relayError.headers)) res.setHeader(name, value);
    res.json(relayError.toBody());
  };
}
