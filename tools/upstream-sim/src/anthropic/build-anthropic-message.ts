import type { FunctionToolCall } from '@chat-relay/contract';
import { argumentsPieceLength, type AnswerContent } from '../build-chat-completion';
import { asFunctionCall } from '../decide-answer';
import { splitIntoPieces, splitIntoStreamTokens } from '../tokens';
import type { AnthropicAnswer, ThinkingPart } from './add-thinking';
import type {
  AnthropicInputUsage,
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
  /** The prompt side of usage, cache reads and writes included (prompt-cache.ts). */
  inputUsage: AnthropicInputUsage;
  /** The blocks of the server tools that ran (server-tools.ts); present when the request offered one. */
  serverBlocks?: ResponseContentBlock[];
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

function usageOf(meta: AnthropicMeta, outputTokens: number): AnthropicUsage {
  // In the API's key order: the input side, then output_tokens, then the server tools that ran.
  const { cache_creation, ...counts } = meta.inputUsage;
  const usage: AnthropicUsage = { ...counts, cache_creation: { ...cache_creation }, output_tokens: outputTokens };
  if (meta.serverBlocks) {
    const searches = meta.serverBlocks.filter((block) => block.type === 'server_tool_use').length;
    usage.server_tool_use = { web_search_requests: searches, web_fetch_requests: 0 };
  }
  return usage;
}

/**
 * The non-streamed message: the signed thinking block when thinking is on, a text block when
 * there is text (none when max_tokens left it empty), then one block per tool use.
 */
export function buildAnthropicMessage(answer: AnthropicAnswer, meta: AnthropicMeta): AnthropicMessageResponse {
  const { plan, thinking } = answer;
  const text = textOfPlan(plan);
  const toolUses = plan.kind === 'tool_calls' ? plan.toolCalls.map((call) => toolUseOf(asFunctionCall(call))) : [];
  return {
    id: meta.id,
    type: 'message',
    role: 'assistant',
    model: meta.model,
    content: [
      ...(thinking ? [{ type: 'thinking' as const, ...thinking }] : []),
      ...(meta.serverBlocks ?? []),
      ...(text ? [{ type: 'text' as const, text }] : []),
      ...toolUses,
    ],
    stop_reason: stopReasonOf(plan),
    stop_sequence: null,
    usage: usageOf(meta, answer.outputTokens),
  };
}

/**
 * Like the real API (test-fixtures/anthropic/cassette-stream-thinking.yaml): an empty block
 * opens, the text comes in `thinking_delta`s ending with an empty one, then one
 * `signature_delta`. With `display: omitted` only the signature is streamed.
 */
function thinkingBlockEvents(thinking: ThinkingPart, index: number): AnthropicStreamEvent[] {
  const pieces = thinking.thinking.length > 0 ? [...splitIntoStreamTokens(thinking.thinking), ''] : [];
  return [
    { type: 'content_block_start', index, content_block: { type: 'thinking', thinking: '', signature: '' } },
    ...pieces.map(
      (piece): AnthropicStreamEvent => ({ type: 'content_block_delta', index, delta: { type: 'thinking_delta', thinking: piece } }),
    ),
    { type: 'content_block_delta', index, delta: { type: 'signature_delta', signature: thinking.signature } },
    { type: 'content_block_stop', index },
  ];
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

/** A server tool's call streams like a tool use; its result comes whole in its start event. */
function serverBlockEvents(block: Extract<ResponseContentBlock, { type: 'server_tool_use' | 'web_search_tool_result' }>, index: number): AnthropicStreamEvent[] {
  if (block.type === 'web_search_tool_result') {
    return [
      { type: 'content_block_start', index, content_block: block },
      { type: 'content_block_stop', index },
    ];
  }
  return [
    { type: 'content_block_start', index, content_block: { type: 'server_tool_use', id: block.id, name: block.name, input: {} } },
    { type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: JSON.stringify(block.input) } },
    { type: 'content_block_stop', index },
  ];
}

function blockEvents(block: ResponseContentBlock, index: number): AnthropicStreamEvent[] {
  switch (block.type) {
    case 'server_tool_use':
    case 'web_search_tool_result':
      return serverBlockEvents(block, index);
    case 'thinking':
      return thinkingBlockEvents(block, index);
    case 'text':
      return textBlockEvents(block.text, index);
    case 'tool_use':
      return toolUseBlockEvents(block, index);
    default: {
      const unexpected: never = block;
      throw new Error(`unhandled content block ${JSON.stringify(unexpected)}`);
    }
  }
}

/**
 * The streamed events, in the real API's order: `message_start` (the input side of usage
 * already final), each block's start/deltas/stop (a `ping` after the first start),
 * `message_delta` with the cumulative usage, `message_stop`. Block indexes count every block.
 */
export function buildAnthropicEvents(answer: AnthropicAnswer, meta: AnthropicMeta): AnthropicStreamEvent[] {
  const message = buildAnthropicMessage(answer, meta);
  const events = message.content.flatMap((block, index) => blockEvents(block, index));
  const { cache_creation: _breakdown, ...finalUsage } = message.usage;
  return [
    {
      type: 'message_start',
      message: { ...message, content: [], stop_reason: null, usage: usageOf(meta, 1) },
    },
    ...events.slice(0, 1),
    { type: 'ping' },
    ...events.slice(1),
    {
      type: 'message_delta',
      delta: { stop_reason: stopReasonOf(answer.plan), stop_sequence: null },
      usage: finalUsage,
    },
    { type: 'message_stop' },
  ];
}
