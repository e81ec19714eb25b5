import type { NativeAdapter } from '../../hub/native-adapter';
import { nativePassthroughAdapter } from '../../hub/native-passthrough-adapter';
import { trimBaseUrl } from '../../hub/native-request-body';
import type { UpstreamRequest, UpstreamTarget } from '../../hub/upstream-adapter';
import { mapOpenAiErrorResponse } from '../../openai-chat/upstream/openai-error';
import { readResponsesUsage } from './read-responses-usage';
import { ResponsesPassthroughStream } from './responses-passthrough-stream';
import { tallyResponsesRun } from './tally-responses-run';
import { withPublicModel } from './rewrite-response-model';
import { openAiAuthHeaders } from '../../providers/provider-auth';

export interface OpenaiResponsesProxyArgs {
  channel: UpstreamTarget;
  key: string;
  method: 'GET' | 'DELETE' | 'POST';
  /** Below the API root, query included: `/responses/resp_1/input_items?limit=2`. */
  path: string;
}

/**
 * The calls on a stored response (retrieve, delete, list its input items, cancel): nothing of the
 * caller's but the path goes upstream, with the channel's key. A retrieve asking `stream=true`
 * accepts the event stream it answers with.
 */
export function buildOpenaiResponsesRequest({ channel, key, method, path }: OpenaiResponsesProxyArgs): UpstreamRequest & Required<Pick<UpstreamRequest, 'method'>> {
  const relative = path.startsWith('/') ? path : `/${path}`;
  const query = relative.includes('?') ? new URLSearchParams(relative.slice(relative.indexOf('?') + 1)) : undefined;
  return {
    method,
    url: `${trimBaseUrl(channel.baseUrl)}${relative}`,
    headers: { ...openAiAuthHeaders(key), accept: query?.get('stream') === 'true' ? 'text/event-stream' : 'application/json' },
    body: '',
  };
}

/**
 * A Responses caller on an `openai` channel whose upstream speaks the Responses API:
 * `POST {base_url}/responses` with the caller's own bytes (model mapped). The answer keeps every
 * item and field — reasoning, encrypted content, server-side state — only `model` is the caller's
 * name again. Errors have the Chat Completions shape and are mapped the same way.
 */
export const openaiResponsesNativeAdapter: NativeAdapter = nativePassthroughAdapter({
  url: (baseUrl) => `${trimBaseUrl(baseUrl)}/responses`,
  headers: ({ key }) => openAiAuthHeaders(key),
  modelIn: 'body',
  answerName: 'response',
  withPublicModel,
  usage: (response) => readResponsesUsage(response['usage']),
  tally: tallyResponsesRun,
  stream: (options) => new ResponsesPassthroughStream(options),
  mapErrorResponse: mapOpenAiErrorResponse,
});
