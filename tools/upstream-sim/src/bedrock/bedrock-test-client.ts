// Test-only: a Bedrock client as the relay's server will be — SigV4 with AWS's own signer over the exact bytes sent.
import { Sha256 } from '@aws-crypto/sha256-js';
import { SignatureV4 } from '@smithy/signature-v4';
import { AwsEventStreamDecoder, type AwsStreamEvent } from '@chat-relay/wire';
import type { UpstreamSim } from '../sim-types';

export interface AccessKey {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
}

export const testAccessKey: AccessKey = { accessKeyId: 'AKIASIMULATOR0000001', secretAccessKey: 'sim/Secret+Access+Key/0000000000000000000' };
export const testSessionKey: AccessKey = { accessKeyId: 'ASIASIMULATOR0000002', secretAccessKey: 'sim/Session+Secret/00000000000000000000000', sessionToken: 'IQoJb3JpZ2luX2VjEXAMPLETOKEN' };
export const testBedrockApiKey = 'ABSKQmVkcm9ja0FQSUtleS1zaW11bGF0b3I=';
/** The simulator's accepted keys for these: access keys as `AKID:SECRET[:TOKEN]`, the API key as it is. */
export const acceptedBedrockKeys = [
  `${testAccessKey.accessKeyId}:${testAccessKey.secretAccessKey}`,
  `${testSessionKey.accessKeyId}:${testSessionKey.secretAccessKey}:${testSessionKey.sessionToken ?? ''}`,
  testBedrockApiKey,
];

export interface BedrockCall {
  method?: 'GET' | 'POST';
  /** Under the simulator's origin, the model id already escaped: `/model/us.anthropic.…-v1%3A0/invoke`. */
  path: string;
  body?: unknown;
  key?: AccessKey | { bearer: string } | null;
  /** When the request says it was signed (default: now). */
  signedAt?: Date;
  /** Changes the bytes after signing: a request tampered with on the way. */
  tamper?: (body: string) => string;
}

/** `/model/{id}/{operation}`, the id escaped as one path segment. */
export const modelPath = (modelId: string, operation: string): string => `/model/${encodeURIComponent(modelId)}/${operation}`;

export async function callBedrock(sim: UpstreamSim, call: BedrockCall): Promise<Response> {
  const method = call.method ?? 'POST';
  const url = new URL(`${sim.origin}${call.path}`);
  const body = call.body === undefined ? undefined : typeof call.body === 'string' ? call.body : JSON.stringify(call.body);
  const headers: Record<string, string> = body === undefined ? {} : { 'content-type': 'application/json' };
  const key = call.key === undefined ? testAccessKey : call.key;
  if (key && 'bearer' in key) headers['authorization'] = `Bearer ${key.bearer}`;
  else if (key) {
    const signer = new SignatureV4({ credentials: key, region: 'us-east-1', service: 'bedrock', sha256: Sha256 });
    const signed = await signer.sign(
      { method, protocol: url.protocol, hostname: url.hostname, port: Number(url.port), path: url.pathname, query: Object.fromEntries(url.searchParams), headers: { ...headers, host: url.host }, body },
      { signingDate: call.signedAt ?? new Date() },
    );
    for (const [name, value] of Object.entries(signed.headers)) if (name !== 'host') headers[name] = value;
  }
  const sent = body === undefined || !call.tamper ? body : call.tamper(body);
  return fetch(url, { method, headers, body: sent });
}

/** An upstream request as the relay's adapters build it, signed as the server will sign it (access keys), then sent. */
export async function sendSigned(request: { url: string; method?: string; headers: Record<string, string>; body?: string }, key: AccessKey): Promise<Response> {
  const url = new URL(request.url);
  const method = request.method ?? 'POST';
  const signer = new SignatureV4({ credentials: key, region: 'us-east-1', service: 'bedrock', sha256: Sha256 });
  const signed = await signer.sign(
    { method, protocol: url.protocol, hostname: url.hostname, port: Number(url.port), path: url.pathname, query: Object.fromEntries(url.searchParams), headers: { ...request.headers, host: url.host }, body: request.body },
    { signingDate: new Date() },
  );
  const headers = Object.fromEntries(Object.entries(signed.headers).filter(([name]) => name !== 'host'));
  return fetch(url, { method, headers, body: request.body });
}

/** A streamed answer's messages, decoded with the relay's own AWS event-stream decoder. */
export async function awsEventsOf(response: Response): Promise<AwsStreamEvent[]> {
  const decoder = new AwsEventStreamDecoder();
  const events: AwsStreamEvent[] = [];
  if (!response.body) return events;
  for await (const piece of response.body) events.push(...decoder.push(piece));
  return events;
}

/** The Anthropic event a `chunk` carries. */
export const anthropicEventOf = (event: AwsStreamEvent): Record<string, unknown> =>
  JSON.parse(Buffer.from((JSON.parse(event.data) as { bytes: string }).bytes, 'base64').toString('utf8')) as Record<string, unknown>;
