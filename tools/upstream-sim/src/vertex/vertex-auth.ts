import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import { bearerKeyOf } from '../check-bearer';
import { geminiError, sendGeminiError } from '../gemini/gemini-error';
import type { IssuedToken, VertexTokenStore } from './vertex-oauth';

const AUTH_HELP = 'Expected OAuth 2 access token, login cookie or other valid authentication credential. See https://developers.google.com/identity/sign-in/web/devconsole-project.';

/**
 * A Vertex call's bearer token, one the simulator minted and still valid, else Google's 401
 * UNAUTHENTICATED (https://cloud.google.com/vertex-ai/generative-ai/docs/model-reference/api-errors).
 * An API key is refused: a project's Vertex endpoints take OAuth tokens, and the relay must never
 * send its service account's key anywhere but to the token endpoint.
 */
export function checkVertexToken(headers: IncomingHttpHeaders, res: ServerResponse, store: VertexTokenStore): IssuedToken | undefined {
  if (headers['x-goog-api-key'] !== undefined) {
    const message = 'API keys are not supported by this API. Expected OAuth2 access token or other authentication credentials that assert a principal. See https://cloud.google.com/docs/authentication';
    sendGeminiError(res, geminiError(401, 'UNAUTHENTICATED', message));
    return undefined;
  }
  const token = bearerKeyOf(headers);
  if (!token) {
    sendGeminiError(res, geminiError(401, 'UNAUTHENTICATED', `Request is missing required authentication credential. ${AUTH_HELP}`));
    return undefined;
  }
  const issued = store.valid(token, Date.now());
  if (!issued) sendGeminiError(res, geminiError(401, 'UNAUTHENTICATED', `Request had invalid authentication credentials. ${AUTH_HELP}`));
  return issued;
}

/** The path's project must be the token's service account's: else Google's 403 PERMISSION_DENIED, as for a project the account has no role in. */
export function checkVertexProject(res: ServerResponse, issued: IssuedToken, resource: { project: string; path: string }): boolean {
  if (resource.project === issued.project) return true;
  const message = `Permission 'aiplatform.endpoints.predict' denied on resource '//aiplatform.googleapis.com${resource.path.replace(/^\/v1/, '')}' (or it may not exist).`;
  const body = geminiError(403, 'PERMISSION_DENIED', message);
  body.error.details = [{ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'IAM_PERMISSION_DENIED', domain: 'aiplatform.googleapis.com' }];
  sendGeminiError(res, body);
  return false;
}
