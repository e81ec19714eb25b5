import type { FinishReason } from '@chat-relay/contract';

/** The stop reasons of the Messages API (2023-06-01) as of this writing. */
export const ANTHROPIC_STOP_REASONS = [
  'end_turn',
  'stop_sequence',
  'max_tokens',
  'model_context_window_exceeded',
  'tool_use',
  'pause_turn',
  'refusal',
] as const;
export type AnthropicStopReason = (typeof ANTHROPIC_STOP_REASONS)[number];

const isKnownStopReason = (reason: string): reason is AnthropicStopReason =>
  (ANTHROPIC_STOP_REASONS as readonly string[]).includes(reason);

/**
 * Anthropic `stop_reason` → OpenAI `finish_reason`. `pause_turn` (a long server-side turn cut
 * short, to be continued by sending it back) is reported as `length`: the answer is incomplete.
 * A missing or unknown reason reads as `stop`, the end of a normal answer.
 */
export function mapAnthropicStopReason(reason: string | null | undefined): FinishReason {
  if (!reason || !isKnownStopReason(reason)) return 'stop';
  switch (reason) {
    case 'end_turn':
    case 'stop_sequence':
      return 'stop';
    case 'max_tokens':
    case 'model_context_window_exceeded':
    case 'pause_turn':
      return 'length';
    case 'tool_use':
      return 'tool_calls';
    case 'refusal':
      return 'content_filter';
    default: {
      const unhandled: never = reason;
      throw new Error(`unhandled Anthropic stop reason ${String(unhandled)}`);
    }
  }
}

/**
 * The caller's finish reason for an answer: `tool_use` becomes `stop` when the only tool used
 * was the relay's own JSON-response tool (response_format), whose input the caller got as text.
 */
export function finishReasonFor(reason: string | null | undefined, callerToolCalls: number): FinishReason {
  const mapped = mapAnthropicStopReason(reason);
  return mapped === 'tool_calls' && callerToolCalls === 0 ? 'stop' : mapped;
}
