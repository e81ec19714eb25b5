import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AnthropicContext } from '../anthropic/handle-messages';
import type { EndpointFaultContext } from '../endpoints/endpoint-answer';
import { geminiError, sendGeminiError } from '../gemini/gemini-error';
import type { GeminiRoutesContext } from '../gemini/gemini-routes';
import { checkVertexProject, checkVertexToken } from './vertex-auth';
import { handleVertexClaude, handleVertexClaudeCountTokens } from './vertex-claude';
import { handleVertexEmbeddings } from './vertex-embeddings';
import { handleVertexGenerateContent } from './vertex-gemini';
import { handleVertexModels } from './vertex-models';
import { handleTokenGrant, type VertexTokenStore } from './vertex-oauth';

export interface VertexContext extends AnthropicContext, GeminiRoutesContext, EndpointFaultContext {
  vertexTokens: VertexTokenStore;
}

/** `/v1/projects/{project}/locations/{region}/publishers/{publisher}/models/{model}:{method}` (https://cloud.google.com/vertex-ai/generative-ai/docs/model-reference/inference). */
const modelRoute = /^\/v1\/projects\/([^/]+)\/locations\/([^/]+)\/publishers\/(google|anthropic)\/models\/([^/:]+):([A-Za-z]+)$/;

/** Vertex's routes on the simulator's origin: the token endpoint, a project's models, Model Garden's list. */
export function isVertexPath(path: string): boolean {
  return path === '/token' || path.startsWith('/v1/projects/') || path === '/v1beta1/publishers/google/models';
}

const notServed = (res: ServerResponse, what: string): void => sendGeminiError(res, geminiError(404, 'NOT_FOUND', what));

/** Answers a Vertex route, once `isVertexPath` said the path is one. */
export async function handleVertexRoute(
  req: IncomingMessage,
  res: ServerResponse,
  request: { method: string; path: string; query: string; rawBody: string },
  context: VertexContext,
): Promise<void> {
  const { method, path, query, rawBody } = request;
  if (path === '/token') {
    if (method !== 'POST') return notServed(res, `The simulator does not serve ${method} ${path}.`);
    return handleTokenGrant(req.headers, res, rawBody, context.vertexTokens);
  }
  const issued = checkVertexToken(req.headers, res, context.vertexTokens);
  if (!issued) return;
  if (path === '/v1beta1/publishers/google/models' && method === 'GET') return handleVertexModels(res, new URLSearchParams(query), context.geminiModels);
  const call = modelRoute.exec(path);
  if (method !== 'POST' || !call) return notServed(res, `The simulator does not serve ${method} ${path}.`);
  const [, project = '', , publisher, encodedModel = '', action] = call;
  if (!checkVertexProject(res, issued, { project: decodeURIComponent(project), path })) return;
  const model = decodeURIComponent(encodedModel);
  if (publisher === 'anthropic') {
    if (model === 'count-tokens' && action === 'rawPredict') return handleVertexClaudeCountTokens({ headers: req.headers, issued }, res, rawBody, context);
    if (action === 'rawPredict' || action === 'streamRawPredict') return handleVertexClaude({ model, headers: req.headers, issued }, res, rawBody, context);
  } else {
    if (action === 'generateContent' || action === 'streamGenerateContent') {
      return handleVertexGenerateContent({ model, stream: action === 'streamGenerateContent', query, headers: req.headers }, res, rawBody, context);
    }
    if (action === 'predict') return handleVertexEmbeddings(res, model, rawBody, context);
  }
  notServed(res, `Publisher Model \`projects/${project}/locations/${call[2] ?? ''}/publishers/${publisher ?? ''}/models/${model}\` does not serve ${action ?? ''}.`);
}
