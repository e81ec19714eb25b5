// Pure wire formats: schemas and converters between each provider's dialect and the hub (Chat
// Completions). No I/O here — the server sends, receives and accounts.
// Each dialect folder is split by role: `upstream/` talks to a provider of that dialect, `caller/`
// serves a caller speaking it (through the hub), `native/` passes it through to a provider
// speaking it too; what the roles share (its API schemas) stays at the folder's root.
// `providers/<type>.ts` assembles, per channel type, everything the relay uses to talk to it.
export * from './errors/relay-error';
export * from './errors/key-rejection';
export * from './errors/redact-secrets';
export * from './errors/redact-upstream-error';
export * from './models';
export * from './adjust';
export * from './bridge-losses';
export * from './hub/upstream-adapter';
export * from './hub/bridge-loss';
export * from './hub/provider-adapter';
export * from './json/json-checks';
export { openAiAdapter } from './openai-chat/upstream/openai-adapter';
export { OpenAiStreamTransformer } from './openai-chat/upstream/openai-stream-transformer';
export {
  anthropicAdapter,
  ANTHROPIC_VERSION,
  BRIDGED_THINKING_SIGNATURE,
  convertMessagesToChat,
  type ConvertedMessagesRequest,
  convertChatToMessage,
  type ConvertChatToMessageArgs,
  ChatToMessagesStream,
  type ChatToMessagesStreamOptions,
} from './anthropic-messages';
export { geminiAdapter } from './gemini';
export {
  convertGenerateContentToChat,
  dropRepeatedFunctionResponses,
  type ConvertedGenerateContent,
  type ConvertGenerateContentArgs,
  convertChatToGenerateContent,
  type ConvertChatToGenerateContentArgs,
  ChatToGeminiStream,
  type ChatToGeminiStreamOptions,
  geminiNativeAdapter,
  toGeminiError,
  type GeminiErrorAnswer,
  convertEmbedContentsToEmbeddings,
  convertEmbeddingsToGemini,
  type BridgedEmbeddingRequest,
  type ConvertedEmbedContents,
  type ConvertEmbedContentsArgs,
} from './gemini';
export {
  convertResponsesToChat,
  type ConvertedResponsesRequest,
  convertChatToResponse,
  responseUsageFromChat,
  type ConvertChatToResponseArgs,
  type NewItemId,
  ChatToResponsesStream,
  type ChatToResponsesStreamOptions,
  responsesErrorCode,
  webSearchCallItem,
  webSearchQueryOf,
  webSearchRequestOf,
  webSearchResultText,
  WEB_SEARCH_LIMIT_TEXT,
  withoutWebSearchFunction,
  WEB_SEARCH_SOURCES_MAX_BYTES,
  type WebSearchPlan,
  type WebSearchOutcome,
} from './openai-responses';
export * from './hub/chunk-transformer';
export * from './hub/native-adapter';
export { anthropicNativeAdapter, buildAnthropicCountTokensRequest, ANTHROPIC_FORWARDED_HEADERS } from './anthropic-messages/native/anthropic-native-adapter';
export { toAnthropicError, type AnthropicErrorAnswer, type AnthropicErrorType } from './anthropic-messages/caller/anthropic-error-body';
export * from './hub/chain-transformers';
export * from './hub/sse-event-reader';
export * from './hub/relay-function-calls';
export { stripBridgedThinking } from './anthropic-messages/caller/strip-bridged-thinking';
export * from './openai-responses/native';
export * from './hub/endpoint-adapter';
export * from './providers';
export * from './tasks';
export * from './search';
export * from './passthrough';
export * from './aws/aws-event-stream';
