import type { ChatCompletion, ToolCall } from '@chat-relay/contract';
import { upstreamError } from '../../errors/relay-error';
import type { ConvertedCompletion } from '../../hub/provider-adapter';
import { HubThinkingBlockSchema, THINKING_BLOCKS_FIELD, type HubThinkingBlock } from '../../hub/thinking-blocks';
import { AnthropicMessageSchema, isTextBlock, isToolUseBlock } from '../anthropic-api';
import { isJsonResponseTool } from './anthropic-json-response-tool';
import { convertAnthropicUsage } from './convert-anthropic-usage';
import { finishReasonFor } from './map-anthropic-stop-reason';

export interface ConvertAnthropicResponseArgs {
  /** The upstream's 2xx body. */
  text: string;
  /** The model name the caller sent, which the answer carries. */
  publicModel: string;
  /** Unix seconds. */
  created: number;
}

/**
 * A Messages API `message` → an OpenAI `chat.completion`: text blocks joined as `content`,
 * `tool_use` blocks as `tool_calls` in order with their `toolu_…` ids, `content: null` when the
 * model only called tools (never `""`). The JSON-response tool's input becomes the content.
 * Thinking blocks: their text as `reasoning_content` (as DeepSeek and LiteLLM send it), the
 * blocks with their signatures as `thinking_blocks` (hub/thinking-blocks.ts). Server-tool blocks
 * are not part of an OpenAI message and are left out.
 */
export function convertAnthropicResponse({ text, publicModel, created }: ConvertAnthropicResponseArgs): ConvertedCompletion {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { ok: false, error: upstreamError('The upstream provider sent a response that is not JSON.', 'bad_response') };
  }
  const parsed = AnthropicMessageSchema.safeParse(json);
  if (!parsed.success) {
    return { ok: false, error: upstreamError('The upstream provider sent a malformed message.', 'bad_response') };
  }
  const message = parsed.data;

  let content = '';
  let reasoning = '';
  const thinking: HubThinkingBlock[] = [];
  const toolCalls: ToolCall[] = [];
  for (const block of message.content) {
    if (isTextBlock(block)) content += block.text;
    else if (block.type === 'thinking' || block.type === 'redacted_thinking') {
      const parsed = HubThinkingBlockSchema.safeParse(block);
      if (!parsed.success) return { ok: false, error: upstreamError('The upstream provider sent a malformed thinking block.', 'bad_response') };
      thinking.push(parsed.data);
      if (parsed.data.type === 'thinking') reasoning += parsed.data.thinking;
    }
    else if (isToolUseBlock(block)) {
      if (isJsonResponseTool(block.name)) content += JSON.stringify(block.input);
      else {
        const call: ToolCall = {
          id: block.id,
          type: 'function',
          function: { name: block.name, arguments: JSON.stringify(block.input) },
        };
        toolCalls.push(call);
      }
    }
  }

  const { usage, reported } = convertAnthropicUsage(message.usage);
  const body: ChatCompletion = {
    id: message.id,
    object: 'chat.completion',
    created,
    model: publicModel,
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: toolCalls.length > 0 && content === '' ? null : content,
          refusal: null,
          ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
          ...(thinking.length > 0 ? { reasoning_content: reasoning, [THINKING_BLOCKS_FIELD]: thinking } : {}),
        },
        logprobs: null,
        finish_reason: finishReasonFor(message.stop_reason, toolCalls.length),
      },
    ],
    usage,
  };
  const argumentChars = toolCalls.reduce((sum, call) => sum + (call.type === 'function' ? call.function.arguments.length : 0), 0);
  const deliveredChars = content.length + argumentChars + reasoning.length;
  return { ok: true, body, usage: reported, deliveredChars };
}
