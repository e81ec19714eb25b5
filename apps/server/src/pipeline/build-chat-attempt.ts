import type { ChatCompletionRequest } from '@chat-relay/contract';
import { chatAdapterOf, RelayError, type Adjustment, type NativeAdapter, type ParameterRefusal, type ProviderAdapter, type UpstreamRequest } from '@chat-relay/wire';
import type { LiveChannel } from '../channels/channel-registry';
import type { UpstreamClient } from '../channels/upstream/upstream-client';
import type { AbortLike } from '../core/caller-gone';
import { adjustForChannel, type AdjustDeps } from './adjust-for-channel';
import { nativeAdapterOfType, type NativeCall } from './native-call';
import type { NextModelCall } from './relay-function-loop';
import { firstPiece } from './route-with-retries';

/** One attempt's request as the chat relay decided it: where it goes, and whether it passes through or is adapted. */
export interface AttemptToBuild {
  channel: LiveChannel;
  key: string;
  upstreamModel: string;
  relayed: {
    request: ChatCompletionRequest;
    rawBody?: Buffer;
    /** Hub fields the caller's dialect sends as hints: left out (an adjustment) where the channel's adapter refuses them. */
    hooks?: { advisory?: readonly (keyof ChatCompletionRequest)[] };
  };
  native: NativeCall | undefined;
  /** The request is the relay's adaptation (see isAdapted): it may be adjusted to the model, and sent again without a parameter refused by name. */
  adapted: boolean;
  /** A parameter the upstream just refused by name: this attempt is the one retry without it. */
  refused?: ParameterRefusal;
}

/**
 * The next model call of a loop (see relay-function-loop.ts) on the attempt's channel and key: the
 * request built as the first was (adjusted to the model), posted, a failure thrown as its error.
 */
export function nextModelCall(
  deps: AdjustDeps & { upstream: UpstreamClient },
  attempt: AttemptToBuild & { signal: AbortLike },
  adapter: NativeAdapter | ProviderAdapter,
): NextModelCall {
  const { channel, signal } = attempt;
  const post = async (request: ChatCompletionRequest) => {
    const { upstreamRequest } = buildAttempt(deps, { ...attempt, relayed: { ...attempt.relayed, request, rawBody: undefined } });
    const { url, headers, body } = upstreamRequest;
    if (typeof body !== 'string' && !Buffer.isBuffer(body)) throw new Error('a chat request is JSON');
    const response = await deps.upstream.post({ channel: channel.record, key: attempt.key, signal, url, headers, body });
    if (response.statusCode >= 400) throw adapter.mapErrorResponse(response.statusCode, await response.body.text(), channel.record.keys, attempt.upstreamModel).error;
    return response;
  };
  return {
    whole: async (request) => (await post(request)).body.text(),
    stream: async (request) => {
      const response = await post(request);
      const first = await firstPiece(response.body, attempt.key);
      if (!first.ok) throw first.error;
      return { upstream: response.body, first: first.first };
    },
  };
}

export interface BuiltAttempt {
  adapter: NativeAdapter | ProviderAdapter;
  upstreamRequest: UpstreamRequest;
  /** The hub request the upstream request was built from (the caller's own for a native call). */
  sent: ChatCompletionRequest;
  /** What was changed in an adapted request; undefined when nothing was (most requests). */
  adjustments: readonly Adjustment[] | undefined;
}

/** The upstream call for one attempt, and the adapter that reads its answer. */
export function buildAttempt(deps: AdjustDeps, { channel, key, upstreamModel, relayed, native, adapted, refused }: AttemptToBuild): BuiltAttempt {
  const { request, rawBody } = relayed;
  if (native) {
    const { body, headers } = native;
    const stream = request.stream === true;
    const nativeAdapter = nativeAdapterOfType(native, channel.record, upstreamModel);
    // Routing decided natively for this channel and model (police-candidates): a bug if it does not hold.
    if (!nativeAdapter) throw new Error(`a ${channel.record.type} channel does not speak ${native.dialect} for ${upstreamModel}`);
    const upstreamRequest = nativeAdapter.buildRequest({ channel: channel.record, key, body, rawBody: native.rawBody, upstreamModel, headers, stream });
    return { adapter: nativeAdapter, upstreamRequest, sent: request, adjustments: undefined };
  }
  const adapter = chatAdapterOf(channel.record.type, upstreamModel);
  // An adapted request suits the model it goes to (issue 28): the catalogue's rules, and what this channel refused before.
  const adjusted = adapted ? adjustForChannel(deps, request, channel, upstreamModel, refused) : undefined;
  let adjustments = adjusted?.adjustments.length ? [...adjusted.adjustments] : undefined;
  for (let sent = adjusted?.request ?? request; ; ) {
    try {
      const upstreamRequest = adapter.buildRequest({ channel: channel.record, key, request: sent, upstreamModel, model: adjusted?.facts, rawBody: sent === request ? rawBody : undefined });
      return { adapter, upstreamRequest, sent, adjustments };
    } catch (error) {
      if (!(error instanceof RelayError) || error.status !== 400) throw error;
      const field = relayed.hooks?.advisory?.find((name) => name === error.param && sent[name] != null);
      if (!field) throw error;
      // Logged with the model's other adjustments, and named in the answer's header.
      (adjustments ??= []).push({ kind: 'dropped', field: String(field), reason: `not sent to this ${channel.record.type} channel: ${error.message}` });
      sent = { ...sent, [field]: undefined };
    }
  }
}
