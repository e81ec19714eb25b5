import type { ServerResponse } from 'node:http';
import { ResponsesRequestSchema, type ResponsesRequest } from '@chat-relay/contract';
import type { AnswerContent } from '../build-chat-completion';
import { sendError } from '../http-io';
import { errorForStatus, openAiError } from '../openai-error';
import { responsesContextLength } from '../context-length-fault';
import { parseOpenAiBody } from '../parse-openai-body';
import { planProviderAnswer, type ChatContext } from '../plan-provider-answer';
import { refuseResponsesParameters } from '../openai-model-rules';
import { sendJsonAnswer } from '../send-json-answer';
import type { SimFault } from '../sim-types';
import { buildResponseEvents } from './build-response-events';
import { failedResponse, finishedResponse, outputItemsOf, responseShell, type ResponseMeta } from './build-response';
import { hostedCallItems, refuseHostedTools } from './hosted-tools';
import { listedInputItems, newId, resolveReferences, textOfParts } from './input-items';
import type { ResponseStore, StoredResponse } from './response-store';
import type { ListedItem, ResponseBody } from './responses-wire';
import { internalRequestOf } from './to-internal-request';
import { writeResponsesStream } from './write-responses-stream';

export interface ResponsesContext extends ChatContext {
  responseStore: ResponseStore;
}

/** The faults left once status and timeout faults have been answered. */
type StreamableFault = Exclude<SimFault, { kind: 'status' | 'timeout' }>;

/** OpenAI refuses a smaller `max_output_tokens` (Chat Completions takes any positive `max_tokens`). */
const minOutputTokens = 16;

/** A background response completes this long after it was queued when no latency is set. */
const defaultBackgroundMs = 200;

function invalid(res: ServerResponse, status: number, message: string, param: string | null, code: string | null = null): undefined {
  sendError(res, status, openAiError(message, 'invalid_request_error', param, code));
  return undefined;
}

/** The stored conversation a request continues, and its input items with ids; undefined once an error is sent. */
function conversationOf(
  res: ServerResponse,
  request: ResponsesRequest,
  store: ResponseStore,
): { history: ListedItem[]; inputItems: ListedItem[] } | undefined {
  let history: ListedItem[] = [];
  const previousId = request.previous_response_id;
  if (previousId) {
    const previous = store.get(previousId);
    if (!previous) {
      const message = `Previous response with id '${previousId}' not found.`;
      return invalid(res, 404, message, 'previous_response_id', 'previous_response_not_found');
    }
    history = previous.conversation;
  }
  const resolved = resolveReferences(listedInputItems(request.input), (id) => store.findItem(id));
  if (resolved.kind === 'missing') return invalid(res, 404, `Item with id '${resolved.id}' not found.`, 'input');
  return { history, inputItems: resolved.items };
}

/** The words of the last user message among the items: what a hosted search looks for. */
function lastUserText(items: readonly ListedItem[]): string {
  const user = [...items].reverse().find((item) => item.type === 'message' && item['role'] === 'user');
  return user ? textOfParts(user['content']) : '';
}

/**
 * Queues a background response: answered at once as `queued`, completed (or failed, under a
 * `stream-error` fault) after the answer's latency, unless cancelled first.
 */
function queueInBackground(stored: StoredResponse, meta: ResponseMeta, latencyMs: number, store: ResponseStore): StoredResponse {
  const finished = stored.response;
  const timer = setTimeout(() => {
    const current = store.get(meta.id);
    if (current?.pending?.timer !== timer) return;
    current.response = { ...finished, completed_at: finished.status === 'completed' ? Math.floor(Date.now() / 1000) : null };
    delete current.pending;
  }, latencyMs);
  // A queued response must never keep a test process alive.
  timer.unref();
  return { ...stored, response: responseShell(meta, 'queued'), pending: { timer } };
}

/** `stream_options.include_obfuscation`, true unless set to false. */
function includesObfuscation(request: ResponsesRequest): boolean {
  const options: unknown = request['stream_options'];
  return !(typeof options === 'object' && options !== null && 'include_obfuscation' in options && options.include_obfuscation === false);
}

/** Sends the finished response as JSON, or streams its events; faults other than status and timeout play here. */
async function answer(
  res: ServerResponse,
  request: ResponsesRequest,
  meta: ResponseMeta,
  planned: { plan: AnswerContent; fault: StreamableFault | undefined; latencyMsPerToken: number },
  finished: ResponseBody,
): Promise<void> {
  const { plan, fault, latencyMsPerToken } = planned;
  if (request.stream !== true) {
    if (fault?.kind === 'stream-error') {
      sendError(res, 500, errorForStatus(500));
      return;
    }
    const timing = { completionTokens: plan.usage.completion_tokens, latencyMsPerToken };
    await sendJsonAnswer(res, JSON.stringify(finished), timing, fault);
    return;
  }
  const events = buildResponseEvents(responseShell(meta, 'in_progress'), finished, includesObfuscation(request));
  await writeResponsesStream(res, events, failedResponse(meta), { latencyMsPerToken, fault });
}

/**
 * POST /v1/responses: the conversation (stored history + input items) goes through the
 * simulator's one brain; the answer is a Response object, streamed or not, stored unless
 * `store: false`, queued when `background: true`.
 */
export async function handleCreateResponse(res: ServerResponse, rawBody: string, context: ResponsesContext): Promise<void> {
  const request = parseOpenAiBody(res, rawBody, ResponsesRequestSchema);
  if (!request) return;
  const modelRefusal = refuseResponsesParameters(request);
  if (modelRefusal) return invalid(res, 400, modelRefusal.message, modelRefusal.param, modelRefusal.code);
  const store = context.responseStore;
  const maxOutputTokens = request.max_output_tokens;
  if (maxOutputTokens != null && maxOutputTokens < minOutputTokens) {
    const message = `Invalid 'max_output_tokens': integer below minimum value. Expected a value >= ${minOutputTokens}, but got ${maxOutputTokens} instead.`;
    return invalid(res, 400, message, 'max_output_tokens', 'integer_below_min_value');
  }
  if (request.background === true && request.store === false) {
    return invalid(res, 400, 'Background responses must be stored: set store to true (the default).', 'store');
  }
  const refused = refuseHostedTools(request);
  if (refused) return invalid(res, 400, refused.message, refused.param, refused.code);
  const conversation = conversationOf(res, request, store);
  if (!conversation) return;
  const { internal, origins } = internalRequestOf(request, [...conversation.history, ...conversation.inputItems]);
  const planned = planProviderAnswer(internal, context);
  // The brain names Chat fields; the conversation is `input` here.
  if (planned.kind === 'invalid') return invalid(res, 400, planned.message, planned.param === 'messages' ? 'input' : planned.param);
  const { plan, fault, latencyMsPerToken } = planned;
  if (fault?.kind === 'status') {
    sendError(res, fault.status, fault.contextLength ? responsesContextLength() : errorForStatus(fault.status));
    return;
  }
  // Never answer; the socket stays open until the client gives up (no timer to leak).
  if (fault?.kind === 'timeout') return;

  const now = Math.floor(Date.now() / 1000);
  const meta: ResponseMeta = { id: newId('resp'), createdAt: now, request };
  const output = outputItemsOf(plan, hostedCallItems(request, lastUserText(conversation.inputItems)), origins);
  const finished = finishedResponse(meta, plan, output, now);
  const complete: StoredResponse = {
    // A stream that errs leaves a failed response behind; the other faults break only the transport.
    response: fault?.kind === 'stream-error' ? failedResponse(meta) : finished,
    inputItems: conversation.inputItems,
    conversation: [...conversation.history, ...conversation.inputItems, ...output],
  };
  if (request.background === true && request.stream !== true) {
    const latencyMs = latencyMsPerToken > 0 ? latencyMsPerToken * plan.usage.completion_tokens : defaultBackgroundMs;
    const queued = queueInBackground(complete, meta, latencyMs, store);
    store.save(queued);
    const bodyFault = fault?.kind === 'stream-error' ? undefined : fault;
    await sendJsonAnswer(res, JSON.stringify(queued.response), { completionTokens: 0, latencyMsPerToken: 0 }, bodyFault);
    return;
  }
  if (request.store !== false) store.save(complete);
  await answer(res, request, meta, { plan, fault, latencyMsPerToken }, finished);
}
