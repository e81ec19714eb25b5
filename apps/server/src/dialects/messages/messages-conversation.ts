import { AnthropicMessagesRequestSchema, type AnthropicMessagesRequest } from '@chat-relay/contract';
import { convertMessagesToChat } from '@chat-relay/wire';
import type { NativeConversation } from '../../pipeline/let-go-of-conversation';

/**
 * A Messages request's conversation, read again from the caller's bytes while an answer that
 * passed them through is awaited: the body through the route's own schema, the hub's messages
 * through the route's own conversion (system prompt first, as the route made them).
 */
export const messagesConversation: NativeConversation = {
  field: 'messages',
  parse: (rawBody) => AnthropicMessagesRequestSchema.parse(JSON.parse(rawBody.toString('utf8'))),
  hubMessages: (body) => convertMessagesToChat(body as AnthropicMessagesRequest).request.messages,
};
