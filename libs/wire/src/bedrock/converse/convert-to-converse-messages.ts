import type { AssistantMessage, Message, ToolMessage } from '@chat-relay/contract';
import { toAnthropicToolId } from '../../anthropic-messages/upstream/to-anthropic-tool-id';
import { invalidRequest } from '../../errors/relay-error';
import { lossOf, type Adjustment } from '../../hub/bridge-loss';
import { customCallArguments } from '../../hub/custom-tool-as-function';
import { thinkingBlocksOf } from '../../hub/thinking-blocks';
import { CHAT_TO_CONVERSE } from './chat-to-converse-losses';
import type { ConverseContentBlock, ConverseMessage, ConverseToolResultBlock } from './converse-api';
import { convertUserContent, textBlocks } from './convert-to-converse-content';

export interface ConversePrompt {
  system: Array<{ text: string }>;
  messages: ConverseMessage[];
  /** Whether a turn holds toolUse or toolResult blocks: Converse then needs a toolConfig. */
  hasToolBlocks: boolean;
}

type TextContent = string | ReadonlyArray<{ text: string }>;
const textsOf = (content: TextContent): string[] => (typeof content === 'string' ? [content] : content.map((part) => part.text));

/** `"{…}"` → the object Converse wants as `input`; `""` (a call without arguments) → `{}`. */
function parseArguments(text: string, param: string): Record<string, unknown> {
  if (text.trim() === '') return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw invalidRequest(`'${param}' is not valid JSON.`, param);
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw invalidRequest(`'${param}' must be a JSON object.`, param);
  return parsed as Record<string, unknown>;
}

/**
 * An assistant turn: its signed thinking first (a hub `thinking_blocks` entry → `reasoningText`
 * with its signature, a redacted one → `redactedContent`), then text, then one toolUse per call.
 */
function convertAssistant(message: AssistantMessage, param: string, warnings: Adjustment[]): ConverseContentBlock[] {
  if (message.function_call) {
    throw invalidRequest('Legacy function_call cannot be sent to a Bedrock Converse channel; use tool_calls.', `${param}.function_call`, 'unsupported_parameter');
  }
  const thinking = thinkingBlocksOf(message);
  const blocks: ConverseContentBlock[] = thinking.map((block) =>
    block.type === 'thinking'
      ? { reasoningContent: { reasoningText: { text: block.thinking, signature: block.signature } } }
      : { reasoningContent: { redactedContent: block.data } },
  );
  const reasoning: unknown = (message as Record<string, unknown>)['reasoning_content'];
  if (thinking.length === 0 && typeof reasoning === 'string' && reasoning !== '') {
    warnings.push(lossOf(CHAT_TO_CONVERSE.rules.unsignedReasoning, { field: `${param}.reasoning_content` }));
  }
  const content = message.content ?? '';
  if (typeof content === 'string') blocks.push(...textBlocks(content));
  else blocks.push(...content.flatMap((part) => textBlocks(part.type === 'text' ? part.text : part.refusal)));
  if (message.refusal) blocks.push(...textBlocks(message.refusal));
  (message.tool_calls ?? []).forEach((call, index) => {
    const callParam = `${param}.tool_calls[${index}]`;
    // A custom tool is a function of one string here (customToolAsFunction): its call is that function's.
    const { name, args } =
      call.type === 'function' ? { name: call.function.name, args: parseArguments(call.function.arguments, `${callParam}.function.arguments`) } : customCallArguments(call);
    blocks.push({ toolUse: { toolUseId: toAnthropicToolId(call.id), name, input: args } });
  });
  return blocks;
}

/** A JSON object result goes as `json`, anything else as text; an empty result has no content block (blank text is refused). */
function convertToolResult(message: ToolMessage): ConverseToolResultBlock {
  const text = textsOf(message.content).join('');
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  const isObject = json !== null && typeof json === 'object' && !Array.isArray(json);
  const content = isObject ? [{ json }] : textBlocks(text);
  return { toolResult: { toolUseId: toAnthropicToolId(message.tool_call_id), content } };
}

/** Converse requires alternating roles: a same-role neighbour is merged, tool results first in a user turn. */
function append(turns: ConverseMessage[], role: ConverseMessage['role'], blocks: ConverseContentBlock[]): void {
  if (blocks.length === 0) return;
  const last = turns.at(-1);
  if (last?.role !== role) {
    turns.push({ role, content: blocks });
    return;
  }
  for (const block of blocks) {
    const firstOther = last.content.findIndex((existing) => !('toolResult' in existing));
    if (!('toolResult' in block) || firstOther < 0) last.content.push(block);
    else last.content.splice(firstOther, 0, block);
  }
}

/**
 * OpenAI `messages` → Converse `system` + `messages`
 * (https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_Message.html): system and
 * developer messages, anywhere, become `system` text blocks in order; tool messages become
 * toolResult blocks of a user turn; same-role neighbours are merged; blank text is left out and
 * a message left empty disappears. A message's `name` has no Converse counterpart and is not sent.
 */
export function convertToConverseMessages(messages: readonly Message[], warnings: Adjustment[]): ConversePrompt {
  const system: Array<{ text: string }> = [];
  const turns: ConverseMessage[] = [];
  let hasToolBlocks = false;
  messages.forEach((message, index) => {
    const param = `messages[${index}]`;
    switch (message.role) {
      case 'system':
      case 'developer':
        for (const text of textsOf(message.content)) system.push(...textBlocks(text));
        return;
      case 'user':
        append(turns, 'user', convertUserContent(message.content, `${param}.content`));
        return;
      case 'assistant': {
        const blocks = convertAssistant(message, param, warnings);
        hasToolBlocks ||= blocks.some((block) => 'toolUse' in block);
        append(turns, 'assistant', blocks);
        return;
      }
      case 'tool':
        hasToolBlocks = true;
        append(turns, 'user', [convertToolResult(message)]);
        return;
      case 'function':
        throw invalidRequest("Legacy 'function' messages cannot be sent to a Bedrock Converse channel; use tool messages.", `${param}.role`, 'unsupported_value');
      default: {
        const unhandled: never = message;
        throw new Error(`unhandled message ${JSON.stringify(unhandled)}`);
      }
    }
  });
  if (turns.length === 0) throw invalidRequest('A Bedrock Converse channel needs at least one user or assistant message with content.', 'messages');
  return { system, messages: turns, hasToolBlocks };
}
