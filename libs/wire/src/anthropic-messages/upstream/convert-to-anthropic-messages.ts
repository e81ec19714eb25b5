import type { AssistantMessage, Message, ToolMessage } from '@chat-relay/contract';
import { customCallArguments } from '../../hub/custom-tool-as-function';
import { invalidRequest } from '../../errors/relay-error';
import { thinkingBlocksOf } from '../../hub/thinking-blocks';
import type {
  AnthropicAssistantBlockParam,
  AnthropicMessageParam,
  AnthropicTextBlockParam,
  AnthropicToolResultBlockParam,
  AnthropicToolUseBlockParam,
  AnthropicUserBlockParam,
} from '../anthropic-api';
import { textBlocks, convertUserContent } from './convert-to-anthropic-user-content';
import { toAnthropicToolId } from './to-anthropic-tool-id';

export interface AnthropicPrompt {
  /** Every system and developer message, in order (Anthropic has one top-level `system`). */
  system: AnthropicTextBlockParam[];
  /** Strictly alternating user / assistant turns, none empty. */
  messages: AnthropicMessageParam[];
}

type TextContent = string | Array<{ type: 'text'; text: string }>;

const textOf = (content: TextContent): AnthropicTextBlockParam[] =>
  typeof content === 'string' ? textBlocks(content) : content.flatMap((part) => textBlocks(part.text));

/** `"{…}"` → the object Anthropic wants as `input`; `""` (a call without arguments) → `{}`. */
function parseArguments(text: string, param: string): Record<string, unknown> {
  if (text.trim() === '') return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw invalidRequest('Tool-call arguments must be a JSON object to be sent to an Anthropic channel.', param);
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw invalidRequest('Tool-call arguments must be a JSON object to be sent to an Anthropic channel.', param);
  }
  return parsed as Record<string, unknown>;
}

function convertAssistant(message: AssistantMessage, param: string): AnthropicAssistantBlockParam[] {
  if (message.function_call) {
    throw invalidRequest(
      'Legacy function_call messages are not supported on Anthropic channels; use tool_calls.',
      `${param}.function_call`,
      'unsupported_parameter',
    );
  }
  const content = message.content ?? '';
  // The model's signed thinking first, where Anthropic wants it back (before the text and tool uses).
  const blocks: AnthropicAssistantBlockParam[] = thinkingBlocksOf(message).map((block) =>
    block.type === 'thinking'
      ? { type: 'thinking', thinking: block.thinking, signature: block.signature }
      : { type: 'redacted_thinking', data: block.data },
  );
  if (typeof content === 'string') blocks.push(...textBlocks(content));
  else blocks.push(...content.flatMap((part) => textBlocks(part.type === 'text' ? part.text : part.refusal)));
  if (message.refusal) blocks.push(...textBlocks(message.refusal));
  (message.tool_calls ?? []).forEach((call, index) => {
    const callParam = `${param}.tool_calls[${index}]`;
    // A custom tool is a function of one string here (customToolAsFunction): its call is that function's.
    const { name, args } =
      call.type === 'function'
        ? { name: call.function.name, args: parseArguments(call.function.arguments, `${callParam}.function.arguments`) }
        : customCallArguments(call);
    const toolUse: AnthropicToolUseBlockParam = { type: 'tool_use', id: toAnthropicToolId(call.id), name, input: args };
    blocks.push(toolUse);
  });
  return blocks;
}

function convertToolResult(message: ToolMessage): AnthropicToolResultBlockParam {
  const result: AnthropicToolResultBlockParam = {
    type: 'tool_result',
    tool_use_id: toAnthropicToolId(message.tool_call_id),
  };
  // An empty result is sent without content: Anthropic rejects empty text.
  if (typeof message.content === 'string') {
    if (message.content !== '') result.content = message.content;
  } else {
    const blocks = textOf(message.content);
    if (blocks.length > 0) result.content = blocks;
  }
  return result;
}

/** Same-role neighbours are merged: Anthropic wants alternating roles. */
function appendAssistantTurn(turns: AnthropicMessageParam[], blocks: AnthropicAssistantBlockParam[]): void {
  if (blocks.length === 0) return;
  const last = turns.at(-1);
  if (last?.role === 'assistant') last.content.push(...blocks);
  else turns.push({ role: 'assistant', content: blocks });
}

/** As above; inside a user turn tool results go first, where Anthropic requires them. */
function appendUserTurn(turns: AnthropicMessageParam[], blocks: AnthropicUserBlockParam[]): void {
  if (blocks.length === 0) return;
  const last = turns.at(-1);
  if (last?.role !== 'user') {
    turns.push({ role: 'user', content: blocks });
    return;
  }
  for (const block of blocks) {
    const firstOther = last.content.findIndex((existing) => existing.type !== 'tool_result');
    if (block.type !== 'tool_result' || firstOther < 0) last.content.push(block);
    else last.content.splice(firstOther, 0, block);
  }
}

/**
 * OpenAI `messages` → Anthropic `system` + `messages`: system and developer messages (several,
 * anywhere) are lifted to `system`; tool messages become `tool_result` blocks of the next user
 * turn, consecutive ones grouped; same-role neighbours are merged; empty text is left out and a
 * message left with no content at all disappears. An assistant message's `thinking_blocks` (the
 * signed thinking an anthropic channel returned, see hub/thinking-blocks.ts) go first in its turn;
 * `reasoning_content` without them is not sent (nothing signs it). The participant `name` of a message, and
 * fields outside the OpenAI message schema, have no Anthropic equivalent and are not sent.
 */
export function convertToAnthropicMessages(messages: readonly Message[]): AnthropicPrompt {
  const system: AnthropicTextBlockParam[] = [];
  const turns: AnthropicMessageParam[] = [];
  messages.forEach((message, index) => {
    const param = `messages[${index}]`;
    switch (message.role) {
      case 'system':
      case 'developer':
        system.push(...textOf(message.content));
        return;
      case 'user':
        appendUserTurn(turns, convertUserContent(message.content, `${param}.content`));
        return;
      case 'assistant':
        appendAssistantTurn(turns, convertAssistant(message, param));
        return;
      case 'tool':
        appendUserTurn(turns, [convertToolResult(message)]);
        return;
      case 'function':
        throw invalidRequest(
          'Legacy function messages are not supported on Anthropic channels; use tool messages.',
          `${param}.role`,
          'unsupported_value',
        );
      default: {
        const unhandled: never = message;
        throw new Error(`unhandled message ${JSON.stringify(unhandled)}`);
      }
    }
  });
  if (turns.length === 0) {
    throw invalidRequest('An Anthropic channel needs at least one user or assistant message with content.', 'messages');
  }
  return { system, messages: turns };
}
