import type { Adjustment } from '../hub/bridge-loss';
import { bedrockBetas } from './bedrock-betas';

/** The `anthropic_version` InvokeModel requires of a Claude body. */
export const BEDROCK_ANTHROPIC_VERSION = 'bedrock-2023-05-31';

/** Keys of a Messages body InvokeModel refuses ("extraneous key [model] is not permitted"): the model is in the URL, streaming in the operation. */
const NOT_IN_BODY = ['model', 'stream', 'anthropic_version', 'anthropic_beta'] as const;

export interface InvokeModelBody {
  body: Record<string, unknown>;
  warnings: Adjustment[];
}

/**
 * A Messages API body → Claude's InvokeModel body
 * (https://docs.aws.amazon.com/bedrock/latest/userguide/model-parameters-anthropic-claude-messages-request-response.html):
 * `anthropic_version: "bedrock-2023-05-31"` first, the betas Bedrock takes in `anthropic_beta`
 * (those of the body's own `anthropic_beta`, then `betas`; the others left out with a warning), then
 * every other field as it came, without `model` and `stream`.
 */
export function toInvokeModelBody(messages: Readonly<Record<string, unknown>>, betas: readonly string[]): InvokeModelBody {
  const ownBetas = Array.isArray(messages['anthropic_beta']) ? messages['anthropic_beta'].filter((beta): beta is string => typeof beta === 'string') : [];
  const { kept, warnings } = bedrockBetas([...ownBetas, ...betas]);
  const rest: Record<string, unknown> = { ...messages };
  for (const key of NOT_IN_BODY) delete rest[key];
  const body: Record<string, unknown> = { anthropic_version: BEDROCK_ANTHROPIC_VERSION, ...(kept.length > 0 ? { anthropic_beta: kept } : {}), ...rest };
  return { body, warnings };
}
