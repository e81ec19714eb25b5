import type { Adjustment } from '../hub/bridge-loss';

/**
 * The `anthropic_beta` values Bedrock takes for Claude on InvokeModel: LiteLLM's allow-list
 * (BerriAI/litellm `litellm/llms/bedrock/beta_headers_config.py`; PR #19877 says it was "verified
 * against official AWS documentation", the `anthropic_beta` parameter of
 * https://docs.aws.amazon.com/bedrock/latest/userguide/model-parameters-anthropic-claude-messages-request-response.html,
 * whose full list this relay could not read itself). Any other value is refused with 400
 * `ValidationException: invalid beta flag` (https://github.com/BerriAI/litellm/pull/19877,
 * https://github.com/continuedev/continue/issues/8297), so the relay leaves it out and says so.
 * Which model takes which beta is not checked here: Bedrock answers that itself.
 */
export const BEDROCK_CLAUDE_BETAS: ReadonlySet<string> = new Set([
  'computer-use-2024-10-22',
  'computer-use-2025-01-24',
  'computer-use-2025-11-24',
  'token-efficient-tools-2025-02-19',
  'interleaved-thinking-2025-05-14',
  'output-128k-2025-02-19',
  'dev-full-thinking-2025-05-14',
  'context-1m-2025-08-07',
  'context-management-2025-06-27',
  'effort-2025-11-24',
  'tool-search-tool-2025-10-19',
  'tool-examples-2025-10-29',
]);

export interface BedrockBetas {
  /** What goes in the body's `anthropic_beta`, in the caller's order, each once. */
  kept: string[];
  /** One per value left out. */
  warnings: Adjustment[];
}

/** `anthropic-beta: a, b` as a caller sends it (the header, possibly repeated and joined): its values. */
export const betasOfHeader = (header: string | undefined): string[] =>
  (header ?? '')
    .split(',')
    .map((beta) => beta.trim())
    .filter((beta) => beta !== '');

/** The betas Bedrock takes, and a `dropped` adjustment naming each one it would refuse. */
export function bedrockBetas(requested: readonly string[]): BedrockBetas {
  const kept: string[] = [];
  const warnings: Adjustment[] = [];
  for (const beta of new Set(requested)) {
    if (BEDROCK_CLAUDE_BETAS.has(beta)) kept.push(beta);
    else warnings.push({ kind: 'dropped', field: 'anthropic-beta', reason: `Bedrock does not take the beta '${beta}' (it answers "invalid beta flag")`, from: beta });
  }
  return { kept, warnings };
}
