import { notFound, type RelayError } from '@chat-relay/wire';
import { buildOpenaiResponsesRequest, openaiResponsesNativeAdapter, rewriteResponseModel } from '@chat-relay/wire';
import type { StoredResponseRecord } from '../storage/types';
import type { AbortLike } from './caller-gone';
import type { ChannelRegistry } from './channel-registry';
import { transportFailure } from './transport-failure';
import type { UpstreamClient } from './upstream-client';

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
  const request = buildOpenaiResponsesRequest({ channel: channel.record, key, method: call.method, path: call.path });
  let text: string;
  let status: number;
  try {
    // A cancel is a POST with an empty JSON object; a GET or DELETE carries no body at all.
    const body = call.method === 'POST' ? { body: '{}', headers: { ...request.headers, 'content-type': 'application/json' } } : { headers: request.headers };
    const response = await deps.upstream.post({ channel: channel.record, url: request.url, method: request.method, signal, ...body });
    status = response.statusCode;
    text = await response.body.text();
  } catch (error) {
    throw transportFailure(error).error;
  }
  if (status >= 400) throw openaiResponsesNativeAdapter.mapErrorResponse(status, text, channel.record.keys).error;
  return call.rewritesModel ? rewriteResponseModel(text, record.model) : text;
}
