import { anthropicAdapter } from '../anthropic-messages/upstream/anthropic-adapter';
import { convertToAnthropicRequest } from '../anthropic-messages/upstream/convert-to-anthropic-request';
import type { Adjustment } from '../hub/bridge-loss';
import type { ProviderAdapter } from '../hub/provider-adapter';
import { BedrockClaudeStream } from './bedrock-claude-stream';
import { mapBedrockErrorResponse } from './bedrock-error';
import { claudeNameOf } from './bedrock-model-id';
import { invokeModelRequest } from './invoke-model-request';
import { toInvokeModelBody } from './to-invoke-model-body';

/**
 * Chat through the hub with Claude on Bedrock: the Messages body the anthropic adapter writes
 * (convertToAnthropicRequest), as InvokeModel takes it (toInvokeModelBody), the answer and the
 * stream read by the anthropic adapter once the stream's chunks are Anthropic events again. The
 * converter is given Claude's Anthropic name (claudeNameOf), so a caller without `max_tokens` gets
 * the model's maximum as on Anthropic, not the fallback for an unknown name.
 * `service_tier` is left out: InvokeModel takes a tier in its `X-Amzn-Bedrock-Service-Tier`
 * header, not in the body, and standard is its default — what `standard_only` asks for.
 */
export const bedrockClaudeAdapter: ProviderAdapter = {
  buildRequest({ channel, key, request, upstreamModel, model }) {
    // The model goes in the URL; Claude's own name picks its defaults (max_tokens when the caller sets none).
    const converted = convertToAnthropicRequest({ request, upstreamModel: claudeNameOf(upstreamModel), model });
    const { service_tier: serviceTier, ...messages } = converted.request;
    const warnings: Adjustment[] = [...converted.warnings];
    if (serviceTier) {
      warnings.push({ kind: 'dropped', field: 'service_tier', reason: "InvokeModel takes no service tier in its body; Bedrock's default is standard", from: serviceTier });
    }
    const invoke = toInvokeModelBody(messages, []);
    return invokeModelRequest({ baseUrl: channel.baseUrl, modelId: upstreamModel, key, body: invoke.body, stream: request.stream === true, warnings: [...warnings, ...invoke.warnings] });
  },
  convertResponse: (text, publicModel) => anthropicAdapter.convertResponse(text, publicModel),
  createStreamTransformer: (options) => new BedrockClaudeStream(anthropicAdapter.createStreamTransformer(options), options.secrets),
  mapErrorResponse: mapBedrockErrorResponse,
};
