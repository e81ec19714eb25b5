export { convertResponsesToChat, type ConvertedResponsesRequest } from './convert-responses-to-chat';
export { convertChatToResponse, responseUsageFromChat, type ConvertChatToResponseArgs, type NewItemId } from './convert-chat-to-response';
export { ChatToResponsesStream, type ChatToResponsesStreamOptions } from './chat-to-responses-stream';
export { responsesErrorCode } from './responses-error-code';
export {
  withWebSearchSources,
  webSearchCallItem,
  WEB_SEARCH_SOURCES_MAX_BYTES,
  type WebSearchPlan,
  type WebSearchOutcome,
} from './bridge-web-search';
