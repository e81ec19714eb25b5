import { geminiNativeAdapter } from '../gemini/native/gemini-native-adapter';
import { geminiAdapter } from '../gemini/upstream/gemini-adapter';
import type { NativeAdapter } from '../hub/native-adapter';
import type { ProviderAdapter } from '../hub/provider-adapter';
import type { UpstreamRequest, UpstreamTarget } from '../hub/upstream-adapter';
import type { JsonObject } from '../json/json-checks';
import { vertexAuthHeaders } from '../providers/provider-auth';
import { toVertexGeminiBody } from './vertex-gemini-body';
import { mapVertexErrorResponse } from './vertex-error';
import { vertexModelUrl } from './vertex-url';

/** `:generateContent`, or `:streamGenerateContent?alt=sse` — Vertex streams JSON arrays without `alt=sse`. */
const geminiMethod = (stream: boolean): string => (stream ? 'streamGenerateContent?alt=sse' : 'generateContent');

/**
 * A Gemini call on Vertex: `…/publishers/google/models/{model}:generateContent` with the body
 * made Vertex's. No key header: the server adds the service account's bearer token.
 */
function vertexGeminiRequest(channel: UpstreamTarget, key: string, model: string, stream: boolean, body: Readonly<JsonObject>): UpstreamRequest {
  return {
    url: vertexModelUrl({ channel, key, publisher: 'google', model, method: geminiMethod(stream) }),
    headers: { ...vertexAuthHeaders(key), 'content-type': 'application/json', accept: stream ? 'text/event-stream' : 'application/json' },
    body: JSON.stringify(toVertexGeminiBody(body)),
  };
}

/** Chat through the hub to Gemini on Vertex: the Gemini adapter's body and answers, Vertex's URL, auth and errors. */
export const vertexGeminiAdapter: ProviderAdapter = {
  buildRequest(args) {
    const gemini = geminiAdapter.buildRequest(args);
    const body = JSON.parse(String(gemini.body)) as JsonObject;
    const request = vertexGeminiRequest(args.channel, args.key, args.upstreamModel, args.request.stream === true, body);
    return gemini.warnings ? { ...request, warnings: gemini.warnings } : request;
  },
  convertResponse: (text, publicModel) => geminiAdapter.convertResponse(text, publicModel),
  createStreamTransformer: (options) => geminiAdapter.createStreamTransformer(options),
  mapErrorResponse: mapVertexErrorResponse,
};

/** A generateContent caller passed through to Gemini on Vertex: its body (roles filled, call ids left out), the answer as Gemini's native adapter reads it. */
export const vertexGeminiNativeAdapter: NativeAdapter = {
  buildRequest: ({ channel, key, body, upstreamModel, stream }) => vertexGeminiRequest(channel, key, upstreamModel, stream, body),
  convertResponse: (text, publicModel) => geminiNativeAdapter.convertResponse(text, publicModel),
  createStreamTransformer: (options) => geminiNativeAdapter.createStreamTransformer(options),
  mapErrorResponse: mapVertexErrorResponse,
};
