import type { AnthropicMessage, ContentBlock, TextBlock } from './anthropic-api';

/** A rule of the Messages API that a well-formed body can still break; the 400's message. */
export type ConversationProblem = string | undefined;

function blocksOf(message: AnthropicMessage): ContentBlock[] {
  return typeof message.content === 'string' ? [] : message.content;
}

function isEmpty(message: AnthropicMessage): boolean {
  return message.content.length === 0;
}

function toolUseIds(message: AnthropicMessage | undefined): string[] {
  if (message?.role !== 'assistant') return [];
  return blocksOf(message).flatMap((block) => (block.type === 'tool_use' ? [block.id] : []));
}

/** Every text block of a message, those inside tool results included. */
function textBlocksOf(message: AnthropicMessage): TextBlock[] {
  return blocksOf(message).flatMap((block) => {
    if (block.type === 'text') return [block];
    if (block.type !== 'tool_result' || !Array.isArray(block.content)) return [];
    return block.content.flatMap((part) => (part.type === 'text' ? [part] : []));
  });
}

/**
 * The API's wording names the field (`messages` or `system`), not the block: an empty text
 * block and a whitespace-only one are told apart.
 */
export function checkTextBlocks(field: 'messages' | 'system', blocks: readonly TextBlock[]): ConversationProblem {
  for (const block of blocks) {
    if (block.text.length === 0) return `${field}: text content blocks must be non-empty`;
    if (block.text.trim().length === 0) return `${field}: text content blocks must contain non-whitespace text`;
  }
  return undefined;
}

/** A prefill the model continues must not end in whitespace. */
function checkFinalAssistant(messages: readonly AnthropicMessage[]): ConversationProblem {
  const last = messages[messages.length - 1];
  if (last?.role !== 'assistant') return undefined;
  const lastBlock = typeof last.content === 'string' ? undefined : last.content[last.content.length - 1];
  const text = typeof last.content === 'string' ? last.content : lastBlock?.type === 'text' ? lastBlock.text : '';
  return /\s$/.test(text) ? 'messages: final assistant content cannot end with trailing whitespace' : undefined;
}

function checkRoles(messages: readonly AnthropicMessage[]): ConversationProblem {
  if (messages[0]?.role !== 'user') return 'messages: first message must use the "user" role';
  for (let index = 1; index < messages.length; index += 1) {
    const role = messages[index]?.role;
    if (role === messages[index - 1]?.role) {
      return `messages: roles must alternate between "user" and "assistant", but found multiple "${role}" roles in a row`;
    }
  }
  return undefined;
}

function checkNonEmpty(messages: readonly AnthropicMessage[]): ConversationProblem {
  for (const [index, message] of messages.entries()) {
    const isFinalAssistant = index === messages.length - 1 && message.role === 'assistant';
    if (isEmpty(message) && !isFinalAssistant) {
      return `messages.${index}: all messages must have non-empty content except for the optional final assistant message`;
    }
  }
  return undefined;
}

/** In a user turn, tool results come first and each answers a `tool_use` of the turn before. */
function checkToolResults(messages: readonly AnthropicMessage[], index: number): ConversationProblem {
  const message = messages[index];
  if (message?.role !== 'user') return undefined;
  const expected = new Set(toolUseIds(messages[index - 1]));
  let sawOtherContent = false;
  for (const [blockIndex, block] of blocksOf(message).entries()) {
    if (block.type !== 'tool_result') {
      sawOtherContent = true;
      continue;
    }
    if (sawOtherContent) {
      return `messages.${index}.content.${blockIndex}: tool_result blocks must come before any other content in a user message`;
    }
    if (!expected.has(block.tool_use_id)) {
      return (
        `messages.${index}.content.${blockIndex}: unexpected \`tool_use_id\` found in \`tool_result\` blocks: ${block.tool_use_id}. ` +
        'Each `tool_result` block must have a corresponding `tool_use` block in the previous message.'
      );
    }
  }
  return undefined;
}

/** Every `tool_use` of an assistant turn is answered by a `tool_result` in the very next turn. */
function checkToolUses(messages: readonly AnthropicMessage[], index: number): ConversationProblem {
  const ids = toolUseIds(messages[index]);
  if (ids.length === 0) return undefined;
  const next = messages[index + 1];
  const answered = new Set(
    next ? blocksOf(next).flatMap((block) => (block.type === 'tool_result' ? [block.tool_use_id] : [])) : [],
  );
  const unanswered = ids.filter((id) => !answered.has(id));
  if (unanswered.length === 0) return undefined;
  return (
    `messages.${index + 1}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${unanswered.join(', ')}. ` +
    'Each `tool_use` block must have a corresponding `tool_result` block in the next message.'
  );
}

/**
 * The conversation rules the real API enforces beyond the body's shape: no empty or blank text
 * block, the first turn is the user's, roles alternate (the simulator does not merge turns), no
 * empty turn, no prefill ending in whitespace, and tool uses and results pair up turn by turn.
 */
export function checkAnthropicConversation(messages: readonly AnthropicMessage[]): ConversationProblem {
  const problem =
    checkTextBlocks('messages', messages.flatMap(textBlocksOf)) ??
    checkRoles(messages) ??
    checkNonEmpty(messages) ??
    checkFinalAssistant(messages);
  if (problem) return problem;
  for (let index = 0; index < messages.length; index += 1) {
    const pairing = checkToolResults(messages, index) ?? checkToolUses(messages, index);
    if (pairing) return pairing;
  }
  return undefined;
}
