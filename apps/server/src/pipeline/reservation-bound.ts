import type { ChatCompletionRequest } from '@chat-relay/contract';

/**
 * Completion tokens reserved when the request sets no limit of its own — the one part of a
 * reservation that is not a bound (see `completionTokenBound`).
 */
export const DEFAULT_COMPLETION_RESERVATION = 1024;

/**
 * Chat-template framing per message (role markers, separators: 3–5 tokens in ChatML, Llama 3
 * and OpenAI's own count), with room to spare. The JSON around each message in the body
 * (`{"role":"user","content":""}`, ≥ 26 bytes) already covers it; counted anyway.
 */
const FRAMING_TOKENS_PER_MESSAGE = 8;
/** The reply's priming (OpenAI counts 3). */
const FRAMING_TOKENS_PER_REQUEST = 32;
/**
 * A request with tools gets instructions the caller never wrote: Anthropic adds a tool-use
 * system prompt of 313–346 tokens (Claude 4), OpenAI a TypeScript-like header of about 20.
 */
const TOOL_PROMPT_TOKENS = 1024;
/**
 * What one image (or file) part may be billed, whatever its bytes: an `image_url` is a short
 * link to many tokens. The most any model bills for one image today is gpt-4o-mini's: 8 tiles
 * at high detail, 2,833 + 8 × 5,667 = 48,169 tokens (gpt-4o 1,445, Claude ≈ 1,600, Gemini
 * ≈ 4,100 tiled). A file part by `file_id` is not truly bounded by this (a long PDF).
 */
export const MEDIA_PART_TOKENS = 50_000;

/**
 * An upper bound of the prompt tokens any upstream bills for `request`, whose JSON is
 * `bodyBytes` bytes of UTF-8.
 *
 * Why it is a bound: every tokenizer the relay's upstreams use is a byte-level BPE (or
 * SentencePiece with byte fallback), where a token covers at least one byte of text, so a text
 * has at most as many tokens as its UTF-8 bytes. Every text the prompt holds — message
 * contents, names, tool call arguments, tool definitions — is in the body, as JSON that is at
 * least as long as the text (escapes only lengthen it). Tokens not made of the body's text are
 * added on top: the template's framing per message and per request, the instructions an upstream
 * adds for tools, and an allowance per image or file part. Audio is in the body as base64, far more bytes than its tokens (≈ 10 a second).
 *
 * Cheap: the body's length is known, and only content-part arrays are walked.
 */
export function promptTokenBound(request: ChatCompletionRequest, bodyBytes: number): number {
  let mediaParts = 0;
  for (const message of request.messages) {
    const content: unknown = message.content;
    if (!Array.isArray(content)) continue;
    for (const part of content as Array<{ type?: unknown }>) {
      if (part.type === 'image_url' || part.type === 'file') mediaParts += 1;
    }
  }
  const tools = request.tools?.length || request.functions?.length ? TOOL_PROMPT_TOKENS : 0;
  return bodyBytes + FRAMING_TOKENS_PER_REQUEST + tools + FRAMING_TOKENS_PER_MESSAGE * request.messages.length + MEDIA_PART_TOKENS * mediaParts;
}

/**
 * Completion tokens the request may be billed: its own limit (the larger, when it sets both
 * `max_tokens` and `max_completion_tokens`; reasoning tokens count within it) for each of its
 * `n` choices. Without a limit it is `defaultTokens` per choice — an estimate, not a bound: the
 * upstream may write up to the model's own output limit, and the settlement charges what it did.
 */
export function completionTokenBound(request: ChatCompletionRequest, defaultTokens = DEFAULT_COMPLETION_RESERVATION): number {
  const limit = Math.max(request.max_tokens ?? 0, request.max_completion_tokens ?? 0) || defaultTokens;
  // OpenAI bills a predicted output's rejected tokens as completion tokens, beyond the limit.
  const prediction: unknown = request['prediction'];
  const predicted = prediction === undefined ? 0 : Buffer.byteLength(JSON.stringify(prediction));
  return (limit + predicted) * (request.n ?? 1);
}
