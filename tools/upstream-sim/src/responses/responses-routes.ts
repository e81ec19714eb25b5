import type { IncomingMessage, ServerResponse } from 'node:http';
import { checkBearer } from '../check-bearer';
import { sendError, sendJson } from '../http-io';
import { openAiError } from '../openai-error';
import { handleCreateResponse, type ResponsesContext } from './handle-create-response';
import { listInputItems } from './list-input-items';
import { asksResponsesOff, sendResponsesMissing, type ResponsesMissingStatus } from './responses-off';

export interface ResponsesRoutesContext extends ResponsesContext {
  acceptedKeys: ReadonlySet<string> | undefined;
  /** Set when this simulator (or this base URL) has no Responses API: how its routes answer. */
  responsesMissing: ResponsesMissingStatus | undefined;
}

/** A request under `/v1` (the `/chat-only` prefix already taken off). */
export interface ResponsesCall {
  method: string;
  path: string;
  query: string;
  rawBody: string;
}

const responsePath = /^\/v1\/responses\/([^/]+)(\/input_items|\/cancel)?$/;

/** True for `/v1/responses` and everything under it. */
export function isResponsesPath(path: string): boolean {
  return path === '/v1/responses' || path.startsWith('/v1/responses/');
}

function notFound(res: ServerResponse, id: string): void {
  sendError(res, 404, openAiError(`Response with id '${id}' not found.`, 'invalid_request_error'));
}

function invalidUrl(res: ServerResponse, call: ResponsesCall): void {
  sendError(res, 404, openAiError(`Invalid URL (${call.method} ${call.path})`, 'invalid_request_error'));
}

/** `POST …/cancel`: a queued background response becomes `cancelled`; a finished one is returned as it is. */
function cancel(res: ServerResponse, id: string, context: ResponsesRoutesContext): void {
  const stored = context.responseStore.get(id);
  if (!stored) return notFound(res, id);
  if (!stored.response.background) {
    sendError(res, 400, openAiError('Only responses created with background=true can be cancelled', 'invalid_request_error'));
    return;
  }
  if (stored.pending) {
    clearTimeout(stored.pending.timer);
    delete stored.pending;
    stored.response = { ...stored.response, status: 'cancelled' };
  }
  sendJson(res, 200, stored.response);
}

function handleStoredResponse(res: ServerResponse, call: ResponsesCall, context: ResponsesRoutesContext): void {
  const match = responsePath.exec(call.path);
  const id = decodeURIComponent(match?.[1] ?? '');
  const action = match?.[2];
  if (!match) return invalidUrl(res, call);
  if (call.method === 'POST' && action === '/cancel') return cancel(res, id, context);
  if (call.method === 'GET' && action === '/input_items') {
    const stored = context.responseStore.get(id);
    if (!stored) return notFound(res, id);
    const page = listInputItems(stored.inputItems, new URLSearchParams(call.query));
    if (page.kind === 'invalid') return sendError(res, 400, openAiError(page.message, 'invalid_request_error', page.param));
    return sendJson(res, 200, page.body);
  }
  if (action !== undefined) return invalidUrl(res, call);
  if (call.method === 'GET') {
    const stored = context.responseStore.get(id);
    return stored ? sendJson(res, 200, stored.response) : notFound(res, id);
  }
  if (call.method === 'DELETE') {
    return context.responseStore.delete(id) ? sendJson(res, 200, { id, object: 'response', deleted: true }) : notFound(res, id);
  }
  invalidUrl(res, call);
}

/**
 * The Responses API: `POST /v1/responses`, `GET`/`DELETE /v1/responses/{id}`,
 * `GET /v1/responses/{id}/input_items`, `POST /v1/responses/{id}/cancel` — or, switched off
 * (option, `/chat-only` base URL, `[sim:responses=off]`), the answer of a server without them.
 */
export async function handleResponsesRoute(
  req: IncomingMessage,
  res: ServerResponse,
  call: ResponsesCall,
  context: ResponsesRoutesContext,
): Promise<void> {
  const isCreate = call.path === '/v1/responses';
  if (context.responsesMissing !== undefined) return sendResponsesMissing(res, context.responsesMissing, call.method, call.path);
  if (isCreate && call.method === 'POST' && asksResponsesOff(call.rawBody)) return sendResponsesMissing(res, 404, call.method, call.path);
  if (isCreate && call.method !== 'POST') return invalidUrl(res, call);
  if (!checkBearer(req, res, context.acceptedKeys)) return;
  if (isCreate) return handleCreateResponse(res, call.rawBody, context);
  handleStoredResponse(res, call, context);
}
