import type { IncomingMessage, ServerResponse } from 'node:http';
import type { GeminiModelEntry } from '../sim-types';
import { checkGeminiKey } from './check-gemini-key';
import { geminiError, sendGeminiError } from './gemini-error';
import { handleGeminiModels } from './gemini-models';
import { handleGeminiCountTokens } from './handle-gemini-count-tokens';
import { handleBatchEmbedContents, handleEmbedContent } from './handle-gemini-embeddings';
import { handleGenerateContent, type GeminiContext } from './handle-generate-content';
import { handleImagenPredict } from './handle-imagen-predict';

export interface GeminiRoutesContext extends GeminiContext {
  geminiModels: readonly GeminiModelEntry[];
}

const methodRoute = /^\/v1beta\/models\/([^/:]+):(generateContent|streamGenerateContent|countTokens|embedContent|batchEmbedContents|predict)$/;
const modelsRoute = /^\/v1beta\/models(?:\/([^/:]+))?$/;

/** Everything under `/v1beta`: generateContent (streamed or not), countTokens, embeddings, Imagen, the model list; else 404. */
export async function handleGeminiRoute(
  req: IncomingMessage,
  res: ServerResponse,
  request: { method: string; path: string; query: string; rawBody: string },
  context: GeminiRoutesContext,
): Promise<void> {
  const { method, path, query, rawBody } = request;
  const call = methodRoute.exec(path);
  if (method === 'POST' && call) {
    const model = decodeURIComponent(call[1] ?? '');
    const action = call[2];
    if (action === 'generateContent' || action === 'streamGenerateContent') {
      const stream = action === 'streamGenerateContent';
      await handleGenerateContent({ model, stream, query: new URLSearchParams(query), headers: req.headers }, res, rawBody, context);
      return;
    }
    if (!checkGeminiKey(req.headers, res, context.acceptedKeys)) return;
    if (action === 'countTokens') return handleGeminiCountTokens(res, model, rawBody);
    if (action === 'embedContent') return handleEmbedContent(res, model, rawBody, context);
    if (action === 'batchEmbedContents') return handleBatchEmbedContents(res, model, rawBody, context);
    return handleImagenPredict(res, model, rawBody, context);
  }
  const models = modelsRoute.exec(path);
  if (method === 'GET' && models) {
    if (!checkGeminiKey(req.headers, res, context.acceptedKeys)) return;
    const modelId = models[1] === undefined ? undefined : decodeURIComponent(models[1]);
    return handleGeminiModels(res, modelId, new URLSearchParams(query), context.geminiModels);
  }
  sendGeminiError(res, geminiError(404, 'NOT_FOUND', `The simulator does not serve ${method} ${path}.`));
}
