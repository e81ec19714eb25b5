export { anthropicAdapter, ANTHROPIC_VERSION } from './upstream/anthropic-adapter';
export { BRIDGED_THINKING_SIGNATURE } from './caller/bridged-thinking-signature';
export { convertMessagesToChat, type ConvertedMessagesRequest } from './caller/convert-messages-to-chat';
export { convertChatToMessage, type ConvertChatToMessageArgs } from './caller/convert-chat-to-message';
export { ChatToMessagesStream, type ChatToMessagesStreamOptions } from './caller/chat-to-messages-stream';
