import type { FunctionToolCall } from '@chat-relay/contract';
import { argumentsPieceLength, type AnswerContent } from '../build-chat-completion';
import { splitIntoPieces, splitIntoStreamTokens } from '../tokens';
import type {
  AnthropicMessageResponse,
  AnthropicStreamEvent,
  AnthropicUsage,
  ResponseContentBlock,
  StopReason,
} from './anthropic-api';

export interface AnthropicMeta {
  /** `msg_…` */
  id: string;
  model: string;
}

type ToolUseBlock = Extract<ResponseContentBlock, { type: 'tool_use' }>;

function stopReasonOf(plan: AnswerContent): StopReason {
  if (plan.kind === 'tool_calls') return 'tool_use';
  switch (plan.finishReason) {
    case 'stop':
      return 'end_turn';
    case 'length':
      return 'max_tokens';
    default: {
      const unexpected: never = plan.finishReason;
      throw new Error(`unhandled finish reason ${String(unexpected)}`);
    }
  }
}

/** `call_<hex>` → `toolu_<hex>`: the same stable id, in Anthropic's alphabet. */
function toolUseOf(call: FunctionToolCall): ToolUseBlock {
  const input: unknown = JSON.parse(call.function.arguments);
  return {
    type: 'tool_use',
    id: call.id.replace(/^call_/, 'toolu_'),
    name: call.function.name,
    input: typeof input === 'object' && input !== null && !Array.isArray(input) ? { ...input } : {},
  };
}

function textOfPlan(plan: AnswerContent): string | undefined {
  return plan.kind === 'text' ? plan.content : plan.preamble;
}

function usageOf(plan: AnswerContent, outputTokens: number): AnthropicUsage {
  return {
    input_tokens: plan.usage.prompt_tokens,
    output_tokens: outputTokens,
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: 0,
  };
}

/** The non-streamed message: a text block when there is text, then one block per tool use. */
export function buildAnthropicMessage(plan: AnswerContent, meta: AnthropicMeta): AnthropicMessageResponse {
  const text = textOfPlan(plan);
  const toolUses = plan.kind === 'tool_calls' ? plan.toolCalls.map(toolUseOf) : [];
  return {
    id: meta.id,
    type: 'message',
    role: 'assistant',
    model: meta.model,
    content: [...(text !== undefined ? [{ type: 'text' as const, text }] : []), ...toolUses],
    stop_reason: stopReasonOf(plan),
    stop_sequence: null,
    usage: usageOf(plan, plan.usage.completion_tokens),
  };
}

function textBlockEvents(text: string, index: number): AnthropicStreamEvent[] {
  return [
    { type: 'content_block_start', index, content_block: { type: 'text', text: '' } },
    ...splitIntoStreamTokens(text).map(
      (token): AnthropicStreamEvent => ({ type: 'content_block_delta', index, delta: { type: 'text_delta', text: token } }),
    ),
    { type: 'content_block_stop', index },
  ];
}

/** Like the real API: the block opens with empty `input`, then `""`, then JSON fragments. */
function toolUseBlockEvents(toolUse: ToolUseBlock, index: number): AnthropicStreamEvent[] {
  const fragments = ['', ...splitIntoPieces(JSON.stringify(toolUse.input), argumentsPieceLength)];
  return [
    { type: 'content_block_start', index, content_block: { type: 'tool_use', id: toolUse.id, name: toolUse.name, input: {} } },
    ...fragments.map(
      (fragment): AnthropicStreamEvent => ({
        type: 'content_block_delta',
        index,
        delta: { type: 'input_json_delta', partial_json: fragment },
      }),
    ),
    { type: 'content_block_stop', index },
  ];
}

/**
 * The streamed events, in the real API's order: `message_start`, each block's
 * start/deltas/stop (a `ping` after the first start), `message_delta`, `message_stop`.
 * Block indexes count every block, text included.
 */
export function buildAnthropicEvents(plan: AnswerContent, meta: AnthropicMeta): AnthropicStreamEvent[] {
  const message = buildAnthropicMessage(plan, meta);
  const blockEvents = message.content.flatMap((block, index) =>
    block.type === 'text' ? textBlockEvents(block.text, index) : toolUseBlockEvents(block, index),
  );
  return [
    {
      type: 'message_start',
      message: { ...message, content: [], stop_reason: null, usage: usageOf(plan, 1) },
    },
    ...blockEvents.slice(0, 1),
    { type: 'ping' },
    ...blockEvents.slice(1),
    {
      type: 'message_delta',
      delta: { stop_reason: stopReasonOf(plan), stop_sequence: null },
      usage: { output_tokens: plan.usage.completion_tokens },
    },
    { type: 'message_stop' },
  ];
}
