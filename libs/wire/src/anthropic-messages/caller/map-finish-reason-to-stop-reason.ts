import { FinishReasonSchema, type AnthropicStopReason, type FinishReason } from '@chat-relay/contract';

const isFinishReason = (reason: string): reason is FinishReason => FinishReasonSchema.safeParse(reason).success;

function mapKnown(reason: FinishReason): AnthropicStopReason {
  switch (reason) {
    case 'stop':
      return 'end_turn';
    case 'length':
      return 'max_tokens';
    case 'tool_calls':
    case 'function_call':
      return 'tool_use';
    case 'content_filter':
      return 'refusal';
    default: {
      const unhandled: never = reason;
      throw new Error(`unhandled finish reason ${String(unhandled)}`);
    }
  }
}

/**
 * The hub's `finish_reason` → a Messages `stop_reason`. Documented mapping: stop → end_turn
 * (Chat Completions does not say whether a stop sequence matched, so `stop_sequence` is never
 * claimed); length → max_tokens; tool_calls / function_call → tool_use; content_filter →
 * refusal; a missing or unknown reason → end_turn. An answer that called tools but says
 * end_turn (some servers send `stop`, some nothing) reads as tool_use, as Anthropic reports it.
 */
export function mapFinishReasonToStopReason(reason: string | null | undefined, calledTools: boolean): AnthropicStopReason {
  const mapped = reason !== null && reason !== undefined && isFinishReason(reason) ? mapKnown(reason) : 'end_turn';
  return mapped === 'end_turn' && calledTools ? 'tool_use' : mapped;
}
