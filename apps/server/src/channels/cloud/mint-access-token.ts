import { createSign } from 'node:crypto';
import type { CloudKey } from '@chat-relay/wire';
import { z } from 'zod';

/** An OAuth access token and when it stops working (ms since the epoch). */
export interface MintedToken {
  token: string;
  expiresAt: number;
}

/**
 * The token endpoint refused the credential itself (400/401: a deleted service account, a wrong
 * client secret): the channel's key is bad, as if the cloud had answered 401 to the call.
 */
export class CredentialRefused extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

/** Google's scope for Vertex AI (every Google Cloud API). */
const CLOUD_PLATFORM_SCOPE = 'https://www.googleapis.com/auth/cloud-platform';
/** Entra's scope for Azure OpenAI / AI Foundry. */
const COGNITIVE_SERVICES_SCOPE = 'https://cognitiveservices.azure.com/.default';
/** How long a minting request may take before the call fails as a connection failure. */
const MINT_TIMEOUT_MS = 10_000;

const TokenAnswerSchema = z.object({ access_token: z.string().min(1), expires_in: z.coerce.number().positive() });
const OAuthErrorSchema = z.object({ error: z.string(), error_description: z.string().optional() }).passthrough();

const base64url = (value: string | Buffer): string => Buffer.from(value).toString('base64url');

/**
 * A service account's signed assertion (RFC 7523, as Google's "OAuth 2.0 for server to server
 * applications" describes): RS256 with the key file's private key, by Node's crypto.
 */
export function serviceAccountAssertion(account: Extract<CloudKey, { kind: 'google-service-account' }>, nowMs: number): string {
  const issuedAt = Math.floor(nowMs / 1000);
  const header = { alg: 'RS256', typ: 'JWT', ...(account.privateKeyId ? { kid: account.privateKeyId } : {}) };
  const claims = { iss: account.clientEmail, scope: CLOUD_PLATFORM_SCOPE, aud: account.tokenUri, iat: issuedAt, exp: issuedAt + 3600 };
  const unsigned = `${base64url(JSON.stringify(header))}.${base64url(JSON.stringify(claims))}`;
  const signature = createSign('RSA-SHA256').update(unsigned).sign(account.privateKey);
  return `${unsigned}.${base64url(signature)}`;
}

async function postForm(url: string, form: Record<string, string>, who: string, nowMs: () => number): Promise<MintedToken> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
    body: new URLSearchParams(form).toString(),
    signal: AbortSignal.timeout(MINT_TIMEOUT_MS),
  });
  const text = await response.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  if (response.ok) {
    const answer = TokenAnswerSchema.safeParse(json);
    if (!answer.success) throw new Error(`${who} answered ${response.status} without an access token`);
    return { token: answer.data.access_token, expiresAt: nowMs() + answer.data.expires_in * 1000 };
  }
  const refusal = OAuthErrorSchema.safeParse(json);
  // Only the endpoint's error code and description: never the assertion or the secret sent.
  const said = refusal.success ? `${refusal.data.error}${refusal.data.error_description ? `: ${refusal.data.error_description}` : ''}` : `HTTP ${response.status}`;
  if (response.status === 400 || response.status === 401 || response.status === 403) throw new CredentialRefused(`${who} refused the credential (${said})`, response.status);
  throw new Error(`${who} failed (${said})`);
}

/** Mints the access token of a service account (Vertex) or an Entra service principal (Azure). */
export function mintAccessToken(credential: CloudKey, nowMs: () => number = Date.now): Promise<MintedToken> {
  switch (credential.kind) {
    case 'google-service-account':
      return postForm(
        credential.tokenUri,
        { grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer', assertion: serviceAccountAssertion(credential, nowMs()) },
        `Google's token endpoint for ${credential.clientEmail}`,
        nowMs,
      );
    case 'azure-entra':
      return postForm(
        `${credential.authorityHost}/${encodeURIComponent(credential.tenantId)}/oauth2/v2.0/token`,
        { grant_type: 'client_credentials', client_id: credential.clientId, client_secret: credential.clientSecret, scope: COGNITIVE_SERVICES_SCOPE },
        `Microsoft Entra (tenant ${credential.tenantId}) for app ${credential.clientId}`,
        nowMs,
      );
    default:
      return Promise.reject(new Error(`a ${credential.kind} mints no access token`));
  }
}
