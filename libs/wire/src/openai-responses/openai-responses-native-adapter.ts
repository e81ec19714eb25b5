import { upstreamError } from '../errors/relay-error';
import type { NativeAdapter, NativeBuildArgs } from '../hub/native-adapter';
import type { UpstreamRequest, UpstreamTarget } from '../hub/provider-adapter';
import { isJsonObject, type JsonObject } from '../json/json-checks';
import { replaceTopLevelString } from '../json/replace-top-level-string';
import { mapOpenAiErrorResponse } from '../openai-chat/openai-error';
import { readResponsesUsage } from './read-responses-usage';
import { ResponsesPassthroughStream } from './responses-passthrough-stream';
import { withPublicModel } from './rewrite-response-model';

const trimBase = (baseUrl: string): string => baseUrl.replace(/\/+$/, '');

/**
 * The caller's bytes, with the channel's model name swapped in when it maps the model (every
 * other byte as sent); the parsed request, serialised, when an assistant changed it.
 */
function bodyFor({ body, rawBody, upstreamModel }: NativeBuildArgs): string | Buffer {
  if (rawBody) {
    if (body['model'] === upstreamModel) return rawBody;
    const mapped = replaceTopLevelString(rawBody, 'model', upstreamModel);
    if (mapped) return mapped;
  }
  return JSON.stringify({ ...body, model: upstreamModel });
}

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
export function buildOpenaiResponsesRequest({ channel, key, method, path }: OpenaiResponsesProxyArgs): UpstreamRequest & { method: 'GET' | 'DELETE' | 'POST' } {
  const relative = path.startsWith('/') ? path : `/${path}`;
  const query = relative.includes('?') ? new URLSearchParams(relative.slice(relative.indexOf('?') + 1)) : undefined;
  return {
    method,
    url: `${trimBase(channel.baseUrl)}${relative}`,
    headers: { authorization: `Bearer ${key}`, accept: query?.get('stream') === 'true' ? 'text/event-stream' : 'application/json' },
    body: '',
  };
}

/**
 * A Responses caller on an `openai` channel whose upstream speaks the Responses API:
 * `POST {base_url}/responses` with the caller's own bytes (model mapped). The answer keeps every
 * item and field — reasoning, encrypted content, server-side state — only `model` is the caller's
 * name again. Errors have the Chat Completions shape and are mapped the same way.
 */
export const openaiResponsesNativeAdapter: NativeAdapter = {
  buildRequest: (args) => ({
    url: `${trimBase(args.channel.baseUrl)}/responses`,
    headers: {
      authorization: `Bearer ${args.key}`,
      'content-type': 'application/json',
      accept: args.stream ? 'text/event-stream' : 'application/json',
    },
    body: bodyFor(args),
  }),

  convertResponse(text, publicModel) {
    let response: JsonObject;
    try {
      const parsed: unknown = JSON.parse(text);
      if (!isJsonObject(parsed)) throw new Error('not an object');
      response = parsed;
    } catch {
      return { ok: false, error: upstreamError('The upstream provider sent a malformed response.', 'bad_response') };
    }
    const answer = withPublicModel(response, text, publicModel);
    return { ok: true, body: answer.body, text: answer.text, usage: readResponsesUsage(response['usage']), deliveredChars: text.length };
  },

  createStreamTransformer: (options) => new ResponsesPassthroughStream(options),
  mapErrorResponse: mapOpenAiErrorResponse,
};
