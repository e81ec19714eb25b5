import { MessageSchema, type ChatCompletionRequest } from '@chat-relay/contract';
import { z } from 'zod';

const MessagesSchema = z.array(MessageSchema);

/**
 * Lets go of a request's parsed conversation while its non-streamed answer is awaited, once an
 * attempt forwards the caller's own bytes: those bytes (kept off V8's heap) say the same, and the
 * conversation is read again from them if anything still asks for it — a retry on a channel that
 * needs it converted, the prompt counted for an answer without usage. A 64 KiB conversation is
 * ~75 KB of objects held twice over (the body as parsed, the request as validated) while the
 * upstream answers; under 32 callers most of it outlived a scavenge and was promoted, filling
 * the old generation every ~0.6 s (docs/PERFORMANCE.md, issue 30, eighteenth pass).
 *
 * `messages` becomes an accessor on both objects: read, it parses the bytes again (the request's
 * through the same schema it was validated by) and holds the result as before; written, it is
 * the value written. Every reader — JSON.stringify, a spread, a property read — gets the
 * conversation as it was.
 */
export function letGoOfConversation(request: ChatCompletionRequest, parsedBody: unknown, rawBody: Buffer): void {
  letGoOf(request, () => MessagesSchema.parse(reread(rawBody)));
  if (parsedBody !== request && isObject(parsedBody)) letGoOf(parsedBody, () => reread(rawBody));
}

/** Whether the object's conversation is let go of (not read again since). */
export function conversationLetGo(holder: object): boolean {
  return typeof Object.getOwnPropertyDescriptor(holder, 'messages')?.get === 'function';
}

function letGoOf(holder: Record<string, unknown>, read: () => unknown): void {
  const own = Object.getOwnPropertyDescriptor(holder, 'messages');
  // Only a conversation held as a plain value (not one let go of already) is let go of.
  if (!own || !('value' in own) || !Array.isArray(own.value)) return;
  const keep = (value: unknown) => Object.defineProperty(holder, 'messages', { value, writable: true, enumerable: true, configurable: true });
  Object.defineProperty(holder, 'messages', {
    enumerable: true,
    configurable: true,
    get() {
      const value = read();
      keep(value);
      return value;
    },
    set: keep,
  });
}

function reread(rawBody: Buffer): unknown {
  const parsed: unknown = JSON.parse(rawBody.toString('utf8'));
  return isObject(parsed) ? parsed['messages'] : undefined;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
