import type { AnthropicContentBlock, AnthropicMessage, ChatCompletion } from '@chat-relay/contract';
import { isJsonObject } from '../../json/json-checks';
import { BRIDGED_THINKING_SIGNATURE } from './bridged-thinking-signature';
import { convertChatUsageToAnthropic } from './convert-chat-usage-to-anthropic';
import { mapFinishReasonToStopReason } from './map-finish-reason-to-stop-reason';
import { bridgedToolId, reasoningTextOf } from '../reasoning-text-of';
import { toMessageId } from './to-message-id';

export interface ConvertChatToMessageArgs {
  /** The hub's answer (an upstream adapter's `convertResponse` body). */
  completion: ChatCompletion;
  /** The model name the caller sent, which the answer carries. */
  publicModel: string;
}

/**
 * Tool-call arguments → the `input` object Anthropic requires. Documented mapping: arguments
 * that are empty, not JSON, or JSON but not an object (a server's malformed or cut-off call)
 * become `{}` — a Message cannot carry them; the streamed bridge passes the raw text on instead.
 */
export function toolInputOf(args: string): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(args);
    return isJsonObject(parsed) ? parsed : {};
  } catch {
    return {};
  }
}

/**
 * A hub `chat.completion` (its first choice) → a Messages API `message`: a thinking block first
 * when the message has reasoning text (signed with BRIDGED_THINKING_SIGNATURE), then the text,
 * then the refusal text, each only when non-empty (never an empty text block), then one
 * `tool_use` block per function call with its id and parsed arguments. Usage: see
 * convertChatUsageToAnthropic; stop reason: see mapFinishReasonToStopReason.
 */
export function convertChatToMessage({ completion, publicModel }: ConvertChatToMessageArgs): AnthropicMessage {
  const choice = completion.choices[0];
  const message = choice?.message;
  const content: AnthropicContentBlock[] = [];
  const reasoning = message ? reasoningTextOf(message) : '';
  if (reasoning !== '') content.push({ type: 'thinking', thinking: reasoning, signature: BRIDGED_THINKING_SIGNATURE });
  if (message?.content) content.push({ type: 'text', text: message.content });
  if (message?.refusal) content.push({ type: 'text', text: message.refusal });
  let calls = 0;
  // Only function calls can come back: the bridge sends function tools only.
  for (const call of message?.tool_calls ?? []) {
    if (call.type !== 'function') continue;
    const id = call.id === '' ? bridgedToolId(calls) : call.id;
    content.push({ type: 'tool_use', id, name: call.function.name, input: toolInputOf(call.function.arguments) });
    calls += 1;
  }
  return {
    id: toMessageId(completion.id),
    type: 'message',
    role: 'assistant',
    model: publicModel,
    content,
    stop_reason: mapFinishReasonToStopReason(choice?.finish_reason, calls > 0),
    stop_sequence: null,
    usage: convertChatUsageToAnthropic(completion.usage),
  };
}
