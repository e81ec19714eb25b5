import { cloudKeyOf } from './cloud-keys';

/**
 * How each provider is handed a channel's key: the one place each provider's key headers are
 * written. Every adapter of a provider (chat, endpoints, native, tasks, search, model list) uses
 * its function here; each provider module (`providers/<type>.ts`) re-exports its own. A leaf:
 * the provider modules import the adapters, so the adapters cannot import the provider modules.
 */

/** The Messages API version every request is written for. */
export const ANTHROPIC_VERSION = '2023-06-01';

/** Anthropic: the key in `x-api-key`, with the API version (a passthrough forwards the caller's). */
export const anthropicAuthHeaders = (key: string, version: string = ANTHROPIC_VERSION): Record<string, string> => ({
  'x-api-key': key,
  'anthropic-version': version,
});

/** Gemini: the key in `x-goog-api-key`, never in the URL (`?key=`), where logs would keep it. */
export const geminiAuthHeaders = (key: string): Record<string, string> => ({ 'x-goog-api-key': key });

/** OpenAI and every OpenAI-compatible server: `Authorization: Bearer`. */
export const openAiAuthHeaders = (key: string): Record<string, string> => ({ authorization: `Bearer ${key}` });

/** Suno-style task APIs (new-api's): `Authorization: Bearer`. */
export const sunoAuthHeaders = openAiAuthHeaders;

/** Tavily: `Authorization: Bearer`. */
export const tavilyAuthHeaders = openAiAuthHeaders;

/**
 * Bedrock: a Bedrock API key as `Authorization: Bearer`; access keys write no header here — the
 * server signs the request (SigV4) over the bytes it sends.
 */
export const bedrockAuthHeaders = (key: string): Record<string, string> => {
  const credential = cloudKeyOf('bedrock', key);
  return credential?.kind === 'bedrock-api-key' ? { authorization: `Bearer ${credential.token}` } : {};
};

/** Vertex: nothing here — the server mints the service account's access token and sends it as a bearer. */
export const vertexAuthHeaders = (_key: string): Record<string, string> => ({});

/** Azure: the resource's key as `api-key`; an Entra service principal's bearer is minted by the server. */
export const azureAuthHeaders = (key: string): Record<string, string> => {
  const credential = cloudKeyOf('azure', key);
  return credential?.kind === 'azure-api-key' ? { 'api-key': credential.key } : {};
};
