import { buildAzureResponsesRequest, buildOpenaiResponsesRequest, mapAzureErrorResponse, notFound, openaiResponsesNativeAdapter, rewriteResponseModel, type RelayError } from '@chat-relay/wire';
import type { ChannelRecord, StoredResponseRecord } from '../../storage/types';
import type { AbortLike } from '../../core/caller-gone';
import type { ChannelRegistry } from '../../channels/channel-registry';
import { transportFailure } from '../../channels/upstream/transport-failure';
import type { UpstreamClient } from '../../channels/upstream/upstream-client';

export interface NativeResponseCallDeps {
  registry: ChannelRegistry;
  upstream: UpstreamClient;
}

/** The channel that holds a native response is no longer configured, enabled or keyed. */
export const responseChannelGone = (id: string): RelayError =>
  notFound('response_unavailable', `Response '${id}' is kept by the upstream channel that created it, which is no longer available on this relay.`);

/**
 * A retrieve, delete, input_items or cancel call about a response a native channel keeps: sent
 * to that channel with the key that created it (another of its keys when that one is gone), the
 * answer's bytes returned as they came — a Response's `model` is the caller's name again.
 */
export async function callNativeResponse(
  deps: NativeResponseCallDeps,
  record: StoredResponseRecord,
  call: { method: 'GET' | 'DELETE' | 'POST'; path: string; rewritesModel: boolean },
  signal: AbortLike,
): Promise<string> {
  const channel = (await deps.registry.all()).find((live) => live.id === record.channelId);
  if (!channel || !channel.record.enabled || !channel.hasActiveKey) throw responseChannelGone(record.id);
  const key = (record.keyDigest ? channel.keyWithDigest(record.keyDigest) : undefined) ?? channel.nextKey();
  let answer: { status: number; text: string };
  try {
    answer = await sendResponsesCall(deps.upstream, channel.record, key, call, signal);
  } catch (error) {
    throw transportFailure(error).error;
  }
  if (answer.status >= 400) {
    const mapError = channel.record.type === 'azure' ? mapAzureErrorResponse : openaiResponsesNativeAdapter.mapErrorResponse;
    throw mapError(answer.status, answer.text, channel.record.keys).error;
  }
  return call.rewritesModel ? rewriteResponseModel(answer.text, record.model) : answer.text;
}

/**
 * One call about a stored response to the channel that keeps it: its status and text. A cancel
 * is a POST with an empty JSON object; a GET or DELETE carries no body at all. Rejects on a
 * transport failure.
 */
export async function sendResponsesCall(
  upstream: UpstreamClient,
  channel: ChannelRecord,
  key: string,
  call: { method: 'GET' | 'DELETE' | 'POST'; path: string },
  signal: AbortLike,
): Promise<{ status: number; text: string }> {
  // Azure keeps stored responses under its v1 API, with its own key header.
  const build = channel.type === 'azure' ? buildAzureResponsesRequest : buildOpenaiResponsesRequest;
  const request = build({ channel, key, method: call.method, path: call.path });
  const body = call.method === 'POST' ? { body: '{}', headers: { ...request.headers, 'content-type': 'application/json' } } : { headers: request.headers };
  const response = await upstream.post({ channel, key, url: request.url, method: request.method, signal, ...body });
  return { status: response.statusCode, text: await response.body.text() };
}
