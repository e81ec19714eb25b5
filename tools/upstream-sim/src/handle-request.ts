import type { IncomingMessage, ServerResponse } from 'node:http';
import { anthropicHeadersOf } from './anthropic/anthropic-headers';
import { handleAnthropicRoute, isAnthropicSide } from './anthropic/anthropic-routes';
import type { AnthropicContext } from './anthropic/handle-messages';
import { handleAzureRoute, isAzurePath } from './azure/azure-routes';
import { handleEndpointRoute, type EndpointContext } from './endpoints/endpoint-routes';
import { isMultipart, parseMultipart, recordedForm } from './endpoints/multipart';
import { handleGeminiRoute, type GeminiRoutesContext } from './gemini/gemini-routes';
import { checkBearer } from './check-bearer';
import { handleChatCompletion } from './handle-chat-completion';
import { readBody, sendError, sendJson } from './http-io';
import { openAiError } from './openai-error';
import type { ResponseStore } from './responses/response-store';
import { handleResponsesRoute, isResponsesPath } from './responses/responses-routes';
import type { ResponsesMissingStatus } from './responses/responses-off';
import type { RecordedRequest } from './sim-types';
import { handleVideoRoute, type VideosContext } from './videos/video-routes';
import { handleSunoRoute, type SunoContext } from './suno/suno-routes';
import { handleSearchRoute } from './search/search-routes';
import { handleVertexRoute, isVertexPath, type VertexContext } from './vertex/vertex-routes';
import { handleBedrockRoute, isBedrockPath } from './bedrock/bedrock-routes';

export interface SimContext extends AnthropicContext, GeminiRoutesContext, EndpointContext, VideosContext, SunoContext, VertexContext {
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

/** The Anthropic and Gemini routes; false when `path` is neither's. */
async function handleProviderRoute(
  req: IncomingMessage,
  res: ServerResponse,
  request: { method: string; path: string; query: string; rawBody: string },
  context: SimContext,
): Promise<boolean> {
  if (isAnthropicSide(request.path, req.headers)) {
    await handleAnthropicRoute(req.headers, res, request, context);
    return true;
  }
  if (request.path === '/v1beta' || request.path.startsWith('/v1beta/')) {
    await handleGeminiRoute(req, res, request, context);
    return true;
  }
  return false;
}

/** Routes one request: records it, then OpenAI, Anthropic or Gemini routes, or 404. */
export async function handleRequest(req: IncomingMessage, res: ServerResponse, context: SimContext): Promise<void> {
  const method = req.method ?? 'GET';
  const [receivedPath = '/', query = ''] = (req.url ?? '/').split('?');
  const bytes = await readBody(req);
  const form = isMultipart(req.headers) ? await parseMultipart(req.headers, bytes) : undefined;
  const rawBody = form ? '' : bytes.toString('utf8');
  const chatOnly = receivedPath.startsWith(`${chatOnlyPrefix}/`);
  // Recorded as received, so a test sees which base URL a call went to; routed as under /v1.
  const path = chatOnly ? receivedPath.slice(chatOnlyPrefix.length) : receivedPath;
  context.record({
    method,
    path: receivedPath,
    query,
    headers: { ...req.headers },
    body: parsedOrRaw(rawBody),
    bodyBytes: bytes.length,
    ...(form?.kind === 'form' ? { multipart: recordedForm(form.form) } : {}),
    ...(isAnthropicSide(path, req.headers) ? { anthropic: anthropicHeadersOf(req.headers) } : {}),
  });
  if (isVertexPath(path)) return handleVertexRoute(req, res, { method, path, query, rawBody }, context);
  if (isAzurePath(path)) {
    await handleAzureRoute(req, res, { method, path, query, rawBody, form }, context);
    return;
  }
  if (isResponsesPath(path)) {
    const responsesMissing = chatOnly ? 404 : context.responsesMissing;
    await handleResponsesRoute(req, res, { method, path, query, rawBody }, { ...context, responsesMissing });
    return;
  }
  if (isBedrockPath(path)) return handleBedrockRoute(req, res, { method, path, query, rawBody, bytes }, context);
  if (await handleProviderRoute(req, res, { method, path, query, rawBody }, context)) return;
  if (await handleEndpointRoute(req, res, { method, path, rawBody, form }, context)) return;
  if (await handleVideoRoute(req, res, { method, path, query, rawBody, form }, context)) return;
  if (await handleSunoRoute(req, res, { method, path, rawBody }, context)) return;
  if (await handleSearchRoute(req, res, { method, path, query, rawBody }, context)) return;

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
