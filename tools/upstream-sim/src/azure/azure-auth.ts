import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { bearerKeyOf } from '../check-bearer';
import { sendJson } from '../http-io';
import { accessDenied, badToken, sendAzureError } from './azure-errors';

/** The scope a client asks Entra for to call Azure OpenAI (https://learn.microsoft.com/en-us/azure/ai-foundry/openai/how-to/managed-identity). */
export const COGNITIVE_SERVICES_SCOPE = 'https://cognitiveservices.azure.com/.default';

/** What the Azure side needs of the simulator's context: the keys it accepts (api-keys and Entra client secrets). */
export interface AzureAuthContext {
  acceptedKeys: ReadonlySet<string> | undefined;
}

/** The bearer tokens each simulator's Entra endpoint minted: the only ones its Azure routes take. */
const mintedBy = new WeakMap<AzureAuthContext, Set<string>>();

function mintedTokens(context: AzureAuthContext): Set<string> {
  let tokens = mintedBy.get(context);
  if (!tokens) {
    tokens = new Set();
    mintedBy.set(context, tokens);
  }
  return tokens;
}

/** The Entra token endpoint's path, `/{tenant}/oauth2/v2.0/token`, and its tenant. */
export const entraTokenPath = /^\/([^/]+)\/oauth2\/v2\.0\/token$/;

/** Entra's error answer (`error`, `error_description` with its AADSTS code, `error_codes`). */
function sendEntraError(res: ServerResponse, status: number, error: string, code: number, description: string): void {
  sendJson(res, status, {
    error,
    error_description: `AADSTS${code}: ${description}\r\nTrace ID: 00000000-0000-0000-0000-000000000000\r\nCorrelation ID: 00000000-0000-0000-0000-000000000000\r\nTimestamp: 2026-01-01 00:00:00Z`,
    error_codes: [code],
    timestamp: '2026-01-01 00:00:00Z',
    trace_id: '00000000-0000-0000-0000-000000000000',
    correlation_id: '00000000-0000-0000-0000-000000000000',
    error_uri: `https://login.microsoftonline.com/error?code=${code}`,
  });
}

/**
 * `POST /{tenant}/oauth2/v2.0/token`, the client credentials grant
 * (https://learn.microsoft.com/en-us/entra/identity-platform/v2-oauth2-client-creds-grant-flow):
 * a form with `grant_type=client_credentials`, `client_id`, `client_secret` and the Cognitive
 * Services scope answers `{token_type: "Bearer", expires_in: 3599, access_token}`; a secret
 * not among the accepted keys answers 401 `invalid_client` (AADSTS7000215).
 */
export function handleEntraToken(res: ServerResponse, tenant: string, rawBody: string, context: AzureAuthContext): void {
  const form = new URLSearchParams(rawBody);
  if (form.get('grant_type') !== 'client_credentials') {
    sendEntraError(res, 400, 'unsupported_grant_type', 70003, 'The app requested an unsupported grant type.');
    return;
  }
  const clientId = form.get('client_id') ?? '';
  const secret = form.get('client_secret') ?? '';
  if (clientId === '') {
    sendEntraError(res, 400, 'invalid_request', 900144, "The request body must contain the following parameter: 'client_id'.");
    return;
  }
  if (form.get('scope') !== COGNITIVE_SERVICES_SCOPE) {
    sendEntraError(res, 400, 'invalid_scope', 1002012, `The provided value for scope ${form.get('scope') ?? ''} is not valid. Client credential flows must have a scope value with /.default suffixed to the resource identifier (application ID URI).`);
    return;
  }
  if (secret === '' || (context.acceptedKeys && !context.acceptedKeys.has(secret))) {
    const description = `Invalid client secret provided. Ensure the secret being sent in the request is the client secret value, not the client secret ID, for a secret added to app '${clientId}'.`;
    sendEntraError(res, 401, 'invalid_client', 7000215, description);
    return;
  }
  const tokens = mintedTokens(context);
  const token = `eyJ0eXAiOiJKV1QiLCJhbGciOiJSUzI1NiJ9.sim-${createHash('sha256').update(`${tenant}/${clientId}/${tokens.size}`).digest('hex').slice(0, 32)}`;
  tokens.add(token);
  sendJson(res, 200, { token_type: 'Bearer', expires_in: 3599, ext_expires_in: 3599, access_token: token });
}

/**
 * The credential of an Azure OpenAI call: its `api-key` (one of the accepted keys, any when none
 * are set) or a bearer token this simulator's Entra endpoint minted — and on the v1 API
 * (`v1Route`) an accepted key sent as a bearer too, as the OpenAI client sends it there
 * (https://learn.microsoft.com/en-us/azure/ai-foundry/openai/api-version-lifecycle: `OpenAI(api_key=…,
 * base_url=".../openai/v1/")`). Answers 401 as Azure does and returns false otherwise.
 */
export function checkAzureAuth(req: IncomingMessage, res: ServerResponse, context: AzureAuthContext, v1Route: boolean): boolean {
  const apiKey = req.headers['api-key'];
  const key = Array.isArray(apiKey) ? apiKey[0] : apiKey;
  if (key !== undefined && key !== '') {
    if (!context.acceptedKeys || context.acceptedKeys.has(key)) return true;
    sendAzureError(res, 401, accessDenied);
    return false;
  }
  const bearer = bearerKeyOf(req.headers);
  if (bearer === undefined) {
    sendAzureError(res, 401, accessDenied);
    return false;
  }
  if (mintedTokens(context).has(bearer) || (v1Route && context.acceptedKeys?.has(bearer))) return true;
  sendAzureError(res, 401, badToken);
  return false;
}
