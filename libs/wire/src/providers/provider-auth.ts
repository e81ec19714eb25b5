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
