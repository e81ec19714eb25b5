import type { ChatCompletionRequest, Message } from '@chat-relay/contract';

// About four characters a token: only for the quota reservation, which must be cheap.
const CHARS_PER_TOKEN = 4;

export const estimateTokensFromChars = (chars: number): number => Math.ceil(chars / CHARS_PER_TOKEN);

type CountTokens = (text: string) => number;
let tokenizer: Promise<CountTokens> | undefined;

/** A real BPE tokenizer (o200k, as recent OpenAI models use), loaded on first need only. */
function loadTokenizer(): Promise<CountTokens> {
  tokenizer ??= import('gpt-tokenizer').then((module) => (text: string) => module.countTokens(text));
  return tokenizer;
}

function textOfContent(content: Message['content']): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((part) => ('text' in part && typeof part.text === 'string' ? part.text : '')).join('\n');
}

/**
 * Prompt tokens the way OpenAI counts chat messages: each message's text plus a few tokens of
 * framing, tool calls' arguments, and the tool definitions.
 */
export async function countPromptTokens(request: ChatCompletionRequest): Promise<number> {
  const count = await loadTokenizer();
  let tokens = 3;
  for (const message of request.messages) {
    tokens += 4 + count(textOfContent(message.content));
    if (message.role === 'assistant') {
      for (const call of message.tool_calls ?? []) {
        tokens += call.type === 'function' ? count(call.function.name) + count(call.function.arguments) : count(call.custom.input);
      }
    }
  }
  if (request.tools?.length) tokens += count(JSON.stringify(request.tools));
  return tokens;
}

export async function countCompletionTokens(text: string): Promise<number> {
  return text ? (await loadTokenizer())(text) : 0;
}

/** The text and tool arguments of a non-streamed completion, for counting. */
export function completionTextOf(body: Record<string, unknown>): string {
  const choices = Array.isArray(body['choices']) ? (body['choices'] as Array<{ message?: Record<string, unknown> }>) : [];
  const parts: string[] = [];
  for (const { message } of choices) {
    if (typeof message?.['content'] === 'string') parts.push(message['content']);
    const calls = Array.isArray(message?.['tool_calls']) ? (message['tool_calls'] as Array<{ function?: { arguments?: unknown } }>) : [];
    for (const call of calls) if (typeof call.function?.arguments === 'string') parts.push(call.function.arguments);
  }
  return parts.join('');
}
