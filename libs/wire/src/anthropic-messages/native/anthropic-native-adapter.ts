import { upstreamError } from '../../errors/relay-error';
import type { NativeAdapter, NativeBuildArgs } from '../../hub/native-adapter';
import { nativeRequestBody, trimBaseUrl } from '../../hub/native-request-body';
import type { UpstreamRequest } from '../../hub/upstream-adapter';
import { ANTHROPIC_VERSION } from '../upstream/anthropic-adapter';
import { AnthropicUsageSchema } from '../anthropic-api';
import { mapAnthropicErrorResponse } from '../upstream/anthropic-error';
import { AnthropicPassthroughStream } from './anthropic-passthrough-stream';
import { convertAnthropicUsage } from '../upstream/convert-anthropic-usage';
import { tallyMessagesRun } from './tally-messages-run';

/** The caller's headers an Anthropic upstream receives as they were sent. */
export const ANTHROPIC_FORWARDED_HEADERS = ['anthropic-version', 'anthropic-beta'] as const;


function headersFor({ key, headers }: Pick<NativeBuildArgs, 'key' | 'headers'>, stream: boolean): Record<string, string> {
  const sent: Record<string, string> = {
    'x-api-key': key,
    'anthropic-version': headers['anthropic-version'] ?? ANTHROPIC_VERSION,
    'content-type': 'application/json',
    accept: stream ? 'text/event-stream' : 'application/json',
  };
  const beta = headers['anthropic-beta'];
  if (beta) sent['anthropic-beta'] = beta;
  return sent;
}


/** `POST {base_url}/messages/count_tokens`, the caller's request passed through like a message. */
export function buildAnthropicCountTokensRequest(args: NativeBuildArgs): UpstreamRequest {
  return { url: `${trimBaseUrl(args.channel.baseUrl)}/messages/count_tokens`, headers: headersFor(args, false), body: nativeRequestBody(args) };
}

/**
 * An Anthropic caller on an `anthropic` channel: `POST {base_url}/messages` with the caller's own
 * request (model mapped), `anthropic-version` and `anthropic-beta` as the caller sent them. The
 * answer keeps every block and field; only `model` is the caller's name again.
 */
export const anthropicNativeAdapter: NativeAdapter = {
  buildRequest: (args) => ({ url: `${trimBaseUrl(args.channel.baseUrl)}/messages`, headers: headersFor(args, args.stream), body: nativeRequestBody(args) }),

  convertResponse(text, publicModel) {
    let message: Record<string, unknown>;
    try {
      const parsed: unknown = JSON.parse(text);
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error('not an object');
      message = parsed as Record<string, unknown>;
    } catch {
      return { ok: false, error: upstreamError('The upstream provider sent a malformed message.', 'bad_response') };
    }
    const usage = AnthropicUsageSchema.safeParse(message['usage']);
    const sameModel = message['model'] === publicModel;
    const body = sameModel ? message : { ...message, model: publicModel };
    return {
      ok: true,
      body,
      text: sameModel ? text : JSON.stringify(body),
      usage: usage.success ? convertAnthropicUsage(usage.data).reported : undefined,
      deliveredChars: text.length,
      ran: tallyMessagesRun(message),
    };
  },

  createStreamTransformer: (options) => new AnthropicPassthroughStream(options),
  mapErrorResponse: mapAnthropicErrorResponse,
};
