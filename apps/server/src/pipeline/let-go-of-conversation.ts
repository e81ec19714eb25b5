import { MessageSchema, type ChatCompletionRequest, type Message } from '@chat-relay/contract';
import { z } from 'zod';

const MessagesSchema = z.array(MessageSchema);

/**
 * How a dialect's request holds its conversation, for letting go of it while a native answer is
 * awaited: the field, the body read again as the route validated it, and the hub's messages
 * converted from such a body.
 */
export interface NativeConversation {
  /** The body's field holding the conversation (`messages` of Anthropic's Messages). */
  field: string;
  /** The caller's body from its bytes, through the schema the route validated it by. */
  parse(rawBody: Buffer): Record<string, unknown>;
  /** The hub's messages, converted from a body as `parse` gives it, as the route converted them. */
  hubMessages(body: Record<string, unknown>): Message[];
}

/** Whom a relayed request's conversation is held by: each is let go of, and read again if asked. */
export interface ConversationHolders {
  /** The hub's requests (the route's, and the hop's when resolving the model made another). */
  hub: readonly ChatCompletionRequest[];
  /** The body as Express's reader parsed it (`req.body`). */
  parsedBody: unknown;
  /** The dialect's own request, when it is passed through natively. */
  native?: { body: Readonly<Record<string, unknown>>; conversation: NativeConversation };
}

/**
 * Lets go of a request's parsed conversation while its non-streamed answer is awaited, once an
 * attempt forwards the caller's own bytes: those bytes (kept off V8's heap) say the same, and the
 * conversation is read again from them if anything still asks for it — a retry on a channel that
 * needs it converted, the prompt counted for an answer without usage. A 64 KiB conversation is
 * ~75 KB of objects held twice over (the body as parsed, the request as validated) while the
 * upstream answers; under 32 callers most of it outlived a scavenge and was promoted, filling
 * the old generation every ~0.6 s (docs/PERFORMANCE.md, issue 30, eighteenth pass). A request
 * passed through in its own dialect (Anthropic's Messages, Gemini's generateContent) holds it a
 * third time, as the hub's conversion: each is let go of, the hub's read again by converting the
 * body again.
 *
 * The conversation's field becomes an accessor on each holder: read, it parses the bytes again
 * (the validated objects' through the schema they were validated by) and holds the result as
 * before; written, it is the value written. Every reader — JSON.stringify, a spread, a property
 * read — gets the conversation as it was.
 */
export function letGoOfConversation(holders: ConversationHolders, rawBody: Buffer): void {
  const { native, parsedBody } = holders;
  const field = native?.conversation.field ?? 'messages';
  // An object held twice keeps the reader it got first (a conversation let go of is left alone): the most exact one.
  for (const request of holders.hub) {
    letGoOf(request, 'messages', native ? () => native.conversation.hubMessages(native.conversation.parse(rawBody)) : () => MessagesSchema.parse(reread(rawBody, 'messages')));
  }
  if (native) letGoOf(native.body, field, () => native.conversation.parse(rawBody)[field]);
  if (isObject(parsedBody)) letGoOf(parsedBody, field, () => reread(rawBody, field));
}

/** Whether the object's conversation (`field`) is let go of (not read again since). */
export function conversationLetGo(holder: object, field = 'messages'): boolean {
  return typeof Object.getOwnPropertyDescriptor(holder, field)?.get === 'function';
}

function letGoOf(holder: Readonly<Record<string, unknown>>, field: string, read: () => unknown): void {
  const own = Object.getOwnPropertyDescriptor(holder, field);
  // Only a conversation held as a plain value (not one let go of already) is let go of.
  if (!own || !('value' in own) || !Array.isArray(own.value)) return;
  const keep = (value: unknown) => Object.defineProperty(holder, field, { value, writable: true, enumerable: true, configurable: true });
  Object.defineProperty(holder, field, {
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

function reread(rawBody: Buffer, field: string): unknown {
  const parsed: unknown = JSON.parse(rawBody.toString('utf8'));
  return isObject(parsed) ? parsed[field] : undefined;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
