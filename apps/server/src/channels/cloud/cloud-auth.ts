import { cloudKeyOf } from '@chat-relay/wire';
import type { ChannelRecord } from '../../storage/types';
import type { AccessTokens } from './access-tokens';
import { regionOf } from './cloud-channel';
import { CredentialRefused } from './mint-access-token';
import type { Readable } from 'node:stream';
import { signAwsRequest, type RequestToSign } from './sign-aws-request';

/**
 * What a cloud call needs beyond its adapter's headers (and the bearer, when one was minted for
 * it: see {@link CloudAuth.refused}), or the cloud's refusal of the credential itself.
 */
export type CloudAuthorization = { ok: true; headers: Record<string, string> | undefined; bearer?: string } | { ok: false; status: number; body: string };

/**
 * The credential step of a call to a cloud channel (issue 31), after its adapter built it and
 * before it is sent: Bedrock's access keys sign the request (SigV4 over the exact bytes), Vertex's
 * service accounts and Azure's Entra service principals add a bearer minted from the credential.
 * Keys that need nothing here (an Azure api-key, a Bedrock API key) were written by the adapter.
 */
export class CloudAuth {
  constructor(private readonly tokens: AccessTokens) {}

  /** `request.body` may stream (an upload) for a bearer; a signature needs it whole. */
  async authorize(channel: ChannelRecord, key: string, request: Omit<RequestToSign, 'body'> & { body?: RequestToSign['body'] | Readable }): Promise<CloudAuthorization> {
    const credential = cloudKeyOf(channel.type, key);
    if (!credential) return { ok: true, headers: undefined };
    switch (credential.kind) {
      case 'aws-access-key': {
        const region = regionOf(channel.type, channel.baseUrl, channel.cloud);
        // Saved channels always have one (cloud-channel.ts): this is a bug if it happens.
        if (!region) throw new Error(`bedrock channel ${channel.id} has no region to sign for`);
        const { body } = request;
        // Bedrock takes JSON only: no adapter of its builds an upload.
        if (body !== undefined && typeof body !== 'string' && !Buffer.isBuffer(body)) throw new Error(`a bedrock call's body must be whole to be signed`);
        return { ok: true, headers: await signAwsRequest({ ...request, body }, credential, region) };
      }
      case 'google-service-account':
      case 'azure-entra':
        try {
          const bearer = await this.tokens.tokenFor(key, credential);
          return { ok: true, headers: { authorization: `Bearer ${bearer}` }, bearer };
        } catch (error) {
          if (!(error instanceof CredentialRefused)) throw error;
          return { ok: false, status: 401, body: refusalBody(channel.type, error.message) };
        }
      default:
        return { ok: true, headers: undefined };
    }
  }

  /** The cloud answered 401 to a minted bearer (expired early, revoked): forgotten, so the next authorize mints afresh. */
  refused(key: string, bearer: string): void {
    this.tokens.forget(key, bearer);
  }
}

/** A refused credential as the cloud itself would answer a call made with it: its adapter maps it (a 401 disables the key). */
function refusalBody(type: ChannelRecord['type'], message: string): string {
  if (type === 'vertex') return JSON.stringify({ error: { code: 401, message, status: 'UNAUTHENTICATED' } });
  return JSON.stringify({ error: { code: '401', message } });
}
