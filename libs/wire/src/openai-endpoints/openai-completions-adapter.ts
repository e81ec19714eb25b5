import type { EndpointAdapter, EndpointBuildArgs } from '../hub/endpoint-adapter';
import { nativeRequestBody } from '../hub/native-request-body';
import { isJsonObject } from '../json/json-checks';
import { replaceTopLevelString } from '../json/replace-top-level-string';
import { mapOpenAiErrorResponse } from '../openai-chat/upstream/openai-error';
import { readUsage } from '../openai-chat/upstream/read-openai-chunk';
import { CompletionStreamTransformer } from './completion-stream-transformer';
import {
  malformedAnswer,
  NO_USAGE,
  openAiEndpointCall,
  readJsonObject,
  textsOf,
  uncountedUsage,
  withPublicModel,
  type JsonRequest,
} from './endpoint-common';

const ASK_FOR_USAGE = Buffer.from(',"stream_options":{"include_usage":true}');

/**
 * The body of a `/completions` call: the caller's bytes (model swapped), and on a stream usage
 * asked for so the relay can account — appended to the bytes when the caller sent no
 * `stream_options`, else the request serialised with `include_usage: true` added.
 */
export function completionRequestBody({ request, rawBody, upstreamModel }: EndpointBuildArgs<JsonRequest>): string | Buffer {
  const streamOptions = request['stream_options'];
  const callerAsked = isJsonObject(streamOptions) && streamOptions['include_usage'] === true;
  if (request['stream'] !== true || callerAsked) return nativeRequestBody({ body: request, rawBody, upstreamModel });
  if (rawBody && streamOptions === undefined) {
    const mapped = request['model'] === upstreamModel ? rawBody : replaceTopLevelString(rawBody, 'model', upstreamModel);
    const end = mapped ? lastNonSpace(mapped) : -1;
    // A valid request has at least `model` and `prompt`, so a comma fits before its closing brace.
    if (mapped && mapped[end] === 0x7d) return Buffer.concat([mapped.subarray(0, end), ASK_FOR_USAGE, mapped.subarray(end)]);
  }
  const options = isJsonObject(streamOptions) ? streamOptions : {};
  return JSON.stringify({ ...request, model: upstreamModel, stream_options: { ...options, include_usage: true } });
}

function lastNonSpace(bytes: Buffer): number {
  let index = bytes.length - 1;
  while (index >= 0 && (bytes[index] === 0x20 || bytes[index] === 0x0a || bytes[index] === 0x0d || bytes[index] === 0x09)) index -= 1;
  return index;
}

/** `/completions` on an OpenAI-compatible channel: passed through, streamed or not. */
export const openAiCompletionsAdapter: EndpointAdapter<JsonRequest> = {
  endpoint: 'completions',
  buildRequest: (args) => {
    const call = openAiEndpointCall('completions', args.key, args.channel.baseUrl);
    const stream = args.request['stream'] === true;
    return {
      url: call.url,
      headers: { ...call.headers, 'content-type': 'application/json', accept: stream ? 'text/event-stream' : 'application/json' },
      body: completionRequestBody(args),
    };
  },
  convertResponse: (text, { request, publicModel }) => {
    const read = readJsonObject(text, 'completion');
    if (!read.ok) return read;
    const usage = readUsage(read.json['usage']);
    if (!Array.isArray(read.json['choices']) || usage === false) return { ok: false, error: malformedAnswer('completion') };
    const answer = withPublicModel(text, read.json, publicModel);
    return {
      ok: true,
      kind: 'json',
      ...answer,
      // No usage (a server that does not count): the relay counts the prompt itself.
      usage: usage
        ? { ...NO_USAGE, promptTokens: usage.promptTokens, completionTokens: usage.completionTokens }
        : uncountedUsage(textsOf(request['prompt']).join('\n')),
    };
  },
  createStreamTransformer: (options) => new CompletionStreamTransformer(options),
  mapErrorResponse: mapOpenAiErrorResponse,
};
