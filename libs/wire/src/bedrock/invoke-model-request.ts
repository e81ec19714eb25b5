import type { Adjustment } from '../hub/bridge-loss';
import type { UpstreamRequest } from '../hub/upstream-adapter';
import { bedrockAuthHeaders } from '../providers/provider-auth';
import { bedrockModelUrl } from './bedrock-model-id';

export interface InvokeModelCall {
  baseUrl: string;
  modelId: string;
  key: string;
  body: Record<string, unknown>;
  stream: boolean;
  warnings: readonly Adjustment[];
}

/**
 * `POST {base}/model/{id}/invoke`, or `/invoke-with-response-stream` whose answer is AWS's event
 * stream (https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_InvokeModelWithResponseStream.html).
 * A Bedrock API key goes as a bearer; access keys add nothing here: the server signs the bytes it sends.
 */
export function invokeModelRequest({ baseUrl, modelId, key, body, stream, warnings }: InvokeModelCall): UpstreamRequest {
  return {
    url: bedrockModelUrl(baseUrl, modelId, stream ? 'invoke-with-response-stream' : 'invoke'),
    headers: {
      ...bedrockAuthHeaders(key),
      'content-type': 'application/json',
      accept: stream ? 'application/vnd.amazon.eventstream' : 'application/json',
    },
    body: JSON.stringify(body),
    ...(stream ? { framing: 'aws-eventstream' as const } : {}),
    ...(warnings.length > 0 ? { warnings: [...warnings] } : {}),
  };
}
