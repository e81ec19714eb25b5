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
 * The tokenizer's count (o200k) times this, for the prompt of a model whose provider's tokenizer
 * is not o200k — a stated margin, not a measurement: Claude's and Gemini's tokenizers are not
 * public (third-party comparisons put Claude's at roughly 1.2–1.3 × o200k's count on English and
 * code, Gemini's near o200k's), and cl100k (gpt-4, gpt-3.5) makes somewhat more than o200k. A
 * prompt counted short by more than the margin is charged in full at settlement: the shortfall
 * is an overspend of (real − estimated) × input price (README, quota).
 */
export const FOREIGN_TOKENIZER_MARGIN = 1.35;

/** OpenAI models counted with cl100k (gpt-4, gpt-4-turbo, gpt-3.5), not o200k. */
const CL100K_MODEL = /(?:^|\/)(?:gpt-3\.5|gpt-4(?![o.]))/;
const countsWithO200k = (model: string): boolean => !CL100K_MODEL.test(model);

/** The margin the prompt's o200k count is taken with for `family`'s model `model` (see FOREIGN_TOKENIZER_MARGIN). */
export function tokenizerMargin(family: string, model: string): number {
  return family === 'openai' && countsWithO200k(model) ? 1 : FOREIGN_TOKENIZER_MARGIN;
}

/** Counts a prompt with the relay's tokenizer (billing/estimate-usage.ts countPromptTokens). */
export type CountPrompt = (request: ChatCompletionRequest) => Promise<number>;

/**
 * Tokens a prompt is billed beyond its text, which the tokenizer never sees: the instructions an
 * upstream adds for tools, an allowance per image, file or audio part (an image is a short link
 * to many tokens), and `extraTokens` (what the relay adds on the way, as bytes: one token at most
 * each).
 */
export function promptAllowance(request: ChatCompletionRequest, extraTokens = 0): number {
  let mediaParts = 0;
  for (const message of request.messages) {
    const content: unknown = message.content;
    if (!Array.isArray(content)) continue;
    for (const part of content as Array<{ type?: unknown }>) {
      if (part.type === 'image_url' || part.type === 'file' || part.type === 'input_audio') mediaParts += 1;
    }
  }
  const tools = request.tools?.length || request.functions?.length ? TOOL_PROMPT_TOKENS : 0;
  return FRAMING_TOKENS_PER_REQUEST + tools + MEDIA_PART_TOKENS * mediaParts + extraTokens;
}

/**
 * An upper bound of the prompt tokens any upstream bills for `request`, whose JSON is
 * `bodyBytes` bytes of UTF-8 — the bound the reservation used before it counted with the
 * tokenizer, kept as the ceiling of a count (`promptTokenEstimate`).
 *
 * Why it is a bound: every tokenizer the relay's upstreams use is a byte-level BPE (or
 * SentencePiece with byte fallback), where a token covers at least one byte of text, so a text
 * has at most as many tokens as its UTF-8 bytes; tokens not made of the body's text are added on
 * top (framing, tool instructions, media parts).
 */
export function promptTokenBound(request: ChatCompletionRequest, bodyBytes: number): number {
  return bodyBytes + FRAMING_TOKENS_PER_MESSAGE * request.messages.length + promptAllowance(request);
}

/**
 * The prompt tokens the reservation assumes for `request` served as `family`'s `model`: the
 * relay's tokenizer count (exact for OpenAI's o200k models; within {@link FOREIGN_TOKENIZER_MARGIN}
 * elsewhere) plus what the tokenizer never sees ({@link promptAllowance}) — never more than the
 * byte bound, which no tokenizer exceeds.
 */
export function promptTokenEstimate(counted: number, request: ChatCompletionRequest, family: string, model: string, byteBound: number, extraTokens = 0): number {
  const estimate = Math.ceil(counted * tokenizerMargin(family, model)) + promptAllowance(request, extraTokens);
  return Math.min(estimate, byteBound + extraTokens);
}

/** What bounds the completion a reservation counts. */
export interface CompletionLimits {
  /** Per choice, when the request sets no limit of its own (RELAY_QUOTA_DEFAULT_COMPLETION_TOKENS). */
  defaultTokens?: number;
  /** The model's own output limit (the catalogue's), when known. */
  modelLimit?: number;
  /** The reservation's cap per choice (RELAY_QUOTA_OUTPUT_RESERVATION_TOKENS); none when not given. */
  cap?: number;
}

/**
 * Completion tokens the request reserves: per choice, the least of its own limit (the larger,
 * when it sets both `max_tokens` and `max_completion_tokens`; reasoning tokens count within it) or
 * `defaultTokens` without one, the model's real output limit, and the reservation's `cap` — times
 * its `n` choices. Past the cap it is an estimate, not a bound: the worst case is then an
 * overspend of (min(limit, model limit) − cap) × the output price per request, charged at
 * settlement (README, quota).
 */
export function completionTokenBound(request: ChatCompletionRequest, limits: CompletionLimits | number = {}): number {
  const { defaultTokens = DEFAULT_COMPLETION_RESERVATION, modelLimit, cap } = typeof limits === 'number' ? { defaultTokens: limits } : limits;
  const asked = Math.max(request.max_tokens ?? 0, request.max_completion_tokens ?? 0) || defaultTokens;
  const limit = Math.min(asked, modelLimit ?? Infinity, cap ?? Infinity);
  // OpenAI bills a predicted output's rejected tokens as completion tokens, beyond the limit.
  const prediction: unknown = request['prediction'];
  const predicted = prediction === undefined ? 0 : Buffer.byteLength(JSON.stringify(prediction));
  return (limit + predicted) * (request.n ?? 1);
}
