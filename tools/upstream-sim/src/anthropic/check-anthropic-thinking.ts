import type { AnthropicMessage, ThinkingConfig } from './anthropic-api';
import type { ConversationProblem } from './check-anthropic-conversation';
import { verifyThinkingSignature } from './thinking-signature';

const docs = 'https://docs.claude.com/en/docs/build-with-claude/extended-thinking';
export const minThinkingBudget = 1024;

/** True when the request asks for thinking (`enabled` or `adaptive`). */
export function thinkingIsOn(thinking: ThinkingConfig | undefined): boolean {
  return thinking !== undefined && thinking.type !== 'disabled';
}

/**
 * A budget of at least 1024 tokens and below `max_tokens` (undefined for count_tokens, which
 * has none), in the API's words.
 */
export function checkThinkingConfig(thinking: ThinkingConfig | undefined, maxTokens: number | undefined): ConversationProblem {
  if (thinking?.type !== 'enabled') return undefined;
  if (thinking.budget_tokens < minThinkingBudget) {
    return `thinking.enabled.budget_tokens: Input should be greater than or equal to ${minThinkingBudget}`;
  }
  if (maxTokens !== undefined && thinking.budget_tokens >= maxTokens) {
    return (
      '`max_tokens` must be greater than `thinking.budget_tokens`. ' +
      `Please consult our documentation at ${docs}#max-tokens-and-context-window-size`
    );
  }
  return undefined;
}

/** Every thinking block sent back carries the signature the simulator gave it. */
function checkSignatures(messages: readonly AnthropicMessage[]): ConversationProblem {
  for (const [index, message] of messages.entries()) {
    if (typeof message.content === 'string') continue;
    for (const [blockIndex, block] of message.content.entries()) {
      if (block.type !== 'thinking') continue;
      if (block.signature === undefined) return `messages.${index}.content.${blockIndex}.thinking.signature: Field required`;
      if (!verifyThinkingSignature(block.thinking, block.signature)) {
        return `messages.${index}.content.${blockIndex}: Invalid \`signature\` in \`thinking\` block`;
      }
    }
  }
  return undefined;
}

/**
 * With thinking on, the assistant turn whose tool uses the last user turn answers must start
 * with its thinking block: the model resumes that turn, and the API wants its reasoning back.
 */
function checkToolLoopStartsWithThinking(messages: readonly AnthropicMessage[]): ConversationProblem {
  const last = messages[messages.length - 1];
  const answersTools =
    last?.role === 'user' && typeof last.content !== 'string' && last.content.some((block) => block.type === 'tool_result');
  const index = messages.length - 2;
  const turn = messages[index];
  if (!answersTools || turn?.role !== 'assistant') return undefined;
  const firstType = typeof turn.content === 'string' ? 'text' : turn.content[0]?.type;
  if (firstType === undefined || firstType === 'thinking' || firstType === 'redacted_thinking') return undefined;
  return (
    `messages.${index}.content.0.type: Expected \`thinking\` or \`redacted_thinking\`, but found \`${firstType}\`. ` +
    'When `thinking` is enabled, a final `assistant` message must start with a thinking block ' +
    '(preceeding the lastmost set of `tool_use` and `tool_result` blocks). ' +
    'We recommend you include thinking blocks from previous turns. To avoid this requirement, disable `thinking`. ' +
    `Please consult our documentation at ${docs}`
  );
}

/** The thinking rules of one request: its budget, the signatures it sends back, the tool loop. */
export function checkAnthropicThinking(
  request: { thinking?: ThinkingConfig | undefined; messages: readonly AnthropicMessage[] },
  maxTokens: number | undefined,
): ConversationProblem {
  return (
    checkThinkingConfig(request.thinking, maxTokens) ??
    checkSignatures(request.messages) ??
    (thinkingIsOn(request.thinking) ? checkToolLoopStartsWithThinking(request.messages) : undefined)
  );
}
