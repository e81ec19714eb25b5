import type { IncomingHttpHeaders } from 'node:http';
import { createHash } from 'node:crypto';
import { Sha256 } from '@aws-crypto/sha256-js';
import { SignatureV4 } from '@smithy/signature-v4';
import { bearerKeyOf } from '../check-bearer';

/** The request as received, what a signature covers. */
export interface SignedRequest {
  method: string;
  /** As received, still percent-encoded (`/model/us.anthropic.claude-…-v1%3A0/invoke`). */
  path: string;
  query: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** Why a request is refused, as Bedrock words it: a 403 (`type` for `x-amzn-errortype`). */
export interface AuthRefusal {
  status: 403;
  type: string;
  message: string;
}

/** An access key the simulator knows: `AKID:SECRET` or `AKID:SECRET:SESSION_TOKEN` among its accepted keys. */
interface KnownAccessKey {
  secretAccessKey: string;
  sessionToken?: string;
}

const ACCESS_KEY = /^(\w{16,128}):([^:\s]+)(?::([^:\s]+))?$/;
const AUTHORIZATION = /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/([^/]+)\/aws4_request, ?SignedHeaders=([a-z0-9;-]+), ?Signature=([0-9a-f]{64})$/;
const AMZ_DATE = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/;
/** How far `x-amz-date` may be from the simulator's clock, as AWS allows. */
const SKEW_MS = 5 * 60 * 1000;

// The words AWS answers with (https://docs.aws.amazon.com/IAM/latest/UserGuide/signature-v4-troubleshooting.html,
// https://github.com/anthropics/claude-code/issues/2260, https://github.com/BerriAI/litellm/issues/6260).
const INVALID_TOKEN = 'The security token included in the request is invalid.';
const BAD_SIGNATURE =
  'The request signature we calculated does not match the signature you provided. Check your AWS Secret Access Key and signing method. Consult the service documentation for details.';

const refuse = (type: string, message: string): AuthRefusal => ({ status: 403, type, message });

/** The access keys among the accepted ones, by key id. */
export function knownAccessKeys(acceptedKeys: ReadonlySet<string>): Map<string, KnownAccessKey> {
  const keys = new Map<string, KnownAccessKey>();
  for (const key of acceptedKeys) {
    const match = ACCESS_KEY.exec(key);
    if (match?.[1] && match[2]) keys.set(match[1], { secretAccessKey: match[2], ...(match[3] ? { sessionToken: match[3] } : {}) });
  }
  return keys;
}

const headerOf = (headers: IncomingHttpHeaders, name: string): string | undefined => {
  const value = headers[name];
  return Array.isArray(value) ? value.join(',') : value;
};

function dateOf(amzDate: string): Date | undefined {
  const parts = AMZ_DATE.exec(amzDate);
  if (!parts) return undefined;
  const [, year, month, day, hour, minute, second] = parts.map(Number);
  return new Date(Date.UTC(year ?? 0, (month ?? 1) - 1, day, hour, minute, second));
}

const amzDateOf = (date: Date): string => date.toISOString().replace(/[-:]/g, '').replace(/\.\d{3}/, '');

function queryOf(query: string): Record<string, string | string[]> {
  const params: Record<string, string | string[]> = {};
  for (const [name, value] of new URLSearchParams(query)) {
    const seen = params[name];
    params[name] = seen === undefined ? value : [...(Array.isArray(seen) ? seen : [seen]), value];
  }
  return params;
}

/**
 * Checks a request's credentials as Bedrock does: a Bedrock API key as a bearer (one of
 * `acceptedKeys`), or a SigV4 signature (service `bedrock`) re-computed with AWS's own signer over
 * the request as received, with the secret of the key id it names. Without `acceptedKeys` any
 * well-formed credential passes (the simulator knows no secret to check a signature with).
 * Undefined when the request may go on.
 */
export async function checkBedrockAuth(request: SignedRequest, acceptedKeys: ReadonlySet<string> | undefined, now: Date = new Date()): Promise<AuthRefusal | undefined> {
  const authorization = headerOf(request.headers, 'authorization');
  if (!authorization) return refuse('MissingAuthenticationTokenException', 'Missing Authentication Token');
  const bearer = bearerKeyOf(request.headers);
  if (bearer) return acceptedKeys && !acceptedKeys.has(bearer) ? refuse('UnrecognizedClientException', INVALID_TOKEN) : undefined;
  const parts = AUTHORIZATION.exec(authorization);
  if (!parts) return refuse('IncompleteSignatureException', `Authorization header requires 'Credential', 'Signature' and 'SignedHeaders' parameters. Authorization=${authorization.split(' ')[0] ?? ''}`);
  const [, keyId = '', , region = '', service = '', signedList = '', signature = ''] = parts;
  if (service !== 'bedrock') return refuse('InvalidSignatureException', "Credential should be scoped to correct service: 'bedrock'. ");
  const amzDate = headerOf(request.headers, 'x-amz-date') ?? '';
  const signedAt = dateOf(amzDate);
  if (!signedAt) return refuse('IncompleteSignatureException', "Authorization header requires existence of either a 'X-Amz-Date' or a 'Date' header.");
  if (signedAt.getTime() < now.getTime() - SKEW_MS) {
    return refuse('InvalidSignatureException', `Signature expired: ${amzDate} is now earlier than ${amzDateOf(new Date(now.getTime() - SKEW_MS))} (${amzDateOf(now)} - 5 min.)`);
  }
  if (signedAt.getTime() > now.getTime() + SKEW_MS) {
    return refuse('InvalidSignatureException', `Signature not yet current: ${amzDate} is still later than ${amzDateOf(new Date(now.getTime() + SKEW_MS))} (${amzDateOf(now)} + 5 min.)`);
  }
  if (!acceptedKeys) return undefined;
  const known = knownAccessKeys(acceptedKeys).get(keyId);
  if (!known) return refuse('UnrecognizedClientException', INVALID_TOKEN);
  // Temporary credentials: the session token goes with them, signed.
  if (known.sessionToken !== undefined && headerOf(request.headers, 'x-amz-security-token') !== known.sessionToken) return refuse('UnrecognizedClientException', INVALID_TOKEN);
  const signedNames = signedList.split(';');
  const claimedHash = headerOf(request.headers, 'x-amz-content-sha256');
  if (claimedHash !== undefined && claimedHash !== createHash('sha256').update(request.body).digest('hex')) return refuse('InvalidSignatureException', BAD_SIGNATURE);
  const headers: Record<string, string> = {};
  for (const name of signedNames) {
    const value = headerOf(request.headers, name);
    if (value === undefined) return refuse('InvalidSignatureException', BAD_SIGNATURE);
    headers[name] = value;
  }
  const signer = new SignatureV4({
    credentials: { accessKeyId: keyId, secretAccessKey: known.secretAccessKey, ...(known.sessionToken ? { sessionToken: known.sessionToken } : {}) },
    region,
    service,
    sha256: Sha256,
    applyChecksum: false,
  });
  const host = headers['host'] ?? '';
  const signed = await signer.sign(
    { method: request.method, protocol: 'http:', hostname: host.split(':')[0] ?? host, path: request.path, query: queryOf(request.query), headers, body: request.body },
    { signingDate: signedAt, signableHeaders: new Set(signedNames) },
  );
  const expected = /Signature=([0-9a-f]{64})$/.exec(String(signed.headers['authorization']))?.[1];
  return expected === signature ? undefined : refuse('InvalidSignatureException', BAD_SIGNATURE);
}
