import { hash } from 'node:crypto';
import type { Sha256 } from '@aws-crypto/sha256-js';
import type { SignatureV4 } from '@smithy/signature-v4';

export interface AwsCredentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
}

export interface RequestToSign {
  method: string;
  url: string;
  headers: Record<string, string>;
  /** The exact bytes sent (a string is sent as its UTF-8 bytes); absent for a GET. */
  body?: string | Buffer;
}

/** Signers per credential and region: each keeps its derived signing key for the day. A relay has a handful. */
const signers = new Map<string, SignatureV4>();

/**
 * AWS's signer, required at the first signature rather than imported: a relay without a Bedrock
 * channel never needs it (~0.4 MB of heap held from the start otherwise; issue 30).
 */
let awsSigner: { Signer: typeof SignatureV4; Hash: typeof Sha256 } | undefined;

function signerFor(credentials: AwsCredentials, region: string, service: string, applyChecksum: boolean): SignatureV4 {
  const id = `${credentials.accessKeyId}\0${credentials.secretAccessKey}\0${credentials.sessionToken ?? ''}\0${region}\0${service}\0${applyChecksum}`;
  let signer = signers.get(id);
  if (!signer) {
    awsSigner ??= {
      Signer: (require('@smithy/signature-v4') as typeof import('@smithy/signature-v4')).SignatureV4,
      Hash: (require('@aws-crypto/sha256-js') as typeof import('@aws-crypto/sha256-js')).Sha256,
    };
    signer = new awsSigner.Signer({ credentials, region, service, sha256: awsSigner.Hash, uriEscapePath: true, applyChecksum });
    if (signers.size >= 100) signers.clear();
    signers.set(id, signer);
  }
  return signer;
}

/**
 * The headers of `request` signed with AWS Signature Version 4 (service `bedrock`), by AWS's own
 * signer (@smithy/signature-v4): `authorization`, `x-amz-date`, `x-amz-content-sha256` (as AWS's
 * SDKs send it; `payloadHashHeader: false` leaves it out) and, for
 * temporary credentials, `x-amz-security-token` — over the method, the path as sent (each segment
 * encoded again, as every AWS service but S3 expects), the query, every header given and the hash
 * of the body. `host` is signed but left out of the answer: the HTTP client writes it from the URL.
 */
export async function signAwsRequest(
  request: RequestToSign,
  credentials: AwsCredentials,
  region: string,
  options: { service?: string; now?: Date; payloadHashHeader?: boolean } = {},
): Promise<Record<string, string>> {
  const { service = 'bedrock', now, payloadHashHeader = true } = options;
  const url = new URL(request.url);
  const signer = signerFor(credentials, region, service, payloadHashHeader);
  // The body's hash by Node's crypto (a Claude Code turn is 100 KB and more; the signer's own SHA-256
  // is JavaScript): given as the header AWS's SDKs send, which the signer then signs as it is.
  const hashed: Record<string, string> = payloadHashHeader ? { 'x-amz-content-sha256': hash('sha256', request.body ?? '', 'hex') } : {};
  const query: Record<string, string | string[]> = {};
  for (const [name, value] of url.searchParams) {
    const seen = query[name];
    query[name] = seen === undefined ? value : Array.isArray(seen) ? [...seen, value] : [seen, value];
  }
  const signed = await signer.sign(
    {
      method: request.method,
      protocol: url.protocol,
      hostname: url.hostname,
      ...(url.port ? { port: Number(url.port) } : {}),
      path: url.pathname,
      query,
      headers: { ...request.headers, ...hashed, host: url.host },
      body: request.body,
    },
    now ? { signingDate: now } : {},
  );
  const { host: _host, ...headers } = signed.headers;
  return headers;
}
