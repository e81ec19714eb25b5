import { invalidRequest } from '../../errors/relay-error';
import { lossOf, type Adjustment } from '../../hub/bridge-loss';
import { CHAT_TO_CONVERSE } from './chat-to-converse-losses';

/**
 * The parameters Converse has no field for, sent in `additionalModelRequestFields` where the
 * model family documents one (https://docs.aws.amazon.com/bedrock/latest/userguide/model-parameters.html),
 * else a 400 naming the parameter. The family is read from the model id, with or without an
 * inference-profile prefix (`us.amazon.nova-…`) or an ARN around it.
 */
export type ConverseFamily = 'nova' | 'nova2' | 'anthropic' | 'mistral-sampling' | 'cohere' | 'other';

export function converseFamilyOf(modelId: string): ConverseFamily {
  const id = modelId.toLowerCase();
  if (/amazon\.nova-2-/.test(id)) return 'nova2';
  if (/amazon\.nova-/.test(id)) return 'nova';
  if (/anthropic\.claude/.test(id)) return 'anthropic';
  // Mistral documents top_k for its 7B and Mixtral models only, not Mistral Large.
  if (/mistral\.(mistral-7b|mixtral)/.test(id)) return 'mistral-sampling';
  if (/cohere\.command/.test(id)) return 'cohere';
  return 'other';
}

/**
 * `top_k`: Nova's `inferenceConfig.topK`
 * (https://docs.aws.amazon.com/nova/latest/userguide/using-converse-api.html), Claude's and
 * Mistral's `top_k`, Cohere Command's `k`
 * (https://docs.aws.amazon.com/bedrock/latest/userguide/model-parameters-cohere-command-r-plus.html).
 */
export function topKFields(topK: number, family: ConverseFamily): Record<string, unknown> {
  switch (family) {
    case 'nova':
    case 'nova2':
      return { inferenceConfig: { topK } };
    case 'anthropic':
    case 'mistral-sampling':
      return { top_k: topK };
    case 'cohere':
      return { k: topK };
    case 'other':
      throw invalidRequest("'top_k' cannot be sent to this Bedrock model: its family documents no top_k.", 'top_k', 'unsupported_parameter');
    default: {
      const unhandled: never = family;
      throw new Error(`unhandled family ${String(unhandled)}`);
    }
  }
}

const NOVA_EFFORTS = ['low', 'medium', 'high'] as const;

/**
 * `reasoning_effort`: Nova 2's `reasoningConfig` (`maxReasoningEffort` low, medium or high;
 * https://docs.aws.amazon.com/nova/latest/nova2-userguide/extended-thinking.html); `none` is its
 * default (no extended thinking), so nothing is sent; `minimal` goes as `low`, its lowest (an
 * adjustment says so). Other families take no reasoning setting through Converse (Llama,
 * Mistral; DeepSeek R1 always reasons; Claude on a Bedrock channel goes through InvokeModel): 400.
 */
export function reasoningFields(effort: string, family: ConverseFamily, warnings: Adjustment[]): Record<string, unknown> {
  if (family !== 'nova2') {
    throw invalidRequest("'reasoning_effort' cannot be sent to this Bedrock model: its family documents no reasoning setting for Converse.", 'reasoning_effort', 'unsupported_parameter');
  }
  if (effort === 'none') return {};
  const maxReasoningEffort = effort === 'minimal' ? 'low' : effort;
  if (!(NOVA_EFFORTS as readonly string[]).includes(maxReasoningEffort)) {
    throw invalidRequest(`reasoning_effort '${effort}' cannot be sent to Amazon Nova 2; use none, minimal, low, medium or high.`, 'reasoning_effort', 'unsupported_value');
  }
  if (maxReasoningEffort !== effort) warnings.push(lossOf(CHAT_TO_CONVERSE.rules.effortToNearest, { from: effort, to: maxReasoningEffort }));
  return { reasoningConfig: { type: 'enabled', maxReasoningEffort } };
}
