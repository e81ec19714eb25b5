import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import { anthropicError, sendAnthropicError } from './anthropic-error';
import { handleAnthropicModels } from './anthropic-models';
import { handleCountTokens } from './handle-count-tokens';
import { handleAnthropicMessages, type AnthropicContext } from './handle-messages';

const modelRoute = /^\/v1\/models(?:\/([^/]+))?$/;

/**
 * Anthropic and OpenAI share `/v1/models`: a call with `anthropic-version`, or with
 * `x-api-key` and no bearer token, is the Anthropic side's (as an Anthropic SDK sends it).
 */
export function isAnthropicSide(path: string, headers: IncomingHttpHeaders): boolean {
  if (path === '/v1/messages' || path.startsWith('/v1/messages/')) return true;
  if (!modelRoute.test(path)) return false;
  return headers['anthropic-version'] !== undefined || (headers['x-api-key'] !== undefined && headers.authorization === undefined);
}

/** The Anthropic routes, once `isAnthropicSide` said the request is theirs. */
export async function handleAnthropicRoute(
  headers: IncomingHttpHeaders,
  res: ServerResponse,
  request: { method: string; path: string; query: string; rawBody: string },
  context: AnthropicContext,
): Promise<void> {
  const { method, path, query, rawBody } = request;
  if (method === 'POST' && path === '/v1/messages') {
    await handleAnthropicMessages(headers, res, rawBody, context);
    return;
  }
  if (method === 'POST' && path === '/v1/messages/count_tokens') {
    handleCountTokens(headers, res, rawBody, context);
    return;
  }
  const models = modelRoute.exec(path);
  if (method === 'GET' && models) {
    const modelId = models[1] === undefined ? undefined : decodeURIComponent(models[1]);
    handleAnthropicModels({ headers, modelId, query: new URLSearchParams(query) }, res, context);
    return;
  }
  sendAnthropicError(res, 404, anthropicError('not_found_error', `The simulator does not serve ${method} ${path}.`));
}
