import type { NativeAdapter, NativeBuildArgs } from '../../hub/native-adapter';
import { nativeHeaders, nativePassthroughAdapter, withModelField, type NativePassthrough } from '../../hub/native-passthrough-adapter';
import { nativeRequestBody, trimBaseUrl } from '../../hub/native-request-body';
import type { UpstreamRequest } from '../../hub/upstream-adapter';
import { anthropicAuthHeaders } from '../../providers/provider-auth';
import { AnthropicUsageSchema } from '../anthropic-api';
import { mapAnthropicErrorResponse } from '../upstream/anthropic-error';
import { AnthropicPassthroughStream } from './anthropic-passthrough-stream';
import { convertAnthropicUsage } from '../upstream/convert-anthropic-usage';
import { tallyMessagesRun } from './tally-messages-run';

/** The caller's headers an Anthropic upstream receives as they were sent. */
export const ANTHROPIC_FORWARDED_HEADERS = ['anthropic-version', 'anthropic-beta'] as const;

/**
 * The Messages dialect passed through: `POST {base_url}/messages` with the caller's own request
 * (model mapped), `anthropic-version` and `anthropic-beta` as the caller sent them. The answer
 * keeps every block and field; only `model` is the caller's name again.
 */
const messagesPassthrough: NativePassthrough = {
  url: (baseUrl) => `${trimBaseUrl(baseUrl)}/messages`,
  headers: ({ key, headers }) => {
    const sent = anthropicAuthHeaders(key, headers['anthropic-version']);
    const beta = headers['anthropic-beta'];
    if (beta) sent['anthropic-beta'] = beta;
    return sent;
  },
  modelIn: 'body',
  answerName: 'message',
  withPublicModel: withModelField('model'),
  usage: (message) => {
    const usage = AnthropicUsageSchema.safeParse(message['usage']);
    return usage.success ? convertAnthropicUsage(usage.data).reported : undefined;
  },
  tally: tallyMessagesRun,
  stream: (options) => new AnthropicPassthroughStream(options),
  mapErrorResponse: mapAnthropicErrorResponse,
};

/** `POST {base_url}/messages/count_tokens`, the caller's request passed through like a message. */
export function buildAnthropicCountTokensRequest(args: NativeBuildArgs): UpstreamRequest {
  return { url: `${trimBaseUrl(args.channel.baseUrl)}/messages/count_tokens`, headers: nativeHeaders(messagesPassthrough, args, false), body: nativeRequestBody(args) };
}

/** An Anthropic caller on an `anthropic` channel. */
export const anthropicNativeAdapter: NativeAdapter = nativePassthroughAdapter(messagesPassthrough);
