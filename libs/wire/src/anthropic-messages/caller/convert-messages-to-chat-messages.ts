import { MESSAGES_TO_CHAT } from '../messages-bridge-losses';
import {
  isKnownAnthropicContentBlockParam,
  type AnthropicContentBlockParam,
  type AnthropicMessageParam,
  type AnthropicSystemParam,
  type Message,
  type ToolCall,
  type UserContentPart,
} from '@chat-relay/contract';
import type { BridgeNotes } from '../../hub/bridge-notes';
import { convertDocumentToChat, convertImageToChat, noteCacheControl, noteCitations } from './convert-anthropic-media-to-chat';
import { convertToolResultToChat } from './convert-tool-result-to-chat';


/**
 * `system` (top level, or a system turn) → the text of one system message. Documented mapping:
 * text blocks are joined by a blank line (several blocks become one string, which every
 * OpenAI-compatible server takes); empty blocks are left out.
 */
export function systemTextOf(system: AnthropicSystemParam, notes: BridgeNotes): string {
  if (typeof system === 'string') return system;
  for (const block of system) noteCacheControl(block, notes);
  return system
    .map((block) => block.text)
    .filter((text) => text !== '')
    .join('\n\n');
}

/** A user turn's parts as a message: a lone text part stays a plain string. */
function userMessage(parts: UserContentPart[]): Message[] {
  if (parts.length === 0) return [];
  const [only] = parts;
  if (parts.length === 1 && only?.type === 'text') return [{ role: 'user', content: only.text }];
  return [{ role: 'user', content: parts }];
}

function unknownBlock(block: { type: string }, param: string, notes: BridgeNotes): void {
  notes.refuse(`${param}.type`, `'${block.type}' blocks have no Chat Completions counterpart`);
}

/**
 * A user turn. Its `tool_result` blocks become `tool` messages that come first, right after the
 * assistant turn that called the tools (OpenAI requires it); images and PDFs of those results,
 * then the turn's own content, follow as one user message.
 */
function convertUserTurn(blocks: AnthropicContentBlockParam[], param: string, notes: BridgeNotes): Message[] {
  const toolMessages: Message[] = [];
  const resultMedia: UserContentPart[] = [];
  const parts: UserContentPart[] = [];
  blocks.forEach((block, index) => {
    const blockParam = `${param}[${index}]`;
    if (!isKnownAnthropicContentBlockParam(block)) return unknownBlock(block, blockParam, notes);
    switch (block.type) {
      case 'text':
        noteCacheControl(block, notes);
        noteCitations((block.citations ?? []).length > 0, notes);
        parts.push({ type: 'text', text: block.text });
        return;
      case 'image':
        parts.push(...convertImageToChat(block, blockParam, notes));
        return;
      case 'document':
        parts.push(...convertDocumentToChat(block, blockParam, notes));
        return;
      case 'tool_result': {
        const { message, media } = convertToolResultToChat(block, blockParam, notes);
        toolMessages.push(message);
        resultMedia.push(...media);
        return;
      }
      case 'thinking':
      case 'redacted_thinking':
        notes.lose(MESSAGES_TO_CHAT.rules.thinkingBlocks);
        return;
      case 'tool_use':
      case 'server_tool_use':
      case 'web_search_tool_result':
        notes.refuse(`${blockParam}.type`, `'${block.type}' blocks belong to Anthropic's own assistant turns`);
        return;
      default: {
        const unhandled: never = block;
        throw new Error(`unhandled block ${JSON.stringify(unhandled)}`);
      }
    }
  });
  return [...toolMessages, ...userMessage([...resultMedia, ...parts])];
}

/**
 * An assistant turn: text blocks joined as they are (they are consecutive pieces of one answer),
 * `tool_use` blocks as `tool_calls` with their ids and `arguments: JSON.stringify(input)`, and
 * `content: null` when the turn only called tools. A turn left with nothing is not sent.
 */
function convertAssistantTurn(blocks: AnthropicContentBlockParam[], param: string, notes: BridgeNotes): Message[] {
  const texts: string[] = [];
  const toolCalls: ToolCall[] = [];
  blocks.forEach((block, index) => {
    const blockParam = `${param}[${index}]`;
    if (!isKnownAnthropicContentBlockParam(block)) return unknownBlock(block, blockParam, notes);
    switch (block.type) {
      case 'text':
        noteCacheControl(block, notes);
        noteCitations((block.citations ?? []).length > 0, notes);
        texts.push(block.text);
        return;
      case 'tool_use':
        noteCacheControl(block, notes);
        toolCalls.push({ id: block.id, type: 'function', function: { name: block.name, arguments: JSON.stringify(block.input) } });
        return;
      case 'thinking':
      case 'redacted_thinking':
        notes.lose(MESSAGES_TO_CHAT.rules.thinkingBlocks);
        return;
      case 'server_tool_use':
      case 'web_search_tool_result':
        notes.refuse(`${blockParam}.type`, `'${block.type}' blocks record a tool Anthropic ran itself`);
        return;
      case 'image':
      case 'document':
      case 'tool_result':
        notes.refuse(`${blockParam}.type`, `'${block.type}' blocks belong in user turns`);
        return;
      default: {
        const unhandled: never = block;
        throw new Error(`unhandled block ${JSON.stringify(unhandled)}`);
      }
    }
  });
  const text = texts.join('');
  if (text === '' && toolCalls.length === 0) return [];
  if (toolCalls.length === 0) return [{ role: 'assistant', content: text }];
  return [{ role: 'assistant', content: text === '' ? null : text, tool_calls: toolCalls }];
}

/**
 * `system` + `messages` → the hub's messages, in order: the top-level system prompt first, a
 * system turn where it stands, then each user and assistant turn as described above.
 */
export function convertMessagesToChatMessages(
  system: AnthropicSystemParam | undefined,
  messages: readonly AnthropicMessageParam[],
  notes: BridgeNotes,
): Message[] {
  const converted: Message[] = [];
  const systemText = system === undefined ? '' : systemTextOf(system, notes);
  if (systemText !== '') converted.push({ role: 'system', content: systemText });
  messages.forEach((message, index) => {
    const param = `messages[${index}].content`;
    if (message.role === 'system') {
      const text = systemTextOf(message.content, notes);
      if (text !== '') converted.push({ role: 'system', content: text });
    } else if (typeof message.content === 'string') {
      converted.push({ role: message.role, content: message.content });
    } else if (message.role === 'user') {
      converted.push(...convertUserTurn(message.content, param, notes));
    } else {
      converted.push(...convertAssistantTurn(message.content, param, notes));
    }
  });
  if (messages.at(-1)?.role === 'assistant') notes.lose(MESSAGES_TO_CHAT.rules.prefill, { field: `messages[${messages.length - 1}]` });
  return converted;
}
