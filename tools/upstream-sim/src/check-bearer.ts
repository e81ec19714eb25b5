import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { sendError } from './http-io';
import { openAiError } from './openai-error';

/** The key of `Authorization: Bearer <key>`, undefined when there is none. */
export function bearerKeyOf(headers: IncomingHttpHeaders): string | undefined {
  return /^Bearer\s+(\S+)\s*$/i.exec(headers.authorization ?? '')?.[1];
}

/** Answers 401 and returns false unless the request carries an acceptable bearer key. */
export function checkBearer(req: IncomingMessage, res: ServerResponse, acceptedKeys: ReadonlySet<string> | undefined): boolean {
  const key = bearerKeyOf(req.headers);
  if (!key) {
    const message =
      "You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY).";
    sendError(res, 401, openAiError(message, 'invalid_request_error', null, 'invalid_api_key'));
    return false;
  }
  if (acceptedKeys && !acceptedKeys.has(key)) {
    const message = `Incorrect API key provided: ${key.slice(0, 3)}***${key.slice(-4)}.`;
    sendError(res, 401, openAiError(message, 'invalid_request_error', null, 'invalid_api_key'));
    return false;
  }
  return true;
}
