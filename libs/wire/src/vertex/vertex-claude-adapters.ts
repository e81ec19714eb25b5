import { anthropicNativeAdapter } from '../anthropic-messages/native/anthropic-native-adapter';
import { anthropicAdapter } from '../anthropic-messages/upstream/anthropic-adapter';
import type { NativeAdapter, NativeBuildArgs } from '../hub/native-adapter';
import type { ProviderAdapter } from '../hub/provider-adapter';
import type { UpstreamRequest, UpstreamTarget } from '../hub/upstream-adapter';
import { invalidRequest } from '../errors/relay-error';
import type { JsonObject } from '../json/json-checks';
import { vertexAuthHeaders } from '../providers/provider-auth';
import { mapVertexErrorResponse } from './vertex-error';
import { isVertexClaude, vertexModelUrl } from './vertex-url';

/** The Messages API version Vertex's Claude takes, in the body (https://cloud.google.com/vertex-ai/generative-ai/docs/partner-models/claude/use-claude). */
export const VERTEX_ANTHROPIC_VERSION = 'vertex-2023-10-16';

/**
 * A Messages body as Vertex takes it: the model is in the URL, so `model` is left out (Vertex
 * refuses it); `anthropic_version: "vertex-2023-10-16"` added; `stream` kept — streamRawPredict
 * takes `stream: true` in the body, as Anthropic's own Vertex SDK sends it
 * (anthropic-sdk-typescript packages/vertex-sdk/src/client.ts).
 */
export function toVertexMessagesBody(body: Readonly<JsonObject>): JsonObject {
  const { model: _model, anthropic_version: _version, ...rest } = body;
  return { anthropic_version: VERTEX_ANTHROPIC_VERSION, ...rest };
}

/** No `x-api-key` or `anthropic-version` header: the version is in the body, the server adds the bearer. */
function vertexClaudeHeaders(key: string, stream: boolean, beta: string | undefined): Record<string, string> {
  return {
    ...vertexAuthHeaders(key),
    'content-type': 'application/json',
    accept: stream ? 'text/event-stream' : 'application/json',
    ...(beta ? { 'anthropic-beta': beta } : {}),
  };
}

interface VertexClaudeCall {
  channel: UpstreamTarget;
  key: string;
  model: string;
  stream: boolean;
  body: Readonly<JsonObject>;
  beta?: string | undefined;
}

function vertexClaudeRequest({ channel, key, model, stream, body, beta }: VertexClaudeCall): UpstreamRequest {
  const { stream: _stream, ...rest } = body;
  return {
    url: vertexModelUrl({ channel, key, publisher: 'anthropic', model, method: stream ? 'streamRawPredict' : 'rawPredict' }),
    headers: vertexClaudeHeaders(key, stream, beta),
    body: JSON.stringify(toVertexMessagesBody(stream ? { ...rest, stream: true } : rest)),
  };
}

/** Chat through the hub to Claude on Vertex: the Anthropic adapter's body and answers (SSE streams, Anthropic's events), at `:rawPredict` / `:streamRawPredict`. */
export const vertexClaudeAdapter: ProviderAdapter = {
  buildRequest(args) {
    const anthropic = anthropicAdapter.buildRequest(args);
    const body = JSON.parse(String(anthropic.body)) as JsonObject;
    const request = vertexClaudeRequest({ channel: args.channel, key: args.key, model: args.upstreamModel, stream: args.request.stream === true, body });
    return anthropic.warnings ? { ...request, warnings: anthropic.warnings } : request;
  },
  convertResponse: (text, publicModel) => anthropicAdapter.convertResponse(text, publicModel),
  createStreamTransformer: (options) => anthropicAdapter.createStreamTransformer(options),
  mapErrorResponse: mapVertexErrorResponse,
};

/**
 * A Messages caller passed through to Claude on Vertex: its body (model out, Vertex's version
 * in), its `anthropic-beta` header as a header — Vertex honours the betas it documents, e.g.
 * `context-1m-2025-08-07` (https://cloud.google.com/vertex-ai/generative-ai/docs/partner-models/claude/use-claude).
 * The caller's `anthropic-version` header is not sent: Vertex reads the body's.
 */
export const vertexClaudeNativeAdapter: NativeAdapter = {
  buildRequest: ({ channel, key, body, upstreamModel, headers, stream }) =>
    vertexClaudeRequest({ channel, key, model: upstreamModel, stream, body, beta: headers['anthropic-beta'] }),
  convertResponse: (text, publicModel) => anthropicNativeAdapter.convertResponse(text, publicModel),
  createStreamTransformer: (options) => anthropicNativeAdapter.createStreamTransformer(options),
  mapErrorResponse: mapVertexErrorResponse,
};

/**
 * Claude's own token count on Vertex: `POST …/publishers/anthropic/models/count-tokens:rawPredict`
 * with the caller's request, `model` naming the Claude model and Vertex's version in the body
 * (https://cloud.google.com/vertex-ai/generative-ai/docs/partner-models/claude/count-tokens);
 * Anthropic's `{"input_tokens": N}` comes back.
 */
export function buildVertexClaudeCountTokensRequest({ channel, key, body, upstreamModel, headers }: NativeBuildArgs): UpstreamRequest {
  // One counter per channel type, whatever model the channel maps to: a Gemini model is refused here, not sent to Claude's endpoint.
  if (!isVertexClaude(upstreamModel)) {
    throw invalidRequest(`count_tokens on a Vertex AI channel counts Claude models only; '${upstreamModel}' is not one.`, 'model', 'unsupported_model');
  }
  const { stream: _stream, ...counted } = body;
  return {
    url: vertexModelUrl({ channel, key, publisher: 'anthropic', model: 'count-tokens', method: 'rawPredict' }),
    headers: vertexClaudeHeaders(key, false, headers['anthropic-beta']),
    body: JSON.stringify({ ...toVertexMessagesBody(counted), model: upstreamModel }),
  };
}
