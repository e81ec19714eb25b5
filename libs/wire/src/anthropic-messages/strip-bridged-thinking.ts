import type { AnthropicMessagesPrompt } from '@chat-relay/contract';
import { BRIDGED_THINKING_SIGNATURE } from './bridged-thinking-signature';

const isBridgedThinking = (block: unknown): boolean =>
  typeof block === 'object' &&
  block !== null &&
  (block as { type?: unknown }).type === 'thinking' &&
  (block as { signature?: unknown }).signature === BRIDGED_THINKING_SIGNATURE;

/**
 * The request without the thinking blocks the relay made from another provider's reasoning:
 * their signature is not Anthropic's, and Anthropic refuses the whole request for one of them.
 * The same object when there are none (the caller's bytes may then still be forwarded).
 */
export function stripBridgedThinking<T extends AnthropicMessagesPrompt>(request: T): T {
  const touched = request.messages.some((message) => Array.isArray(message.content) && message.content.some(isBridgedThinking));
  if (!touched) return request;
  const messages = request.messages.map((message) =>
    Array.isArray(message.content) && message.content.some(isBridgedThinking)
      ? { ...message, content: message.content.filter((block) => !isBridgedThinking(block)) }
      : message,
  );
  return { ...request, messages };
}
