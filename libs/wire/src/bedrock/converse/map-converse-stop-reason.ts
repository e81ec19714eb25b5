import type { FinishReason } from '@chat-relay/contract';

/**
 * Converse `stopReason` → OpenAI `finish_reason`
 * (https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_Converse.html#API_runtime_Converse_ResponseSyntax):
 * end_turn and stop_sequence → stop, tool_use → tool_calls, max_tokens and
 * model_context_window_exceeded → length, guardrail_intervened and content_filtered →
 * content_filter. `malformed_model_output` and `malformed_tool_use` are no answer at all: the
 * caller gets an upstream error (undefined here). An unknown reason reads as `stop`.
 */
export function mapConverseStopReason(reason: string): FinishReason | undefined {
  switch (reason) {
    case 'end_turn':
    case 'stop_sequence':
      return 'stop';
    case 'tool_use':
      return 'tool_calls';
    case 'max_tokens':
    case 'model_context_window_exceeded':
      return 'length';
    case 'guardrail_intervened':
    case 'content_filtered':
      return 'content_filter';
    case 'malformed_model_output':
    case 'malformed_tool_use':
      return undefined;
    default:
      return 'stop';
  }
}
