import { trimBaseUrl } from '../hub/native-request-body';

/**
 * Bedrock's model ids as a channel maps to them: a foundation model (`anthropic.claude-sonnet-4-5-20250929-v1:0`),
 * a cross-region inference profile (`us.`, `eu.`, `apac.`, `us-gov.`, `global.` … before it), or an ARN naming either
 * (https://docs.aws.amazon.com/bedrock/latest/userguide/inference-profiles-support.html).
 */

/** The Runtime operations the relay calls on a model (https://docs.aws.amazon.com/bedrock/latest/APIReference/API_Operations_Amazon_Bedrock_Runtime.html). */
export type BedrockModelOperation = 'invoke' | 'invoke-with-response-stream' | 'count-tokens';

/** Claude on Bedrock, reached through InvokeModel with Anthropic's Messages body: its id names `anthropic.claude`. */
export const isBedrockClaude = (modelId: string): boolean => modelId.includes('anthropic.claude');

/** A geography (or `global`) before the provider: `us.anthropic.claude-…`, `apac.anthropic.claude-…`. */
const INFERENCE_PROFILE_PREFIX = /^[a-z]{2,6}(?:-[a-z]+)?\.(?=[a-z0-9-]+\.)/;

/** Whether the id is a cross-region inference profile's (or an ARN, whose resource says what it is). */
export const isInferenceProfileId = (modelId: string): boolean => INFERENCE_PROFILE_PREFIX.test(modelId) || modelId.startsWith('arn:');

/**
 * The foundation model behind an id: the profile prefix or the ARN cut away
 * (`us.anthropic.claude-…` → `anthropic.claude-…`). CountTokens takes foundation models only
 * (https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_CountTokens.html).
 */
export function foundationModelIdOf(modelId: string): string {
  const resource = modelId.startsWith('arn:') ? (modelId.split('/').pop() ?? modelId) : modelId;
  return resource.replace(INFERENCE_PROFILE_PREFIX, '');
}

/** `{base}/model/{id}/{operation}`, the id one path segment (an ARN's `/` and `:` escaped). */
export const bedrockModelUrl = (baseUrl: string, modelId: string, operation: BedrockModelOperation): string =>
  `${trimBaseUrl(baseUrl)}/model/${encodeURIComponent(modelId)}/${operation}`;

/**
 * The name Claude goes by at Anthropic for a Bedrock id (`us.anthropic.claude-sonnet-4-5-20250929-v1:0`
 * → `claude-sonnet-4-5-20250929`): what the Anthropic converters key their per-model defaults on.
 * The id itself when it names no Claude (an application inference profile's ARN).
 */
export function claudeNameOf(modelId: string): string {
  const foundation = foundationModelIdOf(modelId);
  return foundation.startsWith('anthropic.claude') ? foundation.slice('anthropic.'.length).replace(/-v\d+(?::\d+)?$/, '') : modelId;
}
