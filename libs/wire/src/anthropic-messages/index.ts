export { anthropicAdapter } from './upstream/anthropic-adapter';
export { ANTHROPIC_VERSION } from '../providers/provider-auth';
export { BRIDGED_THINKING_SIGNATURE } from './caller/bridged-thinking-signature';
export { convertMessagesToChat, type ConvertedMessagesRequest } from './caller/convert-messages-to-chat';
export { convertChatToMessage, type ConvertChatToMessageArgs } from './caller/convert-chat-to-message';
export { ChatToMessagesStream, type ChatToMessagesStreamOptions } from './caller/chat-to-messages-stream';
