import { z } from 'zod';

/**
 * What a cloud channel's key is (issue 31). A channel's `keys` are strings; a cloud's credential
 * is read from one, in the form its console hands out:
 *
 * - `bedrock`: `ACCESS_KEY_ID:SECRET_ACCESS_KEY[:SESSION_TOKEN]`, or the same as JSON
 *   (`{"access_key_id", "secret_access_key", "session_token"?}`) — requests signed with SigV4;
 *   anything else is a Bedrock API key, sent as `Authorization: Bearer`.
 * - `vertex`: a service account's JSON key file as Google hands it out (`type: service_account`,
 *   `project_id`, `client_email`, `private_key`, `token_uri`).
 * - `azure`: the resource's API key (sent as `api-key`), or a Microsoft Entra service principal
 *   as JSON (`{"tenant_id", "client_id", "client_secret", "authority_host"?}`) — a bearer token
 *   from its client credentials.
 */
export type CloudKey =
  | { kind: 'aws-access-key'; accessKeyId: string; secretAccessKey: string; sessionToken?: string }
  | { kind: 'bedrock-api-key'; token: string }
  | { kind: 'google-service-account'; projectId: string; clientEmail: string; privateKey: string; privateKeyId?: string; tokenUri: string }
  | { kind: 'azure-api-key'; key: string }
  | { kind: 'azure-entra'; tenantId: string; clientId: string; clientSecret: string; authorityHost: string };

export type CloudKeyKind = CloudKey['kind'];

/** Google's token endpoint, when a key file names none. */
export const GOOGLE_TOKEN_URI = 'https://oauth2.googleapis.com/token';
/** Microsoft Entra's public cloud, when a service principal names no other authority. */
export const ENTRA_AUTHORITY_HOST = 'https://login.microsoftonline.com';

const AccessKeyJsonSchema = z.object({
  access_key_id: z.string().min(16).max(128),
  secret_access_key: z.string().min(1).max(256),
  session_token: z.string().min(1).optional(),
});

const ServiceAccountSchema = z.object({
  type: z.literal('service_account'),
  project_id: z.string().min(1),
  client_email: z.string().min(3),
  private_key: z.string().includes('PRIVATE KEY'),
  private_key_id: z.string().optional(),
  token_uri: z.string().url().optional(),
});

const EntraSchema = z.object({
  tenant_id: z.string().min(1),
  client_id: z.string().min(1),
  client_secret: z.string().min(1),
  authority_host: z.string().url().optional(),
});

/** AWS access key ids: 16–128 word characters (IAM's own bound), `AKIA…` or `ASIA…` in practice. */
const ACCESS_KEY_PAIR = /^(\w{16,128}):([^:\s]{1,256})(?::([^:\s]+))?$/;

function jsonOf(key: string): unknown {
  if (!key.trimStart().startsWith('{')) return undefined;
  try {
    return JSON.parse(key);
  } catch {
    return null;
  }
}

export type ParsedCloudKey = { ok: true; key: CloudKey } | { ok: false; problem: string };

/** The credential in a cloud channel's key, or what is wrong with it; undefined for a type that is no cloud. */
export function parseCloudKey(type: string, key: string): ParsedCloudKey | undefined {
  const json = jsonOf(key);
  if (json === null) return { ok: false, problem: 'a key starting with { must be JSON' };
  if (type === 'bedrock') {
    if (json !== undefined) {
      const parsed = AccessKeyJsonSchema.safeParse(json);
      if (!parsed.success) return { ok: false, problem: 'a JSON key needs access_key_id and secret_access_key (and may have session_token)' };
      const { access_key_id, secret_access_key, session_token } = parsed.data;
      return { ok: true, key: { kind: 'aws-access-key', accessKeyId: access_key_id, secretAccessKey: secret_access_key, ...(session_token ? { sessionToken: session_token } : {}) } };
    }
    const pair = ACCESS_KEY_PAIR.exec(key);
    if (pair?.[1] && pair[2]) return { ok: true, key: { kind: 'aws-access-key', accessKeyId: pair[1], secretAccessKey: pair[2], ...(pair[3] ? { sessionToken: pair[3] } : {}) } };
    return { ok: true, key: { kind: 'bedrock-api-key', token: key } };
  }
  if (type === 'vertex') {
    const parsed = ServiceAccountSchema.safeParse(json);
    if (!parsed.success) return { ok: false, problem: "a vertex channel's key is a service account's JSON key file (type, project_id, client_email, private_key)" };
    const { project_id, client_email, private_key, private_key_id, token_uri } = parsed.data;
    return {
      ok: true,
      key: { kind: 'google-service-account', projectId: project_id, clientEmail: client_email, privateKey: private_key, tokenUri: token_uri ?? GOOGLE_TOKEN_URI, ...(private_key_id ? { privateKeyId: private_key_id } : {}) },
    };
  }
  if (type === 'azure') {
    if (json === undefined) return { ok: true, key: { kind: 'azure-api-key', key } };
    const parsed = EntraSchema.safeParse(json);
    if (!parsed.success) return { ok: false, problem: 'a JSON key is a Microsoft Entra service principal: tenant_id, client_id, client_secret (and may have authority_host)' };
    const { tenant_id, client_id, client_secret, authority_host } = parsed.data;
    return { ok: true, key: { kind: 'azure-entra', tenantId: tenant_id, clientId: client_id, clientSecret: client_secret, authorityHost: (authority_host ?? ENTRA_AUTHORITY_HOST).replace(/\/+$/, '') } };
  }
  return undefined;
}

/** What the API and console show of a cloud key: its kind and a public part, never a secret. */
export function cloudKeyHint(key: CloudKey): string {
  const last4 = (text: string): string => `...${text.slice(-4)}`;
  switch (key.kind) {
    case 'aws-access-key':
      return `AWS access key ${key.accessKeyId.slice(0, 4)}${last4(key.accessKeyId)}${key.sessionToken ? ' (session)' : ''}`;
    case 'bedrock-api-key':
      return `Bedrock API key ${last4(key.token)}`;
    case 'google-service-account':
      return `service account ${key.clientEmail}`;
    case 'azure-api-key':
      return `api-key ${last4(key.key)}`;
    case 'azure-entra':
      return `Entra app ${key.clientId} (tenant ${key.tenantId})`;
  }
}

/** Credentials read per channel key, so a call does not parse its key file again: a relay has a handful. */
const readKeys = new Map<string, CloudKey | undefined>();
const READ_KEYS_LIMIT = 1_000;

/**
 * The parsed credential of a key the channel already holds (checked when the channel was saved),
 * read once per key: every call of a cloud channel asks (its headers, its signature, its project).
 */
export function cloudKeyOf(type: string, key: string): CloudKey | undefined {
  const id = `${type}\0${key}`;
  if (readKeys.has(id)) return readKeys.get(id);
  const parsed = parseCloudKey(type, key);
  const credential = parsed?.ok ? parsed.key : undefined;
  if (readKeys.size >= READ_KEYS_LIMIT) readKeys.clear();
  readKeys.set(id, credential);
  return credential;
}
