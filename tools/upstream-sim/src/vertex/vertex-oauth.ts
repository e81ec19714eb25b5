import { createPublicKey, randomBytes, verify, type KeyObject } from 'node:crypto';
import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import { sendJson } from '../http-io';

/*
 * Google's OAuth 2.0 token endpoint for service accounts, as the simulator plays it: the
 * JWT-bearer grant (RFC 7523) with a JWT the service account signed with RS256
 * (https://developers.google.com/identity/protocols/oauth2/service-account#httprest), answered
 * with a bearer token good for an hour. The error bodies are Google's
 * (`{"error", "error_description"}`, RFC 6749 §5.2).
 */

export const JWT_BEARER_GRANT = 'urn:ietf:params:oauth:grant-type:jwt-bearer';
/** The scope Vertex AI needs (https://cloud.google.com/vertex-ai/docs/general/access-control). */
export const CLOUD_PLATFORM_SCOPE = 'https://www.googleapis.com/auth/cloud-platform';
/** Google's token endpoint: the audience its client libraries sign for, whatever the key file's token_uri. */
export const GOOGLE_TOKEN_URI = 'https://oauth2.googleapis.com/token';
/** What Google answers as `expires_in`: an hour less the second the exchange took. */
export const ACCESS_TOKEN_SECONDS = 3599;
/** Google refuses a JWT whose `exp` is more than an hour after its `iat`. */
const MAX_JWT_SECONDS = 3600;
/** Clocks drift: an `iat` this far ahead of the simulator's clock is still accepted. */
const CLOCK_SKEW_SECONDS = 300;

/** A service account the simulator knows, its project read from its email (`name@project.iam.gserviceaccount.com`). */
export interface KnownServiceAccount {
  clientEmail: string;
  project: string;
  publicKey: KeyObject;
}

export interface IssuedToken {
  clientEmail: string;
  project: string;
  /** Milliseconds since the epoch. */
  expiresAt: number;
}

/** `relay@acme-prod.iam.gserviceaccount.com` → `acme-prod`; undefined for any other email. */
export function projectOfServiceAccount(clientEmail: string): string | undefined {
  return /^[^@]+@([a-z][a-z0-9-]*[a-z0-9])\.iam\.gserviceaccount\.com$/.exec(clientEmail)?.[1];
}

/** The service accounts registered with the simulator, and the access tokens it minted for them. */
export class VertexTokenStore {
  private readonly accounts = new Map<string, KnownServiceAccount>();
  private readonly tokens = new Map<string, IssuedToken>();
  private mints = 0;

  /** Registers `clientEmail` (whose project its email names) with the public key of its key pair, as PEM. */
  register(clientEmail: string, publicKeyPem: string): void {
    const project = projectOfServiceAccount(clientEmail);
    if (!project) throw new Error(`${clientEmail} is no service account email (name@project.iam.gserviceaccount.com)`);
    this.accounts.set(clientEmail, { clientEmail, project, publicKey: createPublicKey(publicKeyPem) });
  }

  account(clientEmail: string): KnownServiceAccount | undefined {
    return this.accounts.get(clientEmail);
  }

  mint(account: KnownServiceAccount, now: number): string {
    const token = `ya29.sim-${randomBytes(24).toString('base64url')}`;
    this.tokens.set(token, { clientEmail: account.clientEmail, project: account.project, expiresAt: now + ACCESS_TOKEN_SECONDS * 1000 });
    this.mints += 1;
    return token;
  }

  /** The token's grant while it is valid; undefined when unknown or expired. */
  valid(token: string, now: number): IssuedToken | undefined {
    const issued = this.tokens.get(token);
    return issued && issued.expiresAt > now ? issued : undefined;
  }

  /** Tokens minted since the start or the last `resetCount`. */
  get minted(): number {
    return this.mints;
  }

  /** Forgets the count (tokens already minted stay valid: a relay may have cached them). */
  resetCount(): void {
    this.mints = 0;
  }
}

type Grant = { ok: true; token: string } | { ok: false; status: number; error: string; description: string };

const refused = (error: string, description: string, status = 400): Grant => ({ ok: false, status, error, description });

function decodeJson(segment: string): Record<string, unknown> | undefined {
  try {
    const json: unknown = JSON.parse(Buffer.from(segment, 'base64url').toString('utf8'));
    return typeof json === 'object' && json !== null && !Array.isArray(json) ? (json as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

const SHORT_LIVED =
  'Invalid JWT: Token must be a short-lived token (60 minutes) and in a reasonable timeframe. Check your iat and exp values in the JWT claim.';

/** The grant's JWT checked as Google checks it: signature, issuer, audience, scope, lifetime. */
export function grantFor(form: URLSearchParams, tokenUri: string, store: VertexTokenStore, now: number): Grant {
  const grantType = form.get('grant_type');
  if (grantType !== JWT_BEARER_GRANT) return refused('unsupported_grant_type', `Invalid grant_type: ${grantType ?? ''}`);
  const assertion = form.get('assertion');
  if (!assertion) return refused('invalid_request', 'Missing required parameter: assertion');
  const [headerPart = '', claimsPart = '', signaturePart = '', ...extra] = assertion.split('.');
  const header = decodeJson(headerPart);
  const claims = decodeJson(claimsPart);
  if (!header || !claims || extra.length > 0 || signaturePart === '') return refused('invalid_grant', 'Invalid JWT: the assertion is not a signed JWT.');
  if (header['alg'] !== 'RS256') return refused('invalid_grant', 'Invalid JWT Signature.');
  const account = typeof claims['iss'] === 'string' ? store.account(claims['iss']) : undefined;
  if (!account) return refused('invalid_grant', 'Invalid grant: account not found');
  const signed = verify('RSA-SHA256', Buffer.from(`${headerPart}.${claimsPart}`), account.publicKey, Buffer.from(signaturePart, 'base64url'));
  if (!signed) return refused('invalid_grant', 'Invalid JWT Signature.');
  // The key file's token_uri (the simulator's), or Google's own, which google-auth-library always writes.
  if (claims['aud'] !== tokenUri && claims['aud'] !== GOOGLE_TOKEN_URI) {
    return refused('invalid_grant', `Invalid JWT: Failed audience check. The expected audience is ${tokenUri}.`);
  }
  const { iat, exp } = claims;
  const seconds = now / 1000;
  if (typeof iat !== 'number' || typeof exp !== 'number' || exp <= iat || exp - iat > MAX_JWT_SECONDS || iat > seconds + CLOCK_SKEW_SECONDS || exp <= seconds) {
    return refused('invalid_grant', SHORT_LIVED);
  }
  const scopes = typeof claims['scope'] === 'string' ? claims['scope'].split(' ') : [];
  if (!scopes.includes(CLOUD_PLATFORM_SCOPE)) return refused('invalid_scope', 'Invalid OAuth scope or ID token audience provided.');
  return { ok: true, token: store.mint(account, now) };
}

/** POST /token: a form-encoded JWT-bearer grant → `{access_token, expires_in, token_type}`, or Google's OAuth error. */
export function handleTokenGrant(headers: IncomingHttpHeaders, res: ServerResponse, rawBody: string, store: VertexTokenStore): void {
  const contentType = headers['content-type'] ?? '';
  if (!contentType.toLowerCase().startsWith('application/x-www-form-urlencoded')) {
    sendJson(res, 400, { error: 'invalid_request', error_description: 'Bad Request' });
    return;
  }
  const tokenUri = `http://${headers.host ?? 'localhost'}/token`;
  const grant = grantFor(new URLSearchParams(rawBody), tokenUri, store, Date.now());
  if (!grant.ok) {
    sendJson(res, grant.status, { error: grant.error, error_description: grant.description });
    return;
  }
  sendJson(res, 200, { access_token: grant.token, expires_in: ACCESS_TOKEN_SECONDS, token_type: 'Bearer' });
}
