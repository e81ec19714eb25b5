/** Why a Response is `incomplete`, as OpenAI says it. */
export type IncompleteReason = 'max_output_tokens' | 'content_filter';

/**
 * A hub finish reason → why the Response is incomplete, or undefined when it is complete:
 * `length` → max_output_tokens, `content_filter` → content_filter; `stop`, `tool_calls`,
 * `function_call`, none at all (some servers send none) → complete.
 */
export function mapFinishReasonToIncomplete(finishReason: string | null | undefined): IncompleteReason | undefined {
  if (finishReason === 'length') return 'max_output_tokens';
  if (finishReason === 'content_filter') return 'content_filter';
  return undefined;
}
