export { convertResponsesToChat, type ConvertedResponsesRequest } from './caller/convert-responses-to-chat';
export { convertChatToResponse, responseUsageFromChat, type ConvertChatToResponseArgs, type NewItemId } from './caller/convert-chat-to-response';
export { ChatToResponsesStream, type ChatToResponsesStreamOptions } from './caller/chat-to-responses-stream';
export { responsesErrorCode } from './caller/responses-error-code';
export {
  webSearchCallItem,
  webSearchQueryOf,
  webSearchRequestOf,
  webSearchResultText,
  WEB_SEARCH_LIMIT_TEXT,
  withoutWebSearchFunction,
  WEB_SEARCH_SOURCES_MAX_BYTES,
  type WebSearchPlan,
  type WebSearchOutcome,
} from './caller/bridge-web-search';
