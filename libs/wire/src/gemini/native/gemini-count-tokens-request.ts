import type { NativeBuildArgs } from '../../hub/native-adapter';
import { trimBaseUrl } from '../../hub/native-request-body';
import type { UpstreamRequest } from '../../hub/upstream-adapter';
import { geminiAuthHeaders } from '../../providers/provider-auth';

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * `POST {base_url}/models/{upstream model}:countTokens` with the caller's body. A
 * `generateContentRequest` names its model itself (Google requires it, as `models/{model}`):
 * it is the upstream model, whatever the caller wrote there. Without one, the caller's bytes go
 * as they came.
 */
export function buildGeminiCountTokensRequest(args: NativeBuildArgs): UpstreamRequest {
  const model = args.upstreamModel.replace(/^models\//, '');
  const { generateContentRequest } = args.body;
  const body = isObject(generateContentRequest)
    ? JSON.stringify({ ...args.body, generateContentRequest: { ...generateContentRequest, model: `models/${model}` } })
    : (args.rawBody ?? JSON.stringify(args.body));
  return {
    url: `${trimBaseUrl(args.channel.baseUrl)}/models/${encodeURIComponent(model)}:countTokens`,
    headers: { ...geminiAuthHeaders(args.key), 'content-type': 'application/json' },
    body,
  };
}
