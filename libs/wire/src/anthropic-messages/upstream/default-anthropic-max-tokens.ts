/**
 * Anthropic requires `max_tokens`; OpenAI callers may leave it out, meaning "as long as the
 * model can go". When they do, the relay sends the model family's documented maximum output
 * (without beta headers), so an answer is never cut shorter than it would be on OpenAI:
 *
 *   model family (upstream name)                       default max_tokens
 *   claude-3-5-sonnet*, claude-3-5-haiku*              8192
 *   claude-3-7-sonnet*                                 64000
 *   claude-3-haiku*, claude-3-opus*, claude-3-sonnet*  4096
 *   claude-opus-4, claude-opus-4-0, claude-opus-4-1    32000   (dated names too)
 *   claude-sonnet-4*, claude-haiku-4*, claude-opus-4-5+ 64000
 *   anything else (older or unknown models)            4096    (accepted by every Claude model)
 *
 * First match wins.
 */
const DEFAULT_MAX_TOKENS: ReadonlyArray<readonly [RegExp, number]> = [
  [/^claude-3-5-/, 8192],
  [/^claude-3-7-/, 64000],
  [/^claude-3-/, 4096],
  [/^claude-opus-4(-[01])?(-\d{8})?$/, 32000],
  [/^claude-(sonnet|haiku|opus)-4/, 64000],
];

export const FALLBACK_MAX_TOKENS = 4096;

export function defaultAnthropicMaxTokens(upstreamModel: string): number {
  const model = upstreamModel.toLowerCase();
  return DEFAULT_MAX_TOKENS.find(([pattern]) => pattern.test(model))?.[1] ?? FALLBACK_MAX_TOKENS;
}
