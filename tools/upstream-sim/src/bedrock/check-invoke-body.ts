/**
 * What Bedrock checks of a Claude InvokeModel body before Claude sees it
 * (https://docs.aws.amazon.com/bedrock/latest/userguide/model-parameters-anthropic-claude-messages-request-response.html),
 * and of the model id in its URL.
 */

/** The only `anthropic_version` InvokeModel takes for Claude. */
export const bedrockAnthropicVersion = 'bedrock-2023-05-31';

/**
 * The betas Bedrock takes in `anthropic_beta`: BerriAI/litellm's allow-list (PR #19877, "verified
 * against official AWS documentation" — the page above). Others are refused.
 */
export const bedrockBetas: ReadonlySet<string> = new Set([
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

const PROFILE_PREFIX = /^[a-z]{2,6}(?:-[a-z]+)?\.(?=[a-z0-9-]+\.)/;

/** The foundation model an id names: an inference profile's geography prefix, or an ARN's path, cut away. */
export function foundationModelOf(modelId: string): string {
  const resource = modelId.startsWith('arn:') ? (modelId.split('/').pop() ?? modelId) : modelId;
  return resource.replace(PROFILE_PREFIX, '');
}

/** `us.anthropic.claude-sonnet-4-5-20250929-v1:0` → `claude-sonnet-4-5-20250929`: the name Claude answers with; undefined for another model. */
export function claudeNameOf(modelId: string): string | undefined {
  const foundation = foundationModelOf(modelId);
  if (!foundation.startsWith('anthropic.claude')) return undefined;
  return foundation.slice('anthropic.'.length).replace(/-v\d+(?::\d+)?$/, '');
}

/** Claude 4 and later (`claude-opus-4-…`, `claude-sonnet-4-5-…`, `claude-haiku-4-5-…`): served through inference profiles only. */
const PROFILE_ONLY = /^claude-(?:opus|sonnet|haiku)-(?:[4-9]|\d{2})/;

/**
 * The ValidationException an InvokeModel body or model id earns, or undefined. Words as Bedrock
 * writes them:
 * - `model` / `stream` in the body: "Malformed input request: #: extraneous key [stream] is not
 *   permitted, please reformat your input and try again." (https://github.com/sigoden/aichat/issues/543,
 *   https://github.com/BerriAI/litellm/issues/7416);
 * - a beta Bedrock does not take: "invalid beta flag" (https://github.com/BerriAI/litellm/pull/19877,
 *   https://github.com/wecode-ai/Wegent/issues/27 — `ValidationException: invalid beta flag`);
 * - a Claude 4+ foundation model id called on demand: "Invocation of model ID … with on-demand
 *   throughput isn’t supported. Retry your request with the ID or ARN of an inference profile that
 *   contains this model." (https://github.com/terricain/aioboto3/issues/352, https://github.com/stackblitz-labs/bolt.diy/issues/1102);
 * - `anthropic_version` missing or another: the JSON-schema validator's words, in the same style
 *   (the exact text for a wrong value was not found quoted).
 */
export function refuseInvokeBody(body: Record<string, unknown>, modelId: string, onDemandCheck: boolean): string | undefined {
  for (const key of ['model', 'stream']) {
    if (key in body) return `Malformed input request: #: extraneous key [${key}] is not permitted, please reformat your input and try again.`;
  }
  const version = body['anthropic_version'];
  if (version === undefined) return 'Malformed input request: #: required key [anthropic_version] not found, please reformat your input and try again.';
  if (version !== bedrockAnthropicVersion) return `Malformed input request: #/anthropic_version: ${JSON.stringify(version)} is not a valid enum value, please reformat your input and try again.`;
  const betas = body['anthropic_beta'];
  if (betas !== undefined) {
    if (!Array.isArray(betas) || betas.some((beta) => typeof beta !== 'string')) {
      return 'Malformed input request: #/anthropic_beta: expected type: JSONArray, found: String, please reformat your input and try again.';
    }
    if (betas.some((beta) => !bedrockBetas.has(beta as string))) return 'invalid beta flag';
  }
  const name = claudeNameOf(modelId);
  if (onDemandCheck && name && PROFILE_ONLY.test(name) && foundationModelOf(modelId) === modelId) {
    return `Invocation of model ID ${modelId} with on-demand throughput isn’t supported. Retry your request with the ID or ARN of an inference profile that contains this model.`;
  }
  return undefined;
}
