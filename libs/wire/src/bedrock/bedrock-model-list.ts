import { z } from 'zod';
import { trimBaseUrl } from '../hub/native-request-body';
import type { ModelList } from '../providers/channel-provider';
import { bedrockAuthHeaders } from '../providers/provider-auth';
import { mapBedrockErrorResponse } from './bedrock-error';

/** ListFoundationModels' answer, the fields the relay reads (https://docs.aws.amazon.com/bedrock/latest/APIReference/API_ListFoundationModels.html). */
const FoundationModelsSchema = z.object({
  modelSummaries: z.array(
    z
      .object({
        modelId: z.string().min(1),
        inputModalities: z.array(z.string()).optional(),
        outputModalities: z.array(z.string()).optional(),
        responseStreamingSupported: z.boolean().nullish(),
        inferenceTypesSupported: z.array(z.string()).optional(),
      })
      .passthrough(),
  ),
});

/**
 * Where the control plane is: the Runtime host's `bedrock-runtime` becomes `bedrock`
 * (`https://bedrock-runtime.us-east-1.amazonaws.com` → `https://bedrock.us-east-1.amazonaws.com`, FIPS
 * hosts alike); any other base URL (a VPC endpoint, the simulator) is asked itself.
 */
export function bedrockControlPlaneUrl(baseUrl: string): string {
  const trimmed = trimBaseUrl(baseUrl);
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    return trimmed;
  }
  if (!url.hostname.startsWith('bedrock-runtime')) return trimmed;
  return `${url.protocol}//${url.host.replace(/^bedrock-runtime/, 'bedrock')}`;
}

/**
 * `GET /foundation-models` on the control plane, one page. A model is listed when it writes text
 * and can be called without provisioned throughput (`ON_DEMAND`, or through an `INFERENCE_PROFILE`,
 * whose id the channel's mapping names): chat and completions, which the relay serves through it.
 * Embedding and image models, and provisioned-only variants (`…:28k`), are left out.
 */
export const bedrockModelList: ModelList = {
  url: (baseUrl) => `${bedrockControlPlaneUrl(baseUrl)}/foundation-models`,
  headers: (key) => ({ ...bedrockAuthHeaders(key), accept: 'application/json' }),
  parse: (json) =>
    FoundationModelsSchema.transform((list) => ({
      models: list.modelSummaries.flatMap((model) => {
        const writesText = (model.outputModalities ?? ['TEXT']).includes('TEXT');
        const callable = (model.inferenceTypesSupported ?? ['ON_DEMAND']).some((type) => type === 'ON_DEMAND' || type === 'INFERENCE_PROFILE');
        return writesText && callable ? [{ id: model.modelId, endpoints: ['chat' as const, 'completions' as const] }] : [];
      }),
    })).safeParse(json),
  mapErrorResponse: mapBedrockErrorResponse,
};
