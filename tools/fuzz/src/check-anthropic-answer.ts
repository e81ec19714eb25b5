import {
  AnthropicCountTokensResponseSchema,
  AnthropicMessageSchema,
  AnthropicModelListSchema,
  AnthropicModelSchema,
  AnthropicStreamEventSchema,
  ANTHROPIC_STREAM_EVENT_TYPES,
} from '@chat-relay/contract';
import type { ZodTypeAny } from 'zod';
import type { Verdict } from './check-answer';
import { namedSseEvents } from './named-sse-events';
import type { RawRequest, RawResponse } from './raw-http';

/** The Anthropic-dialect routes, and (`other`) the paths under `/v1/messages` no route serves. */
export type AnthropicRoute = 'messages' | 'count_tokens' | 'models' | 'other';

/** The error types Anthropic documents (https://docs.anthropic.com/en/api/errors). */
const ANTHROPIC_ERROR_TYPES: ReadonlySet<string> = new Set([
  'invalid_request_error',
  'authentication_error',
  'billing_error',
  'permission_error',
  'not_found_error',
  'request_too_large',
  'rate_limit_error',
  'api_error',
  'timeout_error',
  'overloaded_error',
]);

/** Types a failure the relay did not cause may come as: the upstream's, or the relay's own 5xx. */
const SERVER_ERROR_TYPES: ReadonlySet<string> = new Set(['api_error', 'overloaded_error', 'timeout_error']);

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

/**
 * Which Anthropic route a request is on, as Express matches paths (case-insensitive, one trailing
 * slash): anything under `/v1/messages`, and `/v1/models…` when `anthropic-version` is sent.
 * Undefined for every other request (OpenAI's dialect).
 */
export function anthropicRouteOf(request: RawRequest): AnthropicRoute | undefined {
  const path = (request.target.split('?')[0] ?? '').toLowerCase().replace(/(.)\/$/, '$1');
  if (path === '/v1/messages') return 'messages';
  if (path === '/v1/messages/count_tokens') return 'count_tokens';
  if (path.startsWith('/v1/messages/')) return 'other';
  const versioned = request.headers.some(([name]) => name.toLowerCase() === 'anthropic-version');
  return versioned && /^\/v1\/models(\/|$)/.test(path) ? 'models' : undefined;
}

/** Anthropic's error shape: `{type: "error", error: {type, message}, request_id?}`. */
export function anthropicErrorProblem(payload: unknown): string | undefined {
  if (!isRecord(payload)) return 'not an object';
  if (payload['type'] !== 'error') return 'type is not "error"';
  const error = payload['error'];
  if (!isRecord(error)) return 'no error object';
  if (typeof error['type'] !== 'string' || !ANTHROPIC_ERROR_TYPES.has(error['type'])) return `error.type ${JSON.stringify(error['type'])} is not Anthropic's`;
  if (typeof error['message'] !== 'string' || error['message'] === '') return 'error.message not a non-empty string';
  if ('request_id' in payload && payload['request_id'] !== null && typeof payload['request_id'] !== 'string') return 'request_id not a string';
  return undefined;
}

/** The error types each status may carry (Anthropic's table; other 4xx are invalid requests). */
export function statusTypeProblem(status: number, type: string): string | undefined {
  const allowed: Record<number, readonly string[]> = {
    400: ['invalid_request_error'],
    401: ['authentication_error'],
    402: ['billing_error'],
    403: ['permission_error'],
    404: ['not_found_error'],
    408: ['timeout_error'],
    413: ['request_too_large', 'invalid_request_error'],
    429: ['rate_limit_error'],
  };
  const expected = allowed[status] ?? (status >= 500 ? [...SERVER_ERROR_TYPES] : ['invalid_request_error']);
  return expected.includes(type) ? undefined : `${status} paired with ${type}`;
}


const KNOWN_EVENTS: ReadonlySet<string> = new Set(ANTHROPIC_STREAM_EVENT_TYPES);

/** Anthropic's pattern for tool_use ids: a caller sends them back, and Anthropic refuses others. */
const TOOL_USE_ID = /^[a-zA-Z0-9_-]+$/;

/** A content block as a stream starts it or a Message holds it. */
function blockProblem(block: unknown): string | undefined {
  if (!isRecord(block) || (block['type'] !== 'tool_use' && block['type'] !== 'server_tool_use')) return undefined;
  return typeof block['id'] === 'string' && TOOL_USE_ID.test(block['id']) ? undefined : `tool_use id ${JSON.stringify(block['id'])} is not Anthropic's pattern`;
}

/**
 * Content blocks open and close one at a time, indices counting up from 0; a tool_use block's
 * `input_json_delta` fragments, joined, parse as a JSON object.
 */
class BlockOrder {
  private open: number | undefined;
  private next = 0;
  private toolInput: string[] | undefined;

  problem(event: Record<string, unknown>): string | undefined {
    const { type, index } = event;
    switch (type) {
      case 'content_block_start': {
        if (this.open !== undefined) return `block ${String(index)} started inside block ${this.open}`;
        if (index !== this.next) return `block ${String(index)} started, ${this.next} expected`;
        this.open = this.next++;
        const block = event['content_block'];
        this.toolInput = isRecord(block) && block['type'] === 'tool_use' ? [] : undefined;
        return blockProblem(block);
      }
      case 'content_block_delta': {
        if (index !== this.open) return `delta for block ${String(index)} while ${this.open ?? 'none'} is open`;
        const delta = event['delta'];
        if (this.toolInput && isRecord(delta) && typeof delta['partial_json'] === 'string') this.toolInput.push(delta['partial_json']);
        return undefined;
      }
      case 'content_block_stop': {
        if (index !== this.open) return `stop for block ${String(index)} while ${this.open ?? 'none'} is open`;
        this.open = undefined;
        const input = this.toolInput?.join('') ?? '';
        this.toolInput = undefined;
        if (input === '') return undefined;
        const parsed = parseJson(input);
        return parsed.ok && isRecord(parsed.value) ? undefined : `tool input of block ${String(index)} is not a JSON object`;
      }
      case 'message_delta':
      case 'message_stop':
        return this.open === undefined ? undefined : `${String(type)} inside block ${this.open}`;
      default:
        return undefined;
    }
  }
}

/**
 * An Anthropic stream: named events whose data parses and repeats the name, each a valid event,
 * one `message_start` first, blocks in order, no `[DONE]`, nothing after `message_stop` or
 * `error`, and an end: `message_stop`, or `error` when the stream failed.
 */
export function anthropicSseProblem(text: string): { problem?: string; errorType?: string; model?: unknown } {
  const events = namedSseEvents(text);
  const blocks = new BlockOrder();
  let errorType: string | undefined;
  let model: unknown;
  for (const [position, event] of events.entries()) {
    const at = `SSE event ${position} (${event.name ?? 'unnamed'})`;
    if (event.data.trim() === '[DONE]') return { problem: 'SSE [DONE] in an Anthropic stream' };
    if (event.name === undefined) return { problem: 'SSE event without a name' };
    const parsed = parseJson(event.data);
    if (!parsed.ok) return { problem: `${event.name} SSE data not JSON` };
    const type = isRecord(parsed.value) ? parsed.value['type'] : undefined;
    if (type !== event.name) return { problem: `SSE event ${event.name} carries type ${JSON.stringify(type)}` };
    if (position > 0 && events[position - 1]?.name === 'message_stop') return { problem: `${at} after message_stop` };
    if (errorType !== undefined) return { problem: `${at} after an error event` };
    if (event.name === 'message_start' && position > 0) return { problem: 'message_start not first' };
    if (position === 0 && event.name !== 'message_start' && event.name !== 'error') return { problem: `stream starts with ${event.name}` };
    if (event.name === 'error') {
      const shape = anthropicErrorProblem(parsed.value);
      if (shape) return { problem: `SSE error event: ${shape}` };
      errorType = String((parsed.value as { error: { type: string } }).error.type);
      continue;
    }
    if (KNOWN_EVENTS.has(event.name)) {
      const valid = AnthropicStreamEventSchema.safeParse(parsed.value);
      if (!valid.success) return { problem: `${event.name} event invalid at ${valid.error.issues[0]?.path.join('.') ?? '?'}` };
      if (valid.data.type === 'message_start') model = valid.data.message.model;
    }
    const order = blocks.problem(parsed.value as Record<string, unknown>);
    if (order) return { problem: `SSE ${order}` };
  }
  const last = events[events.length - 1]?.name;
  if (last !== 'message_stop' && last !== 'error') return { problem: `stream ends with ${last ?? 'nothing'}, neither message_stop nor error` };
  return { model, ...(errorType === undefined ? {} : { errorType }) };
}

/** `model` and `stream` of a body sent as plain JSON (a compressed or chunked one is not read). */
function requestedOf(request: RawRequest): { model?: unknown; stream?: unknown } | undefined {
  const framed = request.headers.some(([name]) => /^(content-encoding|transfer-encoding)$/i.test(name));
  if (framed || !request.body) return undefined;
  const parsed = parseJson(request.body.toString('utf8'));
  return parsed.ok && isRecord(parsed.value) ? parsed.value : undefined;
}

/** A Message answers with the model name the caller used, and streams exactly when asked to. */
function answerMatchesRequest(request: RawRequest, streamed: boolean, model: unknown): string | undefined {
  const requested = requestedOf(request);
  if (!requested) return undefined;
  if ((requested.stream === true) !== streamed) return streamed ? 'streamed an answer not asked to stream' : 'a JSON answer to a streamed request';
  if (typeof requested.model === 'string' && model !== requested.model) return `answered as model ${JSON.stringify(model)}, asked ${JSON.stringify(requested.model)}`;
  return undefined;
}

const SUCCESS_SCHEMAS: Record<AnthropicRoute, ZodTypeAny[]> = {
  messages: [AnthropicMessageSchema],
  count_tokens: [AnthropicCountTokensResponseSchema],
  models: [AnthropicModelListSchema, AnthropicModelSchema],
  other: [],
};

/**
 * The verdict on an answer of an Anthropic route that Express wrote (the caller's dialect is
 * known): errors in Anthropic's shape with a `request-id` header and a status that fits their
 * type, no 5xx (nor error event) unless the case asked the upstream to fail, successes in the
 * route's shape, streams as Anthropic frames them.
 */
export function checkAnthropicAnswer(request: RawRequest, response: RawResponse, route: AnthropicRoute, upstreamFault: boolean): Verdict {
  const { status, headers, body, aborted } = response;
  const statusKey = String(status);
  const text = body.toString('utf8');
  const contentType = headers['content-type'] ?? '';
  if (request.method === 'HEAD' || status === 204 || status === 304) return { statusKey };

  if (status >= 400) {
    const parsed = parseJson(text);
    if (!parsed.ok) return { statusKey, problem: `anthropic ${status} body not JSON (${contentType || 'no content-type'})` };
    const shape = anthropicErrorProblem(parsed.value);
    if (shape) return { statusKey, problem: `anthropic ${status} body: ${shape}` };
    const { error, request_id: bodyId } = parsed.value as { error: { type: string }; request_id?: string | null };
    if (headers['request-id'] === undefined) return { statusKey, problem: `anthropic ${status} without a request-id header` };
    if (typeof bodyId === 'string' && bodyId !== headers['request-id']) return { statusKey, problem: `anthropic ${status}: request_id differs from its header` };
    const pairing = statusTypeProblem(status, error.type);
    if (pairing) return { statusKey, problem: `anthropic ${pairing}` };
    if (status >= 500 && !upstreamFault) return { statusKey, problem: `anthropic ${status} ${error.type}` };
    return { statusKey };
  }
  // What arrived before the caller left is a stream cut anywhere, even inside its chunk framing.
  if (aborted) return { statusKey };
  if (contentType.startsWith('text/event-stream')) {
    const sse = anthropicSseProblem(text);
    if (sse.problem) return { statusKey: `${statusKey}-sse`, problem: sse.problem };
    const mismatch = route === 'messages' && sse.model !== undefined ? answerMatchesRequest(request, true, sse.model) : undefined;
    if (mismatch) return { statusKey: `${statusKey}-sse`, problem: mismatch };
    if (sse.errorType === undefined) return { statusKey: `${statusKey}-sse` };
    return upstreamFault ? { statusKey: `${statusKey}-sse-error` } : { statusKey: `${statusKey}-sse-error`, problem: `SSE error event ${sse.errorType} with no upstream fault asked` };
  }
  if (status === 200) {
    const parsed = parseJson(text);
    if (!parsed.ok) return { statusKey, problem: `anthropic ${route} 200 not JSON (${contentType || 'no content-type'})` };
    if (!SUCCESS_SCHEMAS[route].some((schema) => schema.safeParse(parsed.value).success)) return { statusKey, problem: `anthropic ${route} 200 not in its shape` };
    const answer = parsed.value as { model?: unknown; content?: unknown };
    const mismatch = route === 'messages' ? (answerMatchesRequest(request, false, answer.model) ?? (Array.isArray(answer.content) ? answer.content.map(blockProblem).find(Boolean) : undefined)) : undefined;
    if (mismatch) return { statusKey, problem: mismatch };
  }
  return { statusKey };
}
