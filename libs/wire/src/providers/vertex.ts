import {
  buildVertexClaudeCountTokensRequest,
  isVertexClaude,
  mapVertexErrorResponse,
  vertexClaudeAdapter,
  vertexClaudeNativeAdapter,
  vertexCompletionsAdapter,
  vertexEmbeddingsAdapter,
  vertexGeminiAdapter,
  vertexGeminiNativeAdapter,
  vertexModelList,
} from '../vertex';
import { modelListProbe, type ChannelProvider } from './channel-provider';
import { vertexAuthHeaders } from './provider-auth';

export { vertexAuthHeaders };

/**
 * Google Vertex AI: Gemini through generateContent and Claude through rawPredict, on one channel
 * — the adapter picked by the upstream model (`claude-*` is Anthropic's). Completions bridge
 * through whichever answers the model; embeddings through a text embedding model's `predict`.
 * Messages callers on a Claude model and generateContent callers on a Gemini model pass through;
 * Claude counts a Messages request's tokens.
 */
export const vertexProvider: ChannelProvider = {
  chat: vertexGeminiAdapter,
  chatFor: (upstreamModel) => (isVertexClaude(upstreamModel) ? vertexClaudeAdapter : vertexGeminiAdapter),
  json: {
    completions: vertexCompletionsAdapter,
    embeddings: vertexEmbeddingsAdapter,
  },
  nativeFor: (dialect, upstreamModel) => {
    const claude = isVertexClaude(upstreamModel);
    if (dialect === 'messages') return claude ? vertexClaudeNativeAdapter : undefined;
    if (dialect === 'generate_content') return claude ? undefined : vertexGeminiNativeAdapter;
    return undefined;
  },
  modelList: vertexModelList,
  // Claude's count only: a Gemini model's Messages request cannot be counted by it (see the report of issue 31).
  tokenCounter: { dialect: 'messages', counts: isVertexClaude, buildRequest: buildVertexClaudeCountTokensRequest, mapErrorResponse: mapVertexErrorResponse },
  probe: modelListProbe(vertexModelList),
};
