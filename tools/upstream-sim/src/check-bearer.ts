import type { IncomingMessage, ServerResponse } from 'node:http';
import { sendError } from './http-io';
import { openAiError } from './openai-error';

/** Answers 401 and returns false unless the request carries an acceptable bearer key. */
export function checkBearer(req: IncomingMessage, res: ServerResponse, acceptedKeys: ReadonlySet<string> | undefined): boolean {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '');
  const key = match?.[1];
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
