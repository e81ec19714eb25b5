import { MESSAGES_TO_CHAT } from '../messages-bridge-losses';
import type { AnthropicDocumentBlockParam, AnthropicImageBlockParam, UserContentPart } from '@chat-relay/contract';
import type { BridgeNotes } from '../../hub/bridge-notes';

/** What a PDF is called upstream when the caller gave it no title (OpenAI wants a file name). */
export const UNTITLED_PDF_NAME = 'document.pdf';


/** One warning for every dropped cache breakpoint, wherever it was. */
export function noteCacheControl(block: { cache_control?: unknown }, notes: BridgeNotes): void {
  if (block.cache_control !== undefined && block.cache_control !== null) notes.lose(MESSAGES_TO_CHAT.rules.cacheControl);
}

export function noteCitations(present: boolean, notes: BridgeNotes): void {
  if (present) notes.lose(MESSAGES_TO_CHAT.rules.citations);
}

const text = (value: string): UserContentPart => ({ type: 'text', text: value });

/**
 * An image block → an `image_url` part: base64 as a `data:` URL of its media type, a URL as it
 * is. A `file` source (Files API) exists only at Anthropic.
 */
export function convertImageToChat(block: AnthropicImageBlockParam, param: string, notes: BridgeNotes): UserContentPart[] {
  noteCacheControl(block, notes);
  const { source } = block;
  switch (source.type) {
    case 'base64':
      return [{ type: 'image_url', image_url: { url: `data:${source.media_type};base64,${source.data}` } }];
    case 'url':
      return [{ type: 'image_url', image_url: { url: source.url } }];
    case 'file':
      notes.refuse(`${param}.source`, 'a file_id names a file uploaded to Anthropic');
      return [];
    default: {
      const unhandled: never = source;
      throw new Error(`unhandled image source ${JSON.stringify(unhandled)}`);
    }
  }
}

/**
 * A document block → content parts. Documented mapping: a base64 PDF becomes a `file` part
 * (`file_data` a data: URL, `filename` its title or `document.pdf`), preceded by a text part
 * holding its `context` when there is one; a plain-text document becomes one text part of its
 * title, context and text, each non-empty one separated by a blank line; a `content` document
 * becomes a text part of its title and context (when present) followed by its own text and
 * image parts. URL and file sources are fetched or stored by Anthropic, so only it can serve them.
 */
export function convertDocumentToChat(
  block: AnthropicDocumentBlockParam,
  param: string,
  notes: BridgeNotes,
): UserContentPart[] {
  noteCacheControl(block, notes);
  noteCitations(block.citations?.enabled === true, notes);
  const title = block.title ?? '';
  const context = block.context ?? '';
  const heading = [title, context].filter((part) => part !== '').join('\n\n');
  const { source } = block;
  switch (source.type) {
    case 'base64': {
      const file: UserContentPart = {
        type: 'file',
        file: { file_data: `data:application/pdf;base64,${source.data}`, filename: title || UNTITLED_PDF_NAME },
      };
      return context === '' ? [file] : [text(context), file];
    }
    case 'text':
      return [text([title, context, source.data].filter((part) => part !== '').join('\n\n'))];
    case 'content': {
      const inner =
        typeof source.content === 'string'
          ? [text(source.content)]
          : source.content.flatMap((part, index) => {
              if (part.type !== 'text') return convertImageToChat(part, `${param}.source.content[${index}]`, notes);
              noteCacheControl(part, notes);
              return [text(part.text)];
            });
      return heading === '' ? inner : [text(heading), ...inner];
    }
    case 'url':
      notes.refuse(`${param}.source`, 'Anthropic fetches URL documents itself');
      return [];
    case 'file':
      notes.refuse(`${param}.source`, 'a file_id names a file uploaded to Anthropic');
      return [];
    default: {
      const unhandled: never = source;
      throw new Error(`unhandled document source ${JSON.stringify(unhandled)}`);
    }
  }
}
