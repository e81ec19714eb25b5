import type { UpstreamTarget } from '../hub/upstream-adapter';

/** The api-version offered for the deployments API (its reasons beside it, in the contract). */
export { AZURE_DEFAULT_API_VERSION } from '@chat-relay/contract';

/**
 * The resource's endpoint as an admin may paste it — `https://{resource}.openai.azure.com`
 * (or `.cognitiveservices.azure.com`, Foundry's `.services.ai.azure.com`), with a trailing slash,
 * or the OpenAI client's `…/openai/v1/` from Azure's quickstarts — cut back to the bare origin.
 */
export function azureResourceRoot(baseUrl: string): string {
  return baseUrl.replace(/\/+$/, '').replace(/\/openai(?:\/v1)?$/i, '');
}

/** The channel's `api-version` when it set one (the deployments API); undefined: the v1 API. */
export function azureApiVersionOf(channel: UpstreamTarget): string | undefined {
  const version = channel.cloud?.apiVersion?.trim();
  return version ? version : undefined;
}

/**
 * Where the OpenAI routes (`/chat/completions`, `/embeddings` …) hang for one deployment: the
 * v1 API's `{root}/openai/v1` (the deployment goes in the body's `model`), or with an api-version
 * the deployments API's `{root}/openai/deployments/{deployment}` (the deployment in the path).
 */
export function azureApiRoot(channel: UpstreamTarget, deployment: string, style: 'channel' | 'v1' = 'channel'): string {
  const root = azureResourceRoot(channel.baseUrl);
  if (style === 'v1' || azureApiVersionOf(channel) === undefined) return `${root}/openai/v1`;
  return `${root}/openai/deployments/${encodeURIComponent(deployment)}`;
}

/** `url` with the deployments API's `api-version` query parameter, when the channel set one. */
export function withAzureApiVersion(url: string, apiVersion: string | undefined): string {
  if (apiVersion === undefined) return url;
  return `${url}${url.includes('?') ? '&' : '?'}api-version=${encodeURIComponent(apiVersion)}`;
}
