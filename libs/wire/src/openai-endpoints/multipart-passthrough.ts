import { invalidRequest } from '../errors/relay-error';
import type { EndpointBuildArgs, MultipartRequest } from '../hub/endpoint-adapter';
import type { UpstreamRequest } from '../hub/upstream-adapter';
import { openAiEndpointCall } from './endpoint-common';

/** The last value of a form field (a repeated single-valued field: the last one wins, as in OpenAI's parser). */
export function fieldOf(request: MultipartRequest, name: string): string | undefined {
  let value: string | undefined;
  for (const [field, text] of request.fields) if (field === name) value = text;
  return value;
}

/**
 * A multipart call to an OpenAI-compatible route: the same fields in the same order with `model`
 * set to the channel's name (added when the caller sent none), the files in their own fields.
 */
export function openAiMultipartPassthrough(path: string, { channel, key, request, upstreamModel }: EndpointBuildArgs<MultipartRequest>): UpstreamRequest {
  const hasModel = request.fields.some(([name]) => name === 'model');
  const fields = request.fields.map(([name, value]) => (name === 'model' ? (['model', upstreamModel] as const) : ([name, value] as const)));
  return {
    ...openAiEndpointCall(path, key, channel.baseUrl),
    body: {
      kind: 'multipart',
      fields: hasModel ? fields : [['model', upstreamModel], ...fields],
      files: request.files.map((file) => ({ field: file.field, file })),
    },
  };
}

/**
 * Streamed image and transcription answers (server-sent events) are not relayed on these routes:
 * refused by name rather than answered with a body the relay cannot read.
 */
export function refuseStream(stream: unknown, route: string): void {
  if (stream === true || stream === 'true') {
    throw invalidRequest(`'stream' is not supported on ${route}: the relay answers it in one piece.`, 'stream', 'unsupported_parameter');
  }
}
