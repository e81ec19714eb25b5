import type { ChatCompletionRequest, Message } from '@chat-relay/contract';
import { BoundedTokenCount, RememberedCounts, type CountPiece } from './count-tokens-bounded';
import { stringifyWithoutRecursion } from './stringify-without-recursion';
import { BpeCounter, O200K_SPLIT } from './bpe-counter';
import { BpeRanks } from './bpe-ranks';

// About four characters a token: only for the quota reservation, which must be cheap.
const CHARS_PER_TOKEN = 4;

export const estimateTokensFromChars = (chars: number): number => Math.ceil(chars / CHARS_PER_TOKEN);

/** Merged pieces whose counts the tokenizer keeps (see BpeCounter). */
const MERGE_CACHE_ENTRIES = 4096;

let tokenizer: Promise<CountPiece> | undefined;

/** Long prompt texts' counts, shared by every request of this process (see RememberedCounts). */
const rememberedPrompts = new RememberedCounts();

/**
 * A real BPE tokenizer (o200k, as recent OpenAI models use), loaded on first need only — a relay
 * whose upstreams report usage never needs it; a stream cut short does. Its ranks are read from
 * the tokenizer package's data file into typed arrays (see BpeRanks): ~4 MB outside the heap,
 * where the package's own encoder held ~15 MB of strings and maps that every major GC walked.
 * The package's counts are the reference its specs hold this to.
 */
function loadTokenizer(): Promise<CountPiece> {
  tokenizer ??= (async () => {
    const ranks = await BpeRanks.read(require.resolve('gpt-tokenizer/data/o200k_base.tiktoken'));
    const counter = new BpeCounter(ranks, O200K_SPLIT, MERGE_CACHE_ENTRIES);
    return (text: string) => counter.count(text);
  })();
  return tokenizer;
}

function textOfContent(content: Message['content']): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((part) => ('text' in part && typeof part.text === 'string' ? part.text : '')).join('\n');
}

/** The tool definitions as sent; without recursion when they are nested too deep for the native one. */
function toolsText(tools: NonNullable<ChatCompletionRequest['tools']>): string {
  try {
    return JSON.stringify(tools);
  } catch {
    return stringifyWithoutRecursion(tools);
  }
}

/**
 * Prompt tokens the way OpenAI counts chat messages: each message's text plus a few tokens of
 * framing, tool calls' arguments, and the tool definitions. Bounded in time whatever the size
 * (see BoundedTokenCount): it yields to the event loop on long prompts.
 */
export async function countPromptTokens(request: ChatCompletionRequest): Promise<number> {
  const count = new BoundedTokenCount(await loadTokenizer(), undefined, rememberedPrompts);
  let framing = 3;
  for (const message of request.messages) {
    framing += 4;
    await count.add(textOfContent(message.content));
    if (message.role === 'assistant') {
      for (const call of message.tool_calls ?? []) {
        if (call.type === 'function') {
          await count.add(call.function.name);
          await count.add(call.function.arguments);
        } else {
          await count.add(call.custom.input);
        }
      }
    }
  }
  if (request.tools?.length) await count.add(toolsText(request.tools));
  return framing + count.total;
}

export async function countCompletionTokens(text: string): Promise<number> {
  if (!text) return 0;
  const count = new BoundedTokenCount(await loadTokenizer());
  await count.add(text);
  return count.total;
}

/** The last resort when counting failed: characters of the messages, as the reservation guesses. */
export function roughPromptTokens(request: ChatCompletionRequest): number {
  let chars = 0;
  for (const message of request.messages) chars += textOfContent(message.content).length;
  return 3 + 4 * request.messages.length + estimateTokensFromChars(chars);
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
