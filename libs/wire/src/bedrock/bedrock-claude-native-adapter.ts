import { anthropicNativeAdapter } from '../anthropic-messages/native/anthropic-native-adapter';
import type { NativeAdapter } from '../hub/native-adapter';
import { betasOfHeader } from './bedrock-betas';
import { BedrockClaudeStream } from './bedrock-claude-stream';
import { mapBedrockErrorResponse } from './bedrock-error';
import { invokeModelRequest } from './invoke-model-request';
import { toInvokeModelBody } from './to-invoke-model-body';

/**
 * A Messages caller on Claude through Bedrock: the caller's own body — every block, thinking and
 * cache_control kept — as InvokeModel takes it (no `model`, no `stream`, Bedrock's
 * `anthropic_version`, the caller's `anthropic-beta` values that Bedrock takes in
 * `anthropic_beta`); the caller's `anthropic-version` header has no Bedrock equivalent. The answer
 * is Anthropic's message as it came (the model renamed); the stream, once its chunks are
 * Anthropic events again, relayed by the Messages passthrough.
 */
export const bedrockClaudeNativeAdapter: NativeAdapter = {
  buildRequest({ channel, key, body, upstreamModel, headers, stream }) {
    const invoke = toInvokeModelBody(body, betasOfHeader(headers['anthropic-beta']));
    return invokeModelRequest({ baseUrl: channel.baseUrl, modelId: upstreamModel, key, body: invoke.body, stream, warnings: invoke.warnings });
  },
  convertResponse: (text, publicModel) => anthropicNativeAdapter.convertResponse(text, publicModel),
  createStreamTransformer: (options) => new BedrockClaudeStream(anthropicNativeAdapter.createStreamTransformer(options), options.secrets),
  mapErrorResponse: mapBedrockErrorResponse,
};
