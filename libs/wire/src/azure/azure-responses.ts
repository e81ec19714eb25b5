import type { NativeAdapter } from '../hub/native-adapter';
import type { UpstreamRequest, UpstreamTarget } from '../hub/upstream-adapter';
import { buildOpenaiResponsesRequest, openaiResponsesNativeAdapter, type OpenaiResponsesProxyArgs } from '../openai-responses/native/openai-responses-native-adapter';
import { azureNativeAdapter, withAzureKey } from './azure-adapters';
import { azureApiRoot, azureApiVersionOf } from './azure-url';

/**
 * The Responses API on Azure: `POST {root}/openai/v1/responses`, the deployment as the body's
 * `model`, the caller's bytes passed through (https://learn.microsoft.com/en-us/azure/ai-foundry/openai/api-version-lifecycle,
 * "/openai/v1/responses — Generally Available"). It lives on the v1 API only: before v1 it was a
 * preview (`/openai/responses?api-version=2025-03-01-preview` and later previews), which the
 * relay does not target.
 */
export const azureResponsesNativeAdapter: NativeAdapter = azureNativeAdapter(openaiResponsesNativeAdapter);

/**
 * Whether a channel takes the Responses API natively: on the v1 API (no api-version) yes; a
 * channel pinned to a dated api-version speaks the deployments API, where the GA versions have no
 * Responses route, so its Responses callers are bridged through chat at that version — what the
 * admin chose the version for.
 */
export const azureSpeaksResponses = (channel: UpstreamTarget): boolean => azureApiVersionOf(channel) === undefined;

/** The calls on a stored response (retrieve, delete, input items, cancel) on Azure's v1 API, with its key header. */
export function buildAzureResponsesRequest(args: OpenaiResponsesProxyArgs): UpstreamRequest & Required<Pick<UpstreamRequest, 'method'>> {
  const request = buildOpenaiResponsesRequest({ ...args, channel: { ...args.channel, baseUrl: azureApiRoot(args.channel, '', 'v1') } });
  return { ...request, headers: withAzureKey(request.headers, args.key) };
}
