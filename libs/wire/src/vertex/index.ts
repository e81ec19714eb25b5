export { vertexClaudeAdapter, vertexClaudeNativeAdapter, buildVertexClaudeCountTokensRequest, toVertexMessagesBody, VERTEX_ANTHROPIC_VERSION } from './vertex-claude-adapters';
export { vertexGeminiAdapter, vertexGeminiNativeAdapter } from './vertex-gemini-adapters';
export { toVertexGeminiBody } from './vertex-gemini-body';
export { vertexCompletionsAdapter } from './vertex-completions-adapter';
export { vertexEmbeddingsAdapter } from './vertex-embeddings-adapter';
export { mapVertexErrorResponse } from './vertex-error';
export { vertexModelList } from './vertex-model-list';
export { isVertexClaude, vertexHostOf, vertexModelUrl, vertexRegionOf, VERTEX_GLOBAL_HOST } from './vertex-url';
