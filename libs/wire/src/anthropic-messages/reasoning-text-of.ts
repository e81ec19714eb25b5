import type { JsonObject } from '../json/json-checks';

/**
 * The reasoning text an OpenAI-compatible server adds to a message or delta: `reasoning_content`
 * (DeepSeek, vLLM) or `reasoning` (OpenRouter, newer vLLM). Some send both with the same text,
 * so only the first non-empty one counts.
 */
export function reasoningTextOf(message: JsonObject): string {
  for (const field of ['reasoning_content', 'reasoning']) {
    const value = message[field];
    if (typeof value === 'string' && value !== '') return value;
  }
  return '';
}

/** The id of a tool call that came without one (Anthropic requires an id on every tool_use). */
export const bridgedToolId = (position: number): string => `toolu_bridged_${position}`;
