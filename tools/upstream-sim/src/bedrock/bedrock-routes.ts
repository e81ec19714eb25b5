import type { IncomingMessage, ServerResponse } from 'node:http';
import { handleConverse } from './converse';
import type { SimContext } from '../handle-request';
import { bearerKeyOf } from '../check-bearer';
import { checkBedrockAuth } from './bedrock-auth';
import { sendBedrockError } from './bedrock-error';
import { handleFoundationModels } from './bedrock-models';
import { handleCountTokens } from './handle-count-tokens';
import { handleInvokeModel } from './handle-invoke-model';

/** The Runtime's model operations (https://docs.aws.amazon.com/bedrock/latest/APIReference/API_Operations_Amazon_Bedrock_Runtime.html). */
const modelRoute = /^\/model\/([^/]+)\/(invoke|invoke-with-response-stream|count-tokens|converse|converse-stream)$/;

/** Bedrock's routes, at the simulator's root: the Runtime's `/model/…` and the control plane's `/foundation-models`. */
export const isBedrockPath = (path: string): boolean => path === '/foundation-models' || path.startsWith('/model/');

export interface BedrockRequest {
  method: string;
  /** As received, percent-encoded: what the signature covers. */
  path: string;
  query: string;
  rawBody: string;
  /** The body's bytes, what the signature's payload hash covers. */
  bytes: Buffer;
}

const unknownOperation = (res: ServerResponse, method: string, path: string): void => sendBedrockError(res, 404, 'UnknownOperationException', `The simulator does not serve ${method} ${path}.`);

/** Whose request: the access key id its signature names, or the Bedrock API key. */
function callerOf(req: IncomingMessage): string {
  return bearerKeyOf(req.headers) ?? /Credential=([^/]+)\//.exec(req.headers.authorization ?? '')?.[1] ?? '';
}

/**
 * Amazon Bedrock: `POST /model/{id}/invoke`, `/invoke-with-response-stream` and `/count-tokens`
 * for Claude, `GET /foundation-models`; each checked for its credentials first (bedrock-auth.ts),
 * errors in Bedrock's shape; Converse (`/converse`, `/converse-stream`) for every model (converse.ts).
 */
export async function handleBedrockRoute(req: IncomingMessage, res: ServerResponse, request: BedrockRequest, context: SimContext): Promise<void> {
  const { method, path, query, rawBody, bytes } = request;
  const route = modelRoute.exec(path);
  const isModels = path === '/foundation-models' && method === 'GET';
  if (!isModels && !(route && method === 'POST')) return unknownOperation(res, method, path);
  const refusal = await checkBedrockAuth({ method, path, query, headers: req.headers, body: bytes }, context.acceptedKeys);
  if (refusal) return sendBedrockError(res, refusal.status, refusal.type, refusal.message);
  if (isModels) return handleFoundationModels(res, query);
  const [, encodedId = '', operation = ''] = route ?? [];
  let modelId: string;
  try {
    modelId = decodeURIComponent(encodedId);
  } catch {
    return sendBedrockError(res, 400, 'ValidationException', 'The provided model identifier is invalid.');
  }
  switch (operation) {
    case 'invoke':
    case 'invoke-with-response-stream':
      return handleInvokeModel(res, { modelId, rawBody, stream: operation === 'invoke-with-response-stream', caller: callerOf(req) }, context);
    case 'count-tokens':
      return handleCountTokens(res, modelId, rawBody);
    default:
      return handleConverse(res, modelId, rawBody, operation === 'converse-stream', context);
  }
}
