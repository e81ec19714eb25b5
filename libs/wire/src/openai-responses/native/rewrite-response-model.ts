import { isJsonObject, type JsonObject } from '../../json/json-checks';
import { replaceTopLevelString } from '../../json/replace-top-level-string';

/**
 * A parsed Response object and its text, both naming `publicModel`: the text is the upstream's
 * own bytes with that one value swapped (so `1.0`, key order and spacing survive), re-serialised
 * only when `model` is not a string there. A body without `model` (a deletion, a token count)
 * gains none; one already naming `publicModel` is returned as it came.
 */
export function withPublicModel(response: JsonObject, text: string, publicModel: string): { body: JsonObject; text: string } {
  if (!('model' in response) || response['model'] === publicModel) return { body: response, text };
  const body = { ...response, model: publicModel };
  const swapped = replaceTopLevelString(Buffer.from(text, 'utf8'), 'model', publicModel);
  return { body, text: swapped ? swapped.toString('utf8') : JSON.stringify(body) };
}

/**
 * A Response body fetched for the caller (`GET /v1/responses/{id}`, a cancel's answer) with the
 * caller's model name in place of the upstream's; a body that is not a JSON object is returned
 * as it came, since it names no model the relay could find.
 */
export function rewriteResponseModel(text: string, publicModel: string): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return text;
  }
  return isJsonObject(parsed) ? withPublicModel(parsed, text, publicModel).text : text;
}
