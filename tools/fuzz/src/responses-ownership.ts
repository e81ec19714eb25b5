import { responsesRouteOf } from './check-responses-answer';
import type { FuzzContext } from './fuzz-context';
import type { RawOutcome, RawRequest } from './raw-http';
import { authOf } from './responses-accounting';

/** The plain-JSON body's `previous_response_id`, if any (a compressed or chunked body is not read). */
function previousIdOf(request: RawRequest): unknown {
  if (!request.body || request.headers.some(([name]) => /^(content-encoding|transfer-encoding)$/i.test(name))) return undefined;
  try {
    const body: unknown = JSON.parse(request.body.toString('utf8'));
    return typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>)['previous_response_id'] : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A stored response of the family's account reached by any other caller (another account's
 * token, the admin key, an account key): read, listed, cancelled, deleted or continued with a 2xx.
 * Stored responses belong to the account that created them, and no one else learns they exist.
 */
export function foreignAccessProblem(context: FuzzContext, request: RawRequest, outcome: RawOutcome): string | undefined {
  if (outcome.kind !== 'response' || outcome.response.status >= 300 || outcome.response.status < 200) return undefined;
  const route = responsesRouteOf(request);
  if (route === undefined) return undefined;
  const keys = authOf(request);
  if (keys.length === 1 && keys[0]?.[1] === `Bearer ${context.responses.token}`) return undefined;
  const { previous, deletable } = context.responses;
  const owned = new Set<unknown>([previous.native, previous.bridged, previous.chained, ...deletable]);
  const pathId = decodeURIComponentSafe(request.target.split('?')[0]?.split('/')[3] ?? '');
  if (route !== 'create' && owned.has(pathId)) return `another caller's ${request.method} of a stored response answered ${outcome.response.status}`;
  if (route === 'create' && owned.has(previousIdOf(request))) return `another caller continued a stored response (${outcome.response.status})`;
  return undefined;
}

function decodeURIComponentSafe(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
