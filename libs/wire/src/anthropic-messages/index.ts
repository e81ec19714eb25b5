export { anthropicAdapter, ANTHROPIC_VERSION } from './anthropic-adapter';
export { BRIDGED_THINKING_SIGNATURE } from './bridged-thinking-signature';
export { convertMessagesToChat, type ConvertedMessagesRequest } from './convert-messages-to-chat';
export { convertChatToMessage, type ConvertChatToMessageArgs } from './convert-chat-to-message';
export { ChatToMessagesStream, type ChatToMessagesStreamOptions } from './chat-to-messages-stream';
