import type { ChatCompletionRequest } from '@chat-relay/contract';
import type { AnswerContent } from '../build-chat-completion';
import { toolCallName, trailingToolResults } from '../decide-answer';
import { lastUserText, stripSimMarkers } from '../message-text';
import { splitIntoStreamTokens } from '../tokens';
import type { ThinkingConfig } from './anthropic-api';
import { signThinking } from './thinking-signature';

/** The thinking block of an answer: its text as shown ('' when `display` is `omitted`) and its signature. */
export interface ThinkingPart {
  thinking: string;
  signature: string;
}

/** What the Messages API answers: the brain's plan, the thinking before it, every output token. */
export interface AnthropicAnswer {
  plan: AnswerContent;
  thinking: ThinkingPart | undefined;
  /** Thinking tokens (shown or not) plus the plan's. */
  outputTokens: number;
}

/** What the simulated model thinks: what it read, and what it is about to do. */
export function thinkingTextFor(plan: AnswerContent, internal: ChatCompletionRequest): string {
  if (plan.kind === 'tool_calls') {
    const names = plan.toolCalls.map(toolCallName).join(' and ');
    return `The user wrote: "${stripSimMarkers(lastUserText(internal.messages))}". I should call ${names}.`;
  }
  const results = trailingToolResults(internal.messages);
  if (results.length > 0) return `The results of ${results.map((result) => result.name).join(' and ')} are in. I will sum them up.`;
  const userText = stripSimMarkers(lastUserText(internal.messages));
  return userText.length > 0 ? `The user wrote: "${userText}". I will say it back.` : 'The user wrote nothing.';
}

/** A text plan cut to what `max_tokens` leaves after the thinking. */
function cutText(plan: AnswerContent, budget: number): AnswerContent {
  if (plan.kind !== 'text') return plan;
  const tokens = splitIntoStreamTokens(plan.content);
  if (tokens.length <= budget) return plan;
  const completionTokens = Math.max(budget, 0);
  return {
    ...plan,
    content: tokens.slice(0, completionTokens).join(''),
    finishReason: 'length',
    usage: { ...plan.usage, completion_tokens: completionTokens, total_tokens: plan.usage.prompt_tokens + completionTokens },
  };
}

/**
 * The answer with a signed thinking block first when the request turns thinking on. Thinking
 * counts toward `max_tokens` as on the real API: a text answer is cut to what it leaves.
 */
export function addThinking(
  plan: AnswerContent,
  internal: ChatCompletionRequest,
  request: { thinking?: ThinkingConfig | undefined; max_tokens: number },
): AnthropicAnswer {
  const config = request.thinking;
  if (config === undefined || config.type === 'disabled') {
    return { plan, thinking: undefined, outputTokens: plan.usage.completion_tokens };
  }
  const thought = splitIntoStreamTokens(thinkingTextFor(plan, internal)).slice(0, request.max_tokens);
  const text = thought.join('');
  const shown = config.display === 'omitted' ? '' : text;
  const answered = cutText(plan, request.max_tokens - thought.length);
  return {
    plan: answered,
    thinking: { thinking: shown, signature: signThinking(shown) },
    outputTokens: thought.length + answered.usage.completion_tokens,
  };
}
