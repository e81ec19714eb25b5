import { MESSAGES_TO_CHAT } from '../messages-bridge-losses';
import {
  isKnownAnthropicToolResultContentBlockParam,
  type AnthropicToolResultBlockParam,
  type ToolMessage,
  type UserContentPart,
} from '@chat-relay/contract';
import type { BridgeNotes } from '../../hub/bridge-notes';
import { convertDocumentToChat, convertImageToChat, noteCacheControl, noteCitations } from './convert-anthropic-media-to-chat';

export interface ConvertedToolResult {
  message: ToolMessage;
  /** Images and PDFs of the result: a tool message holds text only, so they follow in a user message. */
  media: UserContentPart[];
}


/**
 * A `tool_result` block → a `tool` message answering `tool_use_id`. Documented mapping: its
 * text (a string, or its text blocks and text documents joined by a blank line) is the tool
 * message's content; its images and PDFs cannot be part of a tool message and are returned
 * apart, for a user message that follows the tool messages; `is_error` has no counterpart.
 */
export function convertToolResultToChat(
  block: AnthropicToolResultBlockParam,
  param: string,
  notes: BridgeNotes,
): ConvertedToolResult {
  noteCacheControl(block, notes);
  if (block.is_error === true) notes.lose(MESSAGES_TO_CHAT.rules.toolResultIsError);
  const texts: string[] = [];
  const media: UserContentPart[] = [];
  const content = block.content ?? '';
  if (typeof content === 'string') texts.push(content);
  else {
    content.forEach((part, index) => {
      const partParam = `${param}.content[${index}]`;
      if (!isKnownAnthropicToolResultContentBlockParam(part)) {
        notes.refuse(`${partParam}.type`, `'${part.type}' blocks have no Chat Completions counterpart`);
        return;
      }
      switch (part.type) {
        case 'text':
          noteCacheControl(part, notes);
          noteCitations((part.citations ?? []).length > 0, notes);
          texts.push(part.text);
          return;
        case 'image':
          media.push(...convertImageToChat(part, partParam, notes));
          return;
        case 'document':
          for (const converted of convertDocumentToChat(part, partParam, notes)) {
            if (converted.type === 'text') texts.push(converted.text);
            else media.push(converted);
          }
          return;
        default: {
          const unhandled: never = part;
          throw new Error(`unhandled tool result part ${JSON.stringify(unhandled)}`);
        }
      }
    });
  }
  const message: ToolMessage = {
    role: 'tool',
    tool_call_id: block.tool_use_id,
    content: texts.filter((text) => text !== '').join('\n\n'),
  };
  return { message, media };
}
