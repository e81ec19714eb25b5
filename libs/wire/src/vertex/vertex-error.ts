import { mapAnthropicErrorResponse } from '../anthropic-messages/upstream/anthropic-error';
import { rejectedCredentials } from '../errors/key-rejection';
import { mapGeminiErrorResponse } from '../gemini/upstream/gemini-error';
import type { UpstreamFailure } from '../hub/upstream-adapter';
import { isJsonObject } from '../json/json-checks';

/** Anthropic's error shape, `{"type":"error","error":{"type","message"}}`: what Claude itself answers on Vertex. */
function isAnthropicError(text: string): boolean {
  try {
    const json: unknown = JSON.parse(text);
    return isJsonObject(json) && json['type'] === 'error' && isJsonObject(json['error']) && typeof json['error']['type'] === 'string';
  } catch {
    return false;
  }
}

/**
 * The service account lacks an IAM permission on the project (`Permission
 * 'aiplatform.endpoints.predict' denied on resource '…/models/…'`, reason
 * `IAM_PERMISSION_DENIED`): every model of the project fails alike, so it is the key's fault —
 * though the message names a model, which would otherwise read as one model's access.
 */
function isIamDenial(status: number, text: string): boolean {
  if (status !== 403) return false;
  try {
    const json: unknown = JSON.parse(text);
    const error = isJsonObject(json) && isJsonObject(json['error']) ? json['error'] : undefined;
    if (!error) return false;
    const details = Array.isArray(error['details']) ? error['details'] : [];
    const reason = details.some((detail) => isJsonObject(detail) && detail['reason'] === 'IAM_PERMISSION_DENIED');
    return reason || (typeof error['message'] === 'string' && /^Permission '[^']+' denied/.test(error['message']));
  } catch {
    return false;
  }
}

/**
 * A Vertex failure → SPEC §9, read in the shape it came in, whichever publisher's model was
 * called: Vertex itself (auth, quota, an unknown model — also in front of Claude) answers
 * Google's `{"error":{"code","message","status"}}`
 * (https://cloud.google.com/vertex-ai/generative-ai/docs/model-reference/api-errors): 401
 * UNAUTHENTICATED and 403 PERMISSION_DENIED disable the key, 429 RESOURCE_EXHAUSTED and 5xx are
 * retryable, 404 NOT_FOUND (a model the project cannot reach) is a 404. Claude's own refusals come
 * in Anthropic's error shape (https://docs.anthropic.com/en/api/errors) and are mapped as an
 * `anthropic` channel's are.
 */
export function mapVertexErrorResponse(status: number, text: string, secrets: readonly string[]): UpstreamFailure {
  if (isIamDenial(status, text)) return rejectedCredentials(403, '');
  return isAnthropicError(text) ? mapAnthropicErrorResponse(status, text, secrets) : mapGeminiErrorResponse(status, text, secrets);
}
