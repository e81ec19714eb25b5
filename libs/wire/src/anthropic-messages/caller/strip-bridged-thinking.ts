import type { AnthropicMessageParam, AnthropicMessagesPrompt } from '@chat-relay/contract';
import { BRIDGED_THINKING_SIGNATURE } from './bridged-thinking-signature';

const isBridgedThinking = (block: unknown): boolean =>
  typeof block === 'object' &&
  block !== null &&
  (block as { type?: unknown }).type === 'thinking' &&
  (block as { signature?: unknown }).signature === BRIDGED_THINKING_SIGNATURE;

const hasBridgedThinking = (message: AnthropicMessageParam): boolean =>
  Array.isArray(message.content) && message.content.some(isBridgedThinking);

type Content = Exclude<AnthropicMessageParam['content'], string>;
const blocksOf = (content: AnthropicMessageParam['content']): Content =>
  typeof content === 'string' ? [{ type: 'text', text: content }] : content;

/**
 * The request without the thinking blocks the relay made from another provider's reasoning:
 * their signature is not Anthropic's, and Anthropic refuses the whole request for one of them.
 * An assistant turn that held nothing else is dropped, and the user turns around it joined, so
 * the conversation still alternates. The same object when there are none (the caller's bytes may
 * then still be forwarded).
 */
export function stripBridgedThinking<T extends AnthropicMessagesPrompt>(request: T): T {
  if (!request.messages.some(hasBridgedThinking)) return request;
  const messages: AnthropicMessageParam[] = [];
  let joinNext = false;
  for (const message of request.messages) {
    const kept = hasBridgedThinking(message) ? { ...message, content: blocksOf(message.content).filter((block) => !isBridgedThinking(block)) } : message;
    if (Array.isArray(kept.content) && kept.content.length === 0) {
      joinNext = true;
      continue;
    }
    const previous = messages.at(-1);
    if (joinNext && previous && previous.role === kept.role) {
      messages[messages.length - 1] = { ...previous, content: [...blocksOf(previous.content), ...blocksOf(kept.content)] } as AnthropicMessageParam;
    } else {
      messages.push(kept as AnthropicMessageParam);
    }
    joinNext = false;
  }
  return { ...request, messages };
}
