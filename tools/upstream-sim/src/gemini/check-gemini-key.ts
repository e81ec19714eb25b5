import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import { geminiError, sendGeminiError } from './gemini-error';

/** Answers 403 `PERMISSION_DENIED` and returns false unless `x-goog-api-key` holds an acceptable key. */
export function checkGeminiKey(headers: IncomingHttpHeaders, res: ServerResponse, acceptedKeys: ReadonlySet<string> | undefined): boolean {
  const header = headers['x-goog-api-key'];
  const key = (Array.isArray(header) ? header[0] : header)?.trim();
  if (!key) {
    const message =
      "Method doesn't allow unregistered callers (callers without established identity). " +
      'Please use API Key or other form of API consumer identity to call this API.';
    sendGeminiError(res, geminiError(403, 'PERMISSION_DENIED', message));
    return false;
  }
  if (acceptedKeys && !acceptedKeys.has(key)) {
    const body = geminiError(403, 'PERMISSION_DENIED', 'API key not valid. Please pass a valid API key.');
    body.error.details = [{ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'API_KEY_INVALID', domain: 'googleapis.com' }];
    sendGeminiError(res, body);
    return false;
  }
  return true;
}
