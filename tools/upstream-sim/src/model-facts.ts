// What the real providers' models accept, as the simulator enforces it: one table per family,
// matched by model id pattern (first match wins, so the specific patterns come first). A model
// no pattern matches is answered leniently, as before these rules existed.
//
// Written by hand on purpose and never imported from the relay's catalogue: the simulator must
// not agree with the relay by construction. Output limits and reasoning flags were checked
// against models.dev (anomalyco/models.dev @ f3fc692, providers/<family>/models/<id>.toml:
// `[limit] output`, `reasoning`, `temperature`) and against the providers' own refusals quoted
// in the rule files (openai-model-rules.ts, anthropic/anthropic-model-rules.ts,
// gemini/gemini-model-rules.ts).

/** An OpenAI model (Chat Completions and Responses). */
export interface OpenAiModelFacts {
  pattern: RegExp;
  /** The most output tokens one request may ask for (`max_tokens`, `max_completion_tokens`, `max_output_tokens`). */
  maxOutputTokens: number;
  /**
   * `chat`: a non-reasoning model, refuses `reasoning_effort` / `reasoning.effort`.
   * `reasoning`: takes the effort, refuses `max_tokens` (wants `max_completion_tokens`) and any
   * `temperature` / `top_p` but the default 1.
   * `chat-latest`: GPT-5's chat names — sampling as a chat model; whether they refuse an effort
   * is not settled in the sources, so it is not checked.
   */
  kind: 'chat' | 'reasoning' | 'chat-latest';
}

/** `gpt-5-chat-latest`, `gpt-5.1-chat-latest`…: GPT-5 names that are chat models, not reasoning ones. */
const gpt5ChatLatest = /^gpt-5(\.\d+)?-chat-latest$/;

/**
 * OpenAI. Output limits from models.dev `[limit] output` (gpt-4o 16,384 as OpenAI's own refusal
 * says: https://github.com/enoch3712/ExtractThinker/issues/346). Models not listed (embeddings,
 * images, audio, `gpt-3.5-turbo-instruct` on /v1/completions, other vendors' names) are not checked.
 */
export const openAiModelFacts: readonly OpenAiModelFacts[] = [
  // models.dev gpt-4o-2024-05-13.toml: output 4,096 (the first snapshot).
  { pattern: /^gpt-4o-2024-05-13$/, maxOutputTokens: 4_096, kind: 'chat' },
  // gpt-4o, gpt-4o-mini and their snapshots (but not the audio / realtime / transcribe / tts / search variants).
  { pattern: /^gpt-4o(-mini)?(-\d{4}-\d{2}-\d{2})?$/, maxOutputTokens: 16_384, kind: 'chat' },
  { pattern: /^chatgpt-4o-latest$/, maxOutputTokens: 16_384, kind: 'chat' },
  // gpt-4.1, -mini, -nano: output 32,768.
  { pattern: /^gpt-4\.1(-mini|-nano)?(-\d{4}-\d{2}-\d{2})?$/, maxOutputTokens: 32_768, kind: 'chat' },
  // gpt-4-turbo (and the 1106/0125 previews): output 4,096.
  { pattern: /^gpt-4-(turbo|\d{4}-preview|turbo-preview)/, maxOutputTokens: 4_096, kind: 'chat' },
  // gpt-4 (8k): output 8,192.
  { pattern: /^gpt-4(-\d{4})?$/, maxOutputTokens: 8_192, kind: 'chat' },
  // gpt-3.5-turbo (chat): output 4,096 (https://github.com/ChatGPTNextWeb/NextChat/issues/3195).
  { pattern: /^gpt-3\.5-turbo(-\d{4})?(-16k)?$/, maxOutputTokens: 4_096, kind: 'chat' },
  // o1, o3, o4-mini and their -mini / -pro / dated variants: output 100,000.
  { pattern: /^o[134](-mini|-pro)?(-\d{4}-\d{2}-\d{2})?$/, maxOutputTokens: 100_000, kind: 'reasoning' },
  // GPT-5 chat names (models.dev gpt-5-chat-latest.toml: temperature true, output 128,000).
  { pattern: gpt5ChatLatest, maxOutputTokens: 128_000, kind: 'chat-latest' },
  // gpt-5, gpt-5.x, -mini, -nano, -pro, -codex…: output 128,000.
  { pattern: /^gpt-5(\.\d+)?(-[a-z0-9-]+)?$/, maxOutputTokens: 128_000, kind: 'reasoning' },
];

/** An Anthropic model (Messages API). */
export interface AnthropicModelFacts {
  pattern: RegExp;
  /** The id Anthropic names in its refusals (an alias resolved to its dated id). */
  canonicalId: (model: string) => string;
  maxOutputTokens: number;
  /** Takes `thinking` (`enabled` or `adaptive`). */
  thinking: boolean;
  /**
   * Refuses `thinking: {type: "enabled", budget_tokens}`, adaptive being its only way to think
   * (Opus 4.7 on: https://github.com/AAswordman/Operit/pull/568, https://github.com/QuantumNous/new-api/pull/4293).
   */
  adaptiveOnly?: boolean;
  /** Refuses `temperature` together with `top_p` (Claude Opus 4.1 and every Claude from 4.5 on). */
  oneSampler: boolean;
}

const asSent = (model: string): string => model;
const dated = (id: string) => (): string => id;

/**
 * Anthropic. Output limits from models.dev `[limit] output` and Anthropic's own refusals
 * (`… 64000, which is the maximum allowed number of output tokens for claude-opus-4-5-20251101`:
 * https://github.com/anthropics/claude-code/issues/24451).
 */
export const anthropicModelFacts: readonly AnthropicModelFacts[] = [
  { pattern: /^claude-opus-4-[7-9]/, canonicalId: asSent, maxOutputTokens: 128_000, thinking: true, adaptiveOnly: true, oneSampler: true },
  { pattern: /^claude-opus-4-6/, canonicalId: asSent, maxOutputTokens: 128_000, thinking: true, oneSampler: true },
  { pattern: /^claude-sonnet-4-[6-9]/, canonicalId: asSent, maxOutputTokens: 64_000, thinking: true, oneSampler: true },
  { pattern: /^claude-opus-4-5/, canonicalId: dated('claude-opus-4-5-20251101'), maxOutputTokens: 64_000, thinking: true, oneSampler: true },
  { pattern: /^claude-sonnet-4-5/, canonicalId: dated('claude-sonnet-4-5-20250929'), maxOutputTokens: 64_000, thinking: true, oneSampler: true },
  { pattern: /^claude-haiku-4-5/, canonicalId: dated('claude-haiku-4-5-20251001'), maxOutputTokens: 64_000, thinking: true, oneSampler: true },
  // Opus 4.1 already refuses both samplers: https://github.com/anomalyco/opencode/issues/1644
  { pattern: /^claude-opus-4-1/, canonicalId: dated('claude-opus-4-1-20250805'), maxOutputTokens: 32_000, thinking: true, oneSampler: true },
  { pattern: /^claude-opus-4(-0|-20250514)$/, canonicalId: dated('claude-opus-4-20250514'), maxOutputTokens: 32_000, thinking: true, oneSampler: false },
  { pattern: /^claude-sonnet-4(-0|-20250514)$/, canonicalId: dated('claude-sonnet-4-20250514'), maxOutputTokens: 64_000, thinking: true, oneSampler: false },
  { pattern: /^claude-3-7-sonnet/, canonicalId: dated('claude-3-7-sonnet-20250219'), maxOutputTokens: 64_000, thinking: true, oneSampler: false },
  { pattern: /^claude-3-5-haiku/, canonicalId: dated('claude-3-5-haiku-20241022'), maxOutputTokens: 8_192, thinking: false, oneSampler: false },
  { pattern: /^claude-3-5-sonnet/, canonicalId: asSent, maxOutputTokens: 8_192, thinking: false, oneSampler: false },
  { pattern: /^claude-3-(haiku|opus|sonnet)-/, canonicalId: asSent, maxOutputTokens: 4_096, thinking: false, oneSampler: false },
];

/** How a Gemini model thinks: not at all, by token budget (2.5), or by level (3; budgets still taken). */
export type GeminiThinking = 'none' | 'budget' | 'level';

export interface GeminiModelFacts {
  pattern: RegExp;
  maxOutputTokens: number;
  thinking: GeminiThinking;
  /** Gemini 3: the first function call of each step of the current turn must come back with its thought signature. */
  signatures: boolean;
}

/** Gemini. Output limits from models.dev `[limit] output` (2.0: 8,192; 2.5 and 3: 65,536; 2.5 image: 32,768). */
export const geminiModelFacts: readonly GeminiModelFacts[] = [
  { pattern: /^gemini-2\.0-/, maxOutputTokens: 8_192, thinking: 'none', signatures: false },
  // The image model is not checked for thinking: whether it takes a thinkingConfig is not settled in the sources.
  { pattern: /^gemini-2\.5-flash-image/, maxOutputTokens: 32_768, thinking: 'budget', signatures: false },
  { pattern: /^gemini-2\.5-/, maxOutputTokens: 65_536, thinking: 'budget', signatures: false },
  { pattern: /^gemini-(flash|flash-lite|pro)-latest$/, maxOutputTokens: 65_536, thinking: 'budget', signatures: false },
  { pattern: /^gemini-3(\.\d+)?-.*image/, maxOutputTokens: 32_768, thinking: 'level', signatures: true },
  { pattern: /^gemini-3(\.\d+)?-/, maxOutputTokens: 65_536, thinking: 'level', signatures: true },
];

/** The first entry whose pattern matches `model`, or undefined (an unknown model: no checks). */
export function factsFor<Facts extends { pattern: RegExp }>(table: readonly Facts[], model: string): Facts | undefined {
  return table.find((facts) => facts.pattern.test(model));
}
