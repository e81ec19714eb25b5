import { ResponseDeletedSchema, ResponseInputItemListSchema, ResponseObjectSchema, ResponseStreamEventSchema } from '@chat-relay/contract';
import type { ZodTypeAny } from 'zod';
import type { Verdict } from './check-answer';
import type { RawRequest, RawResponse } from './raw-http';
import { namedSseEvents } from './named-sse-events';

/** The Responses API routes: create, and the four about one stored response. */
export type ResponsesRoute = 'create' | 'retrieve' | 'delete' | 'input_items' | 'cancel';

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

/**
 * Which Responses route a request is on, as Express matches paths (case-insensitive, one trailing
 * slash, one path segment per id); undefined for any other request, other methods included.
 */
export function responsesRouteOf(request: RawRequest): ResponsesRoute | undefined {
  const path = (request.target.split('?')[0] ?? '').toLowerCase().replace(/(.)\/$/, '$1');
  const { method } = request;
  if (path === '/v1/responses') return method === 'POST' ? 'create' : undefined;
  const about = /^\/v1\/responses\/[^/]+(\/input_items|\/cancel)?$/.exec(path);
  if (!about) return undefined;
  if (about[1] === '/input_items') return method === 'GET' ? 'input_items' : undefined;
  if (about[1] === '/cancel') return method === 'POST' ? 'cancel' : undefined;
  return method === 'GET' ? 'retrieve' : method === 'DELETE' ? 'delete' : undefined;
}

/** OpenAI's error shape: `{error: {message, type, param, code}}`, nothing missing. */
function errorProblem(payload: unknown): string | undefined {
  if (!isRecord(payload) || !isRecord(payload['error'])) return 'no error object';
  const error = payload['error'];
  if (typeof error['message'] !== 'string' || error['message'] === '') return 'error.message not a string';
  if (typeof error['type'] !== 'string') return 'error.type not a string';
  for (const field of ['param', 'code']) {
    if (!(field in error) || (error[field] !== null && typeof error[field] !== 'string')) return `error.${field} missing or not string|null`;
  }
  return undefined;
}


const TERMINAL = new Set(['response.completed', 'response.incomplete', 'response.failed']);
const LIFECYCLE = new Set(['response.created', 'response.in_progress', 'response.queued', ...TERMINAL]);

export interface ResponsesStreamSummary {
  problem?: string;
  /** The stream failed (response.failed or an error event). */
  failed?: boolean;
  model?: unknown;
}

/**
 * A Responses stream: named events whose data parses as a stream event and repeats the name,
 * `sequence_number` 0, 1, 2 … with no gap, one response id in every lifecycle event, no
 * `[DONE]`, and a last event that ends it — response.completed, response.incomplete,
 * response.failed, or an `error` event — with nothing after it.
 */
export function responsesSseProblem(text: string): ResponsesStreamSummary {
  const events = namedSseEvents(text);
  if (events.length === 0) return { problem: 'an empty stream' };
  let responseId: string | undefined;
  let model: unknown;
  let failed = false;
  for (const [position, event] of events.entries()) {
    const at = `SSE event ${position} (${event.name ?? 'unnamed'})`;
    if (event.data.trim() === '[DONE]') return { problem: 'SSE [DONE] in a Responses stream' };
    if (event.name === undefined) return { problem: `${at} without a name` };
    const parsed = parseJson(event.data);
    if (!parsed.ok || !isRecord(parsed.value)) return { problem: `${at}: data not a JSON object` };
    const data = parsed.value;
    if (data['type'] !== event.name) return { problem: `${at} carries type ${JSON.stringify(data['type'])}` };
    const valid = ResponseStreamEventSchema.safeParse(data);
    if (!valid.success) return { problem: `${event.name} event invalid at ${valid.error.issues[0]?.path.join('.') || '?'}: ${valid.error.issues[0]?.message ?? ''}` };
    if (data['sequence_number'] !== position) return { problem: `${at} has sequence_number ${String(data['sequence_number'])}, ${position} expected` };
    const before = events[position - 1]?.name;
    if (before !== undefined && (TERMINAL.has(before) || before === 'error')) return { problem: `${at} after ${before}` };
    if (position === 0 && event.name !== 'response.created' && event.name !== 'error') return { problem: `stream starts with ${event.name}` };
    if (event.name === 'error' || event.name === 'response.failed') failed = true;
    if (LIFECYCLE.has(event.name) && isRecord(data['response'])) {
      const id = data['response']['id'];
      if (responseId !== undefined && id !== responseId) return { problem: `${at} names response ${String(id)}, the stream began as ${responseId}` };
      responseId = String(id);
      model ??= data['response']['model'];
    }
  }
  const last = events[events.length - 1]?.name ?? '';
  if (!TERMINAL.has(last) && last !== 'error') return { problem: `stream ends with ${last}, no terminal event` };
  return { failed, model };
}

/** `model` and `stream` of a body sent as plain JSON (a compressed or chunked one is not read). */
function requestedOf(request: RawRequest): { model?: unknown; stream?: unknown } | undefined {
  const framed = request.headers.some(([name]) => /^(content-encoding|transfer-encoding)$/i.test(name));
  if (framed || !request.body) return undefined;
  const parsed = parseJson(request.body.toString('utf8'));
  return parsed.ok && isRecord(parsed.value) ? parsed.value : undefined;
}

/** A Response answers with the model name the caller used, and streams exactly when asked to. */
function answerMatchesRequest(request: RawRequest, streamed: boolean, model: unknown): string | undefined {
  const requested = requestedOf(request);
  if (!requested) return undefined;
  if ((requested.stream === true) !== streamed) return streamed ? 'streamed an answer not asked to stream' : 'a JSON answer to a streamed request';
  if (typeof requested.model === 'string' && model !== requested.model) return `answered as model ${JSON.stringify(model)}, asked ${JSON.stringify(requested.model)}`;
  return undefined;
}

const SUCCESS_SCHEMAS: Record<ResponsesRoute, ZodTypeAny> = {
  create: ResponseObjectSchema,
  retrieve: ResponseObjectSchema,
  cancel: ResponseObjectSchema,
  delete: ResponseDeletedSchema,
  input_items: ResponseInputItemListSchema,
};

/**
 * The verdict on an answer of a Responses route that Express wrote: errors in OpenAI's shape with
 * a 4xx status (a 5xx only when the case asked the upstream to fail, never `internal_error`);
 * successes in the route's shape — a Response with the caller's model name, a deletion, an item
 * page; streams as OpenAI frames them, failing only when the case asked for it.
 */
export function checkResponsesAnswer(request: RawRequest, response: RawResponse, route: ResponsesRoute, upstreamFault: boolean): Verdict {
  const { status, headers, body, aborted } = response;
  const statusKey = String(status);
  const text = body.toString('utf8');
  const contentType = headers['content-type'] ?? '';

  if (status >= 400) {
    const parsed = parseJson(text);
    if (!parsed.ok) return { statusKey, problem: `responses ${status} body not JSON (${contentType || 'no content-type'})` };
    const shape = errorProblem(parsed.value);
    if (shape) return { statusKey, problem: `responses ${status} body: ${shape}` };
    const code = String((parsed.value as { error: { code: string | null; type: string } }).error.code ?? (parsed.value as { error: { type: string } }).error.type);
    if (code === 'internal_error') return { statusKey, problem: `responses ${status} internal_error` };
    if (status >= 500 && !upstreamFault) return { statusKey, problem: `responses ${status} ${code}` };
    return { statusKey };
  }
  if (status >= 300 || status < 200) return { statusKey, problem: `responses answered ${status}` };
  // What arrived before the caller left is a stream cut anywhere.
  if (aborted) return { statusKey };
  if (contentType.startsWith('text/event-stream')) {
    if (route !== 'create') return { statusKey: `${statusKey}-sse`, problem: `a stream from the ${route} route` };
    const sse = responsesSseProblem(text);
    if (sse.problem) return { statusKey: `${statusKey}-sse`, problem: sse.problem };
    const mismatch = answerMatchesRequest(request, true, sse.model);
    if (mismatch) return { statusKey: `${statusKey}-sse`, problem: mismatch };
    if (!sse.failed) return { statusKey: `${statusKey}-sse` };
    return upstreamFault ? { statusKey: `${statusKey}-sse-failed` } : { statusKey: `${statusKey}-sse-failed`, problem: 'a stream failed with no upstream fault asked' };
  }
  const parsed = parseJson(text);
  if (!parsed.ok) return { statusKey, problem: `responses ${route} ${status} not JSON (${contentType || 'no content-type'})` };
  const valid = SUCCESS_SCHEMAS[route].safeParse(parsed.value);
  if (!valid.success) return { statusKey, problem: `responses ${route} ${status} not in its shape at ${valid.error.issues[0]?.path.join('.') || '?'}` };
  if (route === 'create') {
    const answer = parsed.value as { model?: unknown; status?: unknown };
    const mismatch = answerMatchesRequest(request, false, answer.model);
    if (mismatch) return { statusKey, problem: mismatch };
    if (answer.status === 'failed' && !upstreamFault) return { statusKey, problem: 'a failed Response with no upstream fault asked' };
  }
  return { statusKey };
}
