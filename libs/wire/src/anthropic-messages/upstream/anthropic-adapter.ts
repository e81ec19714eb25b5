import type { ProviderAdapter } from '../../hub/provider-adapter';
import { mapAnthropicErrorResponse } from './anthropic-error';
import { AnthropicStreamTransformer } from './anthropic-stream-transformer';
import { convertAnthropicResponse } from './convert-anthropic-response';
import { convertToAnthropicRequest } from './convert-to-anthropic-request';
import { anthropicAuthHeaders } from '../../providers/provider-auth';

const nowSeconds = (): number => Math.floor(Date.now() / 1000);

/**
 * An `anthropic` channel: `POST {base_url}/messages` (the base URL includes the version path,
 * e.g. `https://api.anthropic.com/v1`) with `x-api-key` and `anthropic-version`.
 */
export const anthropicAdapter: ProviderAdapter = {
  buildRequest({ channel, key, request, upstreamModel, model }) {
    const { request: body, warnings } = convertToAnthropicRequest({ request, upstreamModel, model });
    return {
      url: `${channel.baseUrl.replace(/\/+$/, '')}/messages`,
      headers: { ...anthropicAuthHeaders(key), 'content-type': 'application/json' },
      body: JSON.stringify(body),
      ...(warnings.length > 0 ? { warnings } : {}),
    };
  },
  convertResponse: (text, publicModel) => convertAnthropicResponse({ text, publicModel, created: nowSeconds() }),
  createStreamTransformer: (options) => new AnthropicStreamTransformer({ ...options, created: nowSeconds() }),
  mapErrorResponse: mapAnthropicErrorResponse,
};
