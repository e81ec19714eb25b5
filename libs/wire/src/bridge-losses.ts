import { CHAT_TO_ANTHROPIC } from './anthropic-messages/upstream/chat-to-anthropic-losses';
import { CHAT_TO_CONVERSE } from './bedrock/converse/chat-to-converse-losses';
import { MESSAGES_TO_CHAT } from './anthropic-messages/messages-bridge-losses';
import { GEMINI_EMBED_TO_EMBEDDINGS, GEMINI_TO_CHAT } from './gemini/gemini-bridge-losses';
import { TO_GEMINI } from './gemini/upstream/chat-to-gemini-losses';
import type { LossTable } from './hub/bridge-loss';
import { RESPONSES_TO_CHAT } from './openai-responses/responses-bridge-losses';

export { CHAT_TO_ANTHROPIC, CHAT_TO_CONVERSE, GEMINI_EMBED_TO_EMBEDDINGS, GEMINI_TO_CHAT, MESSAGES_TO_CHAT, RESPONSES_TO_CHAT, TO_GEMINI };

/** Every bridge's losses, in the order docs/guides/bridge-fidelity.md lists them. */
export const BRIDGE_LOSS_TABLES: readonly LossTable[] = [MESSAGES_TO_CHAT, RESPONSES_TO_CHAT, GEMINI_TO_CHAT, GEMINI_EMBED_TO_EMBEDDINGS, CHAT_TO_ANTHROPIC, TO_GEMINI, CHAT_TO_CONVERSE];
