import type { ChatCompletionRequest, Message } from '@chat-relay/contract';
import { BoundedTokenCount, RememberedCounts, type CountPiece } from './count-tokens-bounded';
import { stringifyWithoutRecursion } from './stringify-without-recursion';
import { readTiktokenRanks } from './tiktoken-ranks';

// About four characters a token: only for the quota reservation, which must be cheap.
const CHARS_PER_TOKEN = 4;

export const estimateTokensFromChars = (chars: number): number => Math.ceil(chars / CHARS_PER_TOKEN);

/** Entries the tokenizer keeps of pre-tokens it merged; its default of 100,000 long pieces is gigabytes. */
const MERGE_CACHE_ENTRIES = 4096;
/** A caller's text that spells `<|endoftext|>` is text to the upstream too, not a reason to throw. */
const SPECIAL_TOKENS_AS_TEXT = { disallowedSpecial: new Set<string>() };

let tokenizer: Promise<CountPiece> | undefined;

/**
 * The package's encoder class, by the subpath its `exports` give to both `import` (its ESM build,
 * what the production bundle's `import()` takes) and `require` (its CommonJS build, under Jest);
 * `cjs/…` exists for `require` only. A name, not a literal: TypeScript (node10 resolution) finds
 * the types under `cjs/`, not at this subpath.
 */
const GPT_ENCODING_MODULE = 'gpt-tokenizer/GptEncoding';

/** Long prompt texts' counts, shared by every request of this process (see RememberedCounts). */
const rememberedPrompts = new RememberedCounts();

/**
 * A real BPE tokenizer (o200k, as recent OpenAI models use), loaded on first need only: it holds
 * ~50 MB that a relay whose upstreams report usage never needs (measured with the bench:
 * preloading it raised peak RSS under load from ~180 to ~250 MB, so it stays lazy). Its ranks
 * are decoded from the package's data file, in turns (see readTiktokenRanks), not required as the
 * package's generated module.
 */
function loadTokenizer(): Promise<CountPiece> {
  tokenizer ??= (async () => {
    const [{ GptEncoding }, ranks] = await Promise.all([
      import(GPT_ENCODING_MODULE) as Promise<typeof import('gpt-tokenizer/cjs/GptEncoding')>,
      readTiktokenRanks(require.resolve('gpt-tokenizer/data/o200k_base.tiktoken')),
    ]);
    const encoding = GptEncoding.getEncodingApi('o200k_base', () => ranks);
    encoding.setMergeCacheSize(MERGE_CACHE_ENTRIES);
    return (text: string) => encoding.countTokens(text, SPECIAL_TOKENS_AS_TEXT);
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
