import { AnthropicMessagesRequestSchema, ChatCompletionRequestSchema, type AnthropicMessagesRequest } from '@chat-relay/contract';
import { convertMessagesToChat, type ConvertedMessagesRequest } from '../caller/convert-messages-to-chat';

/** A Messages request as the route would have parsed it, with defaults for what a spec does not care about. */
export const messagesRequest = (fields: Record<string, unknown>): AnthropicMessagesRequest =>
  AnthropicMessagesRequestSchema.parse({
    model: 'claude-x',
    max_tokens: 1024,
    messages: [{ role: 'user', content: 'Hi' }],
    ...fields,
  });

/** Converts a Messages request and checks the hub request is one the contract itself accepts. */
export function bridgeRequest(fields: Record<string, unknown>): ConvertedMessagesRequest {
  const converted = convertMessagesToChat(messagesRequest(fields));
  const reparsed = ChatCompletionRequestSchema.safeParse(converted.request);
  expect(reparsed.success ? [] : reparsed.error.issues).toEqual([]);
  return converted;
}

/** The hub messages of a request with these Messages `messages`. */
export const bridgedMessages = (messages: unknown[], fields: Record<string, unknown> = {}) =>
  bridgeRequest({ messages, ...fields }).request.messages;
