import type { Message } from '@chat-relay/contract';

type MessageContent = Message['content'];

const simMarkerPattern = /\[sim:[a-z_-]+=[^\]]*\]/gi;

/** The text of a message: a string as is, content parts joined by spaces (non-text parts skipped). */
export function textOfContent(content: MessageContent): string {
  if (content === null || content === undefined) return '';
  if (typeof content === 'string') return content;
  return content
    .map((part) => {
      if (part.type === 'text') return part.text;
      if (part.type === 'refusal') return part.refusal;
      return '';
    })
    .filter((text) => text.length > 0)
    .join(' ');
}

/** The text of the last user message, or '' when there is none. */
export function lastUserText(messages: readonly Message[]): string {
  for (let index = messages.length - 1; index >= 0; index -= 1) {
    const message = messages[index];
    if (message?.role === 'user') return textOfContent(message.content);
  }
  return '';
}

/** Removes `[sim:…]` directives so the answer echoes only what a person wrote. */
export function stripSimMarkers(text: string): string {
  return text.replace(simMarkerPattern, '').replace(/\s+/g, ' ').trim();
}
