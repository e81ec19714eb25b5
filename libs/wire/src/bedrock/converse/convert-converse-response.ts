import type { ChatCompletion, ToolCall } from '@chat-relay/contract';
import { upstreamError } from '../../errors/relay-error';
import type { ConvertedCompletion } from '../../hub/provider-adapter';
import { THINKING_BLOCKS_FIELD, type HubThinkingBlock } from '../../hub/thinking-blocks';
import { ConverseResponseSchema, type ConverseOutputBlock } from './converse-api';
import { convertConverseUsage } from './convert-converse-usage';
import { malformedOutput } from './converse-error';
import { mapConverseStopReason } from './map-converse-stop-reason';

export interface ConvertConverseResponseArgs {
  /** The upstream's 2xx body. */
  text: string;
  /** The model name the caller sent, which the answer carries. */
  publicModel: string;
  /** Unix seconds. */
  created: number;
  /** Converse answers carry no id: the completion's. */
  id: string;
}

/**
 * A reasoning block as the hub carries it (hub/thinking-blocks.ts): text with a signature →
 * a `thinking` block, redacted content → `redacted_thinking`; text without a signature (models
 * that do not sign) is reasoning text only.
 */
function thinkingOf(block: NonNullable<ConverseOutputBlock['reasoningContent']>): { text: string; signed?: HubThinkingBlock } {
  if (!block.reasoningText) {
    const data = block.redactedContent ?? '';
    return data === '' ? { text: '' } : { text: '', signed: { type: 'redacted_thinking', data } };
  }
  const { text, signature } = block.reasoningText;
  return signature ? { text, signed: { type: 'thinking', thinking: text, signature } } : { text };
}

/**
 * A Converse answer → an OpenAI `chat.completion`: text blocks joined as `content`, toolUse
 * blocks as `tool_calls` with their `toolUseId`s (`content: null` when the model only called
 * tools), reasoning as `reasoning_content` with the signed blocks in `thinking_blocks`. Other
 * blocks (citations, guard content) are not part of an OpenAI message and are left out.
 */
export function convertConverseResponse({ text, publicModel, created, id }: ConvertConverseResponseArgs): ConvertedCompletion {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { ok: false, error: upstreamError('The upstream provider sent a response that is not JSON.', 'bad_response') };
  }
  const parsed = ConverseResponseSchema.safeParse(json);
  if (!parsed.success) return { ok: false, error: upstreamError('The upstream provider sent a malformed Converse response.', 'bad_response') };
  const { output, stopReason, usage: converseUsage } = parsed.data;
  const finishReason = mapConverseStopReason(stopReason);
  if (finishReason === undefined) return { ok: false, error: malformedOutput(stopReason) };

  let content = '';
  let reasoning = '';
  const thinking: HubThinkingBlock[] = [];
  const toolCalls: ToolCall[] = [];
  for (const block of output.message.content) {
    if (block.text !== undefined) content += block.text;
    else if (block.toolUse) {
      toolCalls.push({ id: block.toolUse.toolUseId, type: 'function', function: { name: block.toolUse.name, arguments: JSON.stringify(block.toolUse.input ?? {}) } });
    } else if (block.reasoningContent) {
      const { text: reasoningText, signed } = thinkingOf(block.reasoningContent);
      reasoning += reasoningText;
      if (signed) thinking.push(signed);
    }
  }

  const { usage, reported } = convertConverseUsage(converseUsage);
  const body: ChatCompletion = {
    id,
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
          ...(reasoning !== '' ? { reasoning_content: reasoning } : {}),
          ...(thinking.length > 0 ? { [THINKING_BLOCKS_FIELD]: thinking } : {}),
        },
        logprobs: null,
        finish_reason: finishReason,
      },
    ],
    usage,
  };
  const argumentChars = toolCalls.reduce((sum, call) => sum + (call.type === 'function' ? call.function.arguments.length : 0), 0);
  return { ok: true, body, usage: reported, deliveredChars: content.length + argumentChars + reasoning.length };
}
