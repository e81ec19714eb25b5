import { z } from 'zod';

/**
 * The signed reasoning of a hub message (Chat Completions has no field for it): an assistant
 * message and a stream delta carry `thinking_blocks` beside `reasoning_content`, as LiteLLM's
 * Chat Completions does for Claude, so a caller that sends the message back sends its thinking
 * back. Anthropic's blocks as they are (`thinking` with its `signature`, `redacted_thinking`
 * with its `data`). In a stream, the text comes as `reasoning_content` deltas and each block
 * ends with one delta whose block has `thinking: ''` and the signature (or is the redacted block).
 */
export const HubThinkingBlockSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('thinking'), thinking: z.string(), signature: z.string().min(1) }).passthrough(),
  z.object({ type: z.literal('redacted_thinking'), data: z.string().min(1) }).passthrough(),
]);
export type HubThinkingBlock = z.infer<typeof HubThinkingBlockSchema>;

/** The hub field that carries them. */
export const THINKING_BLOCKS_FIELD = 'thinking_blocks';

/** The well-formed thinking blocks of a message or delta (others are not the relay's to send back). */
export function thinkingBlocksOf(message: Record<string, unknown>): HubThinkingBlock[] {
  const value = message[THINKING_BLOCKS_FIELD];
  if (!Array.isArray(value)) return [];
  const blocks: HubThinkingBlock[] = [];
  for (const entry of value) {
    const parsed = HubThinkingBlockSchema.safeParse(entry);
    if (parsed.success) blocks.push(parsed.data);
  }
  return blocks;
}

/**
 * A Responses reasoning item's `encrypted_content` made by the relay: the signed block, so the
 * item alone brings the thinking back (a client may send the item without its summary). Opaque
 * to the caller like OpenAI's; the prefix tells it from OpenAI's own.
 */
const ENCRYPTED_PREFIX = 'chat-relay.thinking.v1.';

export function encryptedContentOf(block: HubThinkingBlock): string {
  return ENCRYPTED_PREFIX + Buffer.from(JSON.stringify(block), 'utf8').toString('base64url');
}

/** The block a relay-made `encrypted_content` carries; undefined for anything else (OpenAI's own, or altered). */
export function thinkingBlockOfEncrypted(encrypted: unknown): HubThinkingBlock | undefined {
  if (typeof encrypted !== 'string' || !encrypted.startsWith(ENCRYPTED_PREFIX)) return undefined;
  try {
    const json: unknown = JSON.parse(Buffer.from(encrypted.slice(ENCRYPTED_PREFIX.length), 'base64url').toString('utf8'));
    const parsed = HubThinkingBlockSchema.safeParse(json);
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}
