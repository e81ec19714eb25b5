import type { IncomingMessage, ServerResponse } from 'node:http';
import { handleEndpointRoute } from '../endpoints/endpoint-routes';
import type { FormResult } from '../endpoints/multipart';
import type { SimContext } from '../handle-request';
import { sendJson } from '../http-io';
import { handleResponsesRoute } from '../responses/responses-routes';
import { checkAzureAuth, entraTokenPath, handleEntraToken } from './azure-auth';
import { handleAzureChat } from './azure-chat';
import { handleAzureCompletions } from './azure-completions';
import { azureStatusAnswer, deploymentNotFound, resourceNotFound, sendAzureError } from './azure-errors';
import { azureModelList } from './azure-models';

/** A request whose path starts `/openai/` or is Entra's token endpoint, its body read. */
export interface AzureRequest {
  method: string;
  path: string;
  query: string;
  rawBody: string;
  form: FormResult | undefined;
}

/** The operations a deployment answers, below `/openai/v1/` or `/openai/deployments/{deployment}/`. */
const OPERATIONS = new Set(['chat/completions', 'completions', 'embeddings', 'images/generations', 'images/edits', 'audio/speech', 'audio/transcriptions', 'audio/translations']);
const deploymentRoute = /^\/openai\/deployments\/([^/]+)\/(.+)$/;
/** A dated version, GA (`2024-10-21`) or preview (`2025-04-01-preview`). */
const apiVersionShape = /^\d{4}-\d{2}-\d{2}(-preview)?$/;

/** Whether the Azure side answers `path`. */
export const isAzurePath = (path: string): boolean => path.startsWith('/openai/') || entraTokenPath.test(path);

/** Where a call goes: the OpenAI route it is, and the deployment (from the path, or the body's model on v1). */
type Resolved = { operation: string; deployment: string | undefined } | { missing: true };

function resolve({ method, path, query }: AzureRequest): Resolved {
  const apiVersion = new URLSearchParams(query).get('api-version');
  if (path.startsWith('/openai/v1/')) {
    const operation = path.slice('/openai/v1/'.length);
    return { operation, deployment: undefined };
  }
  const deployed = deploymentRoute.exec(path);
  // The deployments API needs its api-version: without one (or an unknown one) the path is no route.
  if (deployed && method === 'POST' && apiVersion !== null && apiVersionShape.test(apiVersion) && OPERATIONS.has(deployed[2] ?? '')) {
    return { operation: deployed[2] ?? '', deployment: decodeURIComponent(deployed[1] ?? '') };
  }
  if (path === '/openai/models' && method === 'GET' && apiVersion !== null && apiVersionShape.test(apiVersion)) return { operation: 'models', deployment: undefined };
  return { missing: true };
}

/** The deployment a v1 call names in its body's `model` (JSON, or the form's field). */
function modelOf(request: AzureRequest): string | undefined {
  if (request.form?.kind === 'form') return request.form.form.fields.find(([name]) => name === 'model')?.[1];
  try {
    const json: unknown = JSON.parse(request.rawBody);
    const model = typeof json === 'object' && json !== null ? (json as Record<string, unknown>)['model'] : undefined;
    return typeof model === 'string' ? model : undefined;
  } catch {
    return undefined;
  }
}

/** The JSON body with the deployment as its model, as the deployments API reads it (the path wins). */
function withModel(rawBody: string, deployment: string): string {
  try {
    const json: unknown = JSON.parse(rawBody);
    return typeof json === 'object' && json !== null && !Array.isArray(json) ? JSON.stringify({ ...json, model: deployment }) : rawBody;
  } catch {
    return rawBody;
  }
}

/**
 * Azure OpenAI (issue 31): the v1 API (`/openai/v1/…`, the deployment in the body's `model`)
 * and the deployments API (`/openai/deployments/{deployment}/…?api-version=`), answered by the
 * simulator's OpenAI handlers; the key as `api-key` or a bearer its Entra endpoint
 * (`POST /{tenant}/oauth2/v2.0/token`) minted. The simulator's deployments are its served
 * models, each named like its model.
 */
export async function handleAzureRoute(req: IncomingMessage, res: ServerResponse, request: AzureRequest, context: SimContext): Promise<void> {
  const tenant = entraTokenPath.exec(request.path)?.[1];
  if (tenant !== undefined) {
    if (request.method === 'POST') handleEntraToken(res, tenant, request.rawBody, context);
    else sendAzureError(res, 404, resourceNotFound);
    return;
  }
  if (!checkAzureAuth(req, res, context, request.path.startsWith('/openai/v1/'))) return;
  const resolved = resolve(request);
  if ('missing' in resolved) return sendAzureError(res, 404, resourceNotFound);
  const { operation } = resolved;
  if (operation === 'models' && request.method === 'GET') return sendJson(res, 200, azureModelList(context.modelsServed));
  const isResponses = operation === 'responses' || operation.startsWith('responses/');
  if (!isResponses && (request.method !== 'POST' || !OPERATIONS.has(operation))) return sendAzureError(res, 404, resourceNotFound);
  const deployment = resolved.deployment ?? (request.method === 'POST' ? modelOf(request) : undefined);
  if (deployment !== undefined && !context.modelsServed.includes(deployment)) return sendAzureError(res, 404, deploymentNotFound);

  // A queued status fault is answered as Azure answers it (429 with retry-after-ms); the others go on to the handler.
  let queued = context.takeQueuedFault();
  if (queued?.kind === 'status') {
    const { body, headers } = azureStatusAnswer(queued.status);
    return sendAzureError(res, queued.status, body, headers);
  }
  const takeQueuedFault = () => {
    const fault = queued;
    queued = undefined;
    return fault ?? context.takeQueuedFault();
  };
  const rawBody = resolved.deployment !== undefined && request.form === undefined ? withModel(request.rawBody, resolved.deployment) : request.rawBody;
  if (operation === 'chat/completions') return handleAzureChat(res, rawBody, resolved.deployment, { ...context, takeQueuedFault });
  if (operation === 'completions') return handleAzureCompletions(res, rawBody, { ...context, takeQueuedFault });

  // The OpenAI handlers check a bearer: the Azure credential was checked above.
  req.headers.authorization = 'Bearer azure-checked';
  const delegated = { ...context, acceptedKeys: undefined, takeQueuedFault, responsesMissing: undefined };
  if (isResponses) {
    const query = new URLSearchParams(request.query);
    query.delete('api-version');
    return handleResponsesRoute(req, res, { method: request.method, path: `/v1/${operation}`, query: query.toString(), rawBody }, delegated);
  }
  await handleEndpointRoute(req, res, { method: request.method, path: `/v1/${operation}`, rawBody, form: request.form }, delegated);
}
