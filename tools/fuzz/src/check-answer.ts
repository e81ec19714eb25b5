import { anthropicRouteOf, checkAnthropicAnswer } from './check-anthropic-answer';
import { checkResponsesAnswer, responsesRouteOf } from './check-responses-answer';
import type { RawOutcome, RawRequest, RawResponse } from './raw-http';

/** What every answer must be; a string names the problem, undefined means it passed. */
export type Verdict = { statusKey: string; problem?: string };

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

const nullableString = (value: unknown) => value === null || typeof value === 'string';

/** OpenAI's error shape (SPEC §9): `{error: {message, type, param, code}}`, nothing missing. */
export function errorShapeProblem(payload: unknown): string | undefined {
  if (!isRecord(payload) || !isRecord(payload['error'])) return 'no error object';
  const error = payload['error'];
  if (typeof error['message'] !== 'string' || error['message'] === '') return 'error.message not a string';
  if (typeof error['type'] !== 'string') return 'error.type not a string';
  if (!('param' in error) || !nullableString(error['param'])) return 'error.param missing or not string|null';
  if (!('code' in error) || !nullableString(error['code'])) return 'error.code missing or not string|null';
  return undefined;
}

function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

/** Every `data:` event of an SSE body: JSON chunks, `[DONE]`, and any error event in the §9 shape. */
export function sseProblem(text: string): string | undefined {
  for (const event of text.split(/\r?\n\r?\n/)) {
    const data = event
      .split(/\r?\n/)
      .filter((line) => line.startsWith('data:'))
      .map((line) => line.slice(5).trimStart())
      .join('\n');
    if (data === '' || data === '[DONE]') continue;
    const parsed = parseJson(data);
    if (!parsed.ok) return 'SSE event not JSON';
    if (isRecord(parsed.value) && 'error' in parsed.value) {
      const problem = errorShapeProblem(parsed.value);
      return problem ? `SSE error event: ${problem}` : 'SSE error event';
    }
  }
  return undefined;
}

const codeOf = (payload: unknown): string => {
  const error = isRecord(payload) && isRecord(payload['error']) ? payload['error'] : undefined;
  return String(error?.['code'] ?? error?.['type'] ?? '?');
};

/**
 * A caller that left after the headers kept whatever bytes had come, which may run past the
 * answer into the next one on the socket (a request whose declared length was a lie); cut them.
 */
function withinLength(response: RawResponse): RawResponse {
  const length = Number(response.headers['content-length']);
  return response.aborted && Number.isInteger(length) && response.body.length > length ? { ...response, body: response.body.subarray(0, length) } : response;
}

/**
 * The verdict on one answer: an answer at all; on an Anthropic route, Anthropic's shapes (see
 * checkAnthropicAnswer); on a Responses route, the Responses API's (see checkResponsesAnswer);
 * elsewhere no status ≥ 500, every error body JSON in OpenAI's shape, every JSON answer
 * parseable, a stream's error events shaped too. `upstreamFault`: the case asked the simulator
 * to fail, so an Anthropic or Responses route may answer 5xx.
 */
export function checkAnswer(request: RawRequest, outcome: RawOutcome, upstreamFault = false): Verdict {
  if (outcome.kind === 'timeout') return { statusKey: 'timeout', problem: 'no answer before the deadline' };
  if (outcome.kind === 'closed') return { statusKey: 'closed', problem: 'connection closed without an answer' };
  const response = withinLength(outcome.response);
  const { status, headers, body, aborted } = response;
  const statusKey = String(status);
  if (Number.isNaN(status)) return { statusKey: 'garbled', problem: 'no HTTP status line' };
  const anthropicRoute = anthropicRouteOf(request);
  // Every answer Express writes has an x-request-id; one without was written by the HTTP layer
  // before any route was matched (a request Node's parser refused), in OpenAI's shape.
  if (anthropicRoute && headers['x-request-id'] !== undefined) return checkAnthropicAnswer(request, response, anthropicRoute, upstreamFault);
  const responsesRoute = responsesRouteOf(request);
  if (responsesRoute && headers['x-request-id'] !== undefined) return checkResponsesAnswer(request, response, responsesRoute, upstreamFault);
  const text = body.toString('utf8');
  const contentType = headers['content-type'] ?? '';
  const bodyless = request.method === 'HEAD' || status === 204 || status === 304;

  if (status >= 400 && !bodyless) {
    if (text.length === 0) return { statusKey, problem: `${status} with an empty body` };
    const parsed = parseJson(text);
    if (!parsed.ok) return { statusKey, problem: `${status} body not JSON (${contentType || 'no content-type'})` };
    const shape = errorShapeProblem(parsed.value);
    if (shape) return { statusKey, problem: `${status} body: ${shape}` };
    if (status >= 500) return { statusKey, problem: `${status} ${codeOf(parsed.value)}` };
    return { statusKey };
  }
  if (status >= 500) return { statusKey, problem: `${status} (no body)` };
  if (aborted || bodyless) return { statusKey };
  if (contentType.startsWith('text/event-stream')) {
    const problem = sseProblem(text);
    // An error event after a 200 is the stream's way to fail; only its shape is checked here.
    return problem && problem !== 'SSE error event' ? { statusKey: `${statusKey}-sse`, problem } : { statusKey: problem ? `${statusKey}-sse-error` : `${statusKey}-sse` };
  }
  if (contentType.startsWith('application/json') && !parseJson(text).ok) return { statusKey, problem: `${status} JSON answer does not parse` };
  return { statusKey };
}

/** A request as text to paste into a report: escapes for control bytes, long runs cut. */
export function describeRequest(request: RawRequest, limit = 700): string {
  const head = `${request.method} ${request.target.length > 120 ? `${request.target.slice(0, 120)}…(${request.target.length} chars)` : request.target}`;
  const headers = request.headers.map(([name, value]) => `${name}: ${value.length > 80 ? `${value.slice(0, 80)}…(${value.length})` : value}`);
  const body = request.body ?? Buffer.alloc(0);
  const shown = JSON.stringify(body.subarray(0, limit).toString('latin1'));
  return `${head} | ${headers.join(' | ')} | body ${body.length} B: ${shown}${body.length > limit ? '…' : ''}${request.abortAfterHeaders ? ' | caller aborts after headers' : ''}`;
}
