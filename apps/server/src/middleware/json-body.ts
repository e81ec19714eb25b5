import express, { type RequestHandler } from 'express';
import { invalidRequest, requestTooLarge, RelayError } from '../errors/relay-error';

/**
 * JSON bodies up to `limitBytes`. Runs after authentication, so an unauthenticated caller
 * cannot make the relay parse a large body. Parser failures become OpenAI-shaped errors.
 */
const JSON_TYPES = ['application/json', 'application/*+json'];

export function jsonBody(limitBytes: number): RequestHandler {
  const parse = express.json({ limit: limitBytes, strict: false, type: JSON_TYPES });
  return (req, res, next) => {
    const hasBody = req.headers['transfer-encoding'] !== undefined || (req.headers['content-length'] ?? '0') !== '0';
    if (hasBody && !req.is(JSON_TYPES)) {
      return next(invalidRequest('Send the request body as JSON with Content-Type: application/json.', null, 'invalid_json'));
    }
    parse(req, res, (error?: unknown) => (error ? next(mapBodyParserError(error, limitBytes)) : next()));
  };
}

function mapBodyParserError(error: unknown, limitBytes: number): RelayError | unknown {
  const type = (error as { type?: unknown } | null)?.type;
  switch (type) {
    case 'entity.too.large':
      return requestTooLarge(limitBytes);
    case 'entity.parse.failed':
      return invalidRequest(
        'We could not parse the JSON body of your request. Send valid JSON with Content-Type: application/json.',
        null,
        'invalid_json',
      );
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return new RelayError({
        status: 415,
        type: 'invalid_request_error',
        code: 'unsupported_encoding',
        message: 'The request body encoding or charset is not supported; send UTF-8 JSON.',
      });
    case 'request.aborted':
      return invalidRequest('The request body was not received completely.', null, 'request_aborted');
    default:
      return error;
  }
}
