import type { GeminiUsageMetadataResponse } from '@chat-relay/contract';
import { isJsonObject, isNumber } from '../../json/json-checks';

/**
 * The hub's `finish_reason` → a Gemini finishReason. Documented mapping: stop → STOP;
 * tool_calls / function_call → STOP (Gemini ends a turn of function calls with STOP); length →
 * MAX_TOKENS; content_filter → SAFETY; a missing or unknown reason → STOP.
 */
export function mapFinishReasonToGemini(reason: unknown): string {
  switch (reason) {
    case 'length':
      return 'MAX_TOKENS';
    case 'content_filter':
      return 'SAFETY';
    default:
      return 'STOP';
  }
}

const count = (value: unknown): number => (isNumber(value) && value > 0 ? Math.floor(value) : 0);

/**
 * The hub's `usage` → usageMetadata. Chat Completions counts reasoning inside
 * `completion_tokens` (`completion_tokens_details.reasoning_tokens`); Gemini counts thinking
 * apart, so candidatesTokenCount = completion − reasoning and thoughtsTokenCount = reasoning
 * (sent when non-zero); cached prompt tokens are cachedContentTokenCount, inside the prompt's count.
 */
export function convertChatUsageToGemini(usage: unknown): GeminiUsageMetadataResponse {
  if (!isJsonObject(usage)) return { promptTokenCount: 0, candidatesTokenCount: 0, totalTokenCount: 0 };
  const prompt = count(usage['prompt_tokens']);
  const completion = count(usage['completion_tokens']);
  const completionDetails = isJsonObject(usage['completion_tokens_details']) ? usage['completion_tokens_details'] : {};
  const promptDetails = isJsonObject(usage['prompt_tokens_details']) ? usage['prompt_tokens_details'] : {};
  const thoughts = Math.min(count(completionDetails['reasoning_tokens']), completion);
  const cached = count(promptDetails['cached_tokens']);
  return {
    promptTokenCount: prompt,
    candidatesTokenCount: completion - thoughts,
    totalTokenCount: prompt + completion,
    ...(thoughts > 0 ? { thoughtsTokenCount: thoughts } : {}),
    ...(cached > 0 ? { cachedContentTokenCount: cached } : {}),
  };
}

/**
 * Tool-call arguments → the `args` object Gemini requires. Documented mapping: arguments that
 * are empty, not JSON, or JSON but not an object (a server's malformed or cut-off call) become `{}`.
 */
export function functionArgsOf(args: string): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(args);
    return isJsonObject(parsed) ? parsed : {};
  } catch {
    return {};
  }
}

/** The responseId of a bridged answer: the hub's completion id, without OpenAI's prefix. */
export const geminiResponseIdOf = (completionId: unknown): string =>
  typeof completionId === 'string' && completionId !== '' ? completionId.replace(/^chatcmpl-/, '') : 'bridged';
