import type { IncomingMessage, ServerResponse } from 'node:http';
import { anthropicHeadersOf } from './anthropic/anthropic-headers';
import { handleAnthropicRoute, isAnthropicSide } from './anthropic/anthropic-routes';
import type { AnthropicContext } from './anthropic/handle-messages';
import { geminiError, sendGeminiError } from './gemini/gemini-error';
import { handleGenerateContent } from './gemini/handle-generate-content';
import { checkBearer } from './check-bearer';
import { handleChatCompletion } from './handle-chat-completion';
import { readBody, sendError, sendJson } from './http-io';
import { openAiError } from './openai-error';
import type { ResponseStore } from './responses/response-store';
import { handleResponsesRoute, isResponsesPath } from './responses/responses-routes';
import type { ResponsesMissingStatus } from './responses/responses-off';
import type { RecordedRequest } from './sim-types';

export interface SimContext extends AnthropicContext {
  modelsServed: readonly string[];
  responseStore: ResponseStore;
  /** Set when the `responsesApi` option switches the Responses API off. */
  responsesMissing: ResponsesMissingStatus | undefined;
  record(request: RecordedRequest): void;
}

/** The second OpenAI base URL, `…/chat-only/v1`: everything `/v1` serves but the Responses API. */
export const chatOnlyPrefix = '/chat-only';

/** A fixed date keeps `GET /v1/models` answers identical from run to run. */
const modelsCreated = 1_700_000_000;

function parsedOrRaw(rawBody: string): unknown {
  if (rawBody.length === 0) return undefined;
  try {
    return JSON.parse(rawBody);
  } catch {
    return rawBody;
  }
}

function modelEntry(id: string): { id: string; object: 'model'; created: number; owned_by: string } {
  return { id, object: 'model', created: modelsCreated, owned_by: 'upstream-sim' };
}

const geminiRoute = /^\/v1beta\/models\/([^/:]+):(generateContent|streamGenerateContent)$/;
/** The Anthropic and Gemini routes; false when `path` is neither's. */
async function handleProviderRoute(
  req: IncomingMessage,
  res: ServerResponse,
  request: { method: string; path: string; query: string; rawBody: string },
  context: SimContext,
): Promise<boolean> {
  const { method, path, query, rawBody } = request;
  if (isAnthropicSide(path, req.headers)) {
    await handleAnthropicRoute(req.headers, res, request, context);
    return true;
  }
  const gemini = geminiRoute.exec(path);
  if (method === 'POST' && gemini) {
    const call = {
      model: decodeURIComponent(gemini[1] ?? ''),
      stream: gemini[2] === 'streamGenerateContent',
      query: new URLSearchParams(query),
      headers: req.headers,
    };
    await handleGenerateContent(call, res, rawBody, context);
    return true;
  }
  if (path.startsWith('/v1beta/')) {
    sendGeminiError(res, geminiError(404, 'NOT_FOUND', `The simulator does not serve ${method} ${path}.`));
    return true;
  }
  return false;
}

/** Routes one request: records it, then OpenAI, Anthropic or Gemini routes, or 404. */
export async function handleRequest(req: IncomingMessage, res: ServerResponse, context: SimContext): Promise<void> {
  const method = req.method ?? 'GET';
  const [receivedPath = '/', query = ''] = (req.url ?? '/').split('?');
  const rawBody = await readBody(req);
  const chatOnly = receivedPath.startsWith(`${chatOnlyPrefix}/`);
  // Recorded as received, so a test sees which base URL a call went to; routed as under /v1.
  const path = chatOnly ? receivedPath.slice(chatOnlyPrefix.length) : receivedPath;
  context.record({
    method,
    path: receivedPath,
    query,
    headers: { ...req.headers },
    body: parsedOrRaw(rawBody),
    ...(isAnthropicSide(path, req.headers) ? { anthropic: anthropicHeadersOf(req.headers) } : {}),
  });
  if (isResponsesPath(path)) {
    const responsesMissing = chatOnly ? 404 : context.responsesMissing;
    await handleResponsesRoute(req, res, { method, path, query, rawBody }, { ...context, responsesMissing });
    return;
  }
  if (await handleProviderRoute(req, res, { method, path, query, rawBody }, context)) return;

  const modelPath = /^\/v1\/models\/([^/]+)$/.exec(path);
  const isChat = method === 'POST' && path === '/v1/chat/completions';
  const isModels = method === 'GET' && (path === '/v1/models' || modelPath !== null);
  if (!isChat && !isModels) {
    sendError(res, 404, openAiError(`Invalid URL (${method} ${path})`, 'invalid_request_error'));
    return;
  }
  if (!checkBearer(req, res, context.acceptedKeys)) return;
  if (isChat) {
    await handleChatCompletion(res, rawBody, context);
    return;
  }
  if (!modelPath) {
    sendJson(res, 200, { object: 'list', data: context.modelsServed.map(modelEntry) });
    return;
  }
  const modelId = decodeURIComponent(modelPath[1] ?? '');
  if (context.modelsServed.includes(modelId)) {
    sendJson(res, 200, modelEntry(modelId));
    return;
  }
  const message = `The model '${modelId}' does not exist or you do not have access to it.`;
  sendError(res, 404, openAiError(message, 'invalid_request_error', 'model', 'model_not_found'));
}
