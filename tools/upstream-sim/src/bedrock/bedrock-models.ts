import type { ServerResponse } from 'node:http';
import { sendJson } from '../http-io';

/** A row of ListFoundationModels (https://docs.aws.amazon.com/bedrock/latest/APIReference/API_ListFoundationModels.html). */
interface FoundationModelSummary {
  modelArn: string;
  modelId: string;
  modelName: string;
  providerName: string;
  inputModalities: string[];
  outputModalities: string[];
  responseStreamingSupported: boolean;
  customizationsSupported: string[];
  inferenceTypesSupported: string[];
  modelLifecycle: { status: 'ACTIVE' | 'LEGACY' };
}

const row = (modelId: string, modelName: string, providerName: string, inferenceTypes: string[], output = ['TEXT'], input = ['TEXT', 'IMAGE']): FoundationModelSummary => ({
  modelArn: `arn:aws:bedrock:us-east-1::foundation-model/${modelId}`,
  modelId,
  modelName,
  providerName,
  inputModalities: input,
  outputModalities: output,
  responseStreamingSupported: output.includes('TEXT'),
  customizationsSupported: [],
  inferenceTypesSupported: inferenceTypes,
  modelLifecycle: { status: 'ACTIVE' },
});

/** What `GET /foundation-models` lists: Claude on demand and through profiles, a provisioned-only variant, and models of other providers. */
export const defaultFoundationModels: readonly FoundationModelSummary[] = [
  row('anthropic.claude-3-haiku-20240307-v1:0', 'Claude 3 Haiku', 'Anthropic', ['ON_DEMAND']),
  row('anthropic.claude-3-haiku-20240307-v1:0:48k', 'Claude 3 Haiku', 'Anthropic', ['PROVISIONED']),
  row('anthropic.claude-3-5-haiku-20241022-v1:0', 'Claude 3.5 Haiku', 'Anthropic', ['ON_DEMAND', 'INFERENCE_PROFILE'], ['TEXT'], ['TEXT']),
  row('anthropic.claude-sonnet-4-5-20250929-v1:0', 'Claude Sonnet 4.5', 'Anthropic', ['INFERENCE_PROFILE']),
  row('anthropic.claude-haiku-4-5-20251001-v1:0', 'Claude Haiku 4.5', 'Anthropic', ['INFERENCE_PROFILE']),
  row('anthropic.claude-opus-4-5-20251101-v1:0', 'Claude Opus 4.5', 'Anthropic', ['INFERENCE_PROFILE']),
  row('meta.llama3-1-70b-instruct-v1:0', 'Llama 3.1 70B Instruct', 'Meta', ['ON_DEMAND', 'INFERENCE_PROFILE'], ['TEXT'], ['TEXT']),
  row('amazon.nova-pro-v1:0', 'Nova Pro', 'Amazon', ['ON_DEMAND', 'INFERENCE_PROFILE'], ['TEXT'], ['TEXT', 'IMAGE', 'VIDEO']),
  row('amazon.titan-embed-text-v2:0', 'Titan Text Embeddings V2', 'Amazon', ['ON_DEMAND'], ['EMBEDDING'], ['TEXT']),
];

/** `GET /foundation-models[?byProvider=…&byOutputModality=…]`: `{modelSummaries}`, filtered as Bedrock filters (case-insensitively). */
export function handleFoundationModels(res: ServerResponse, query: string): void {
  const params = new URLSearchParams(query);
  const provider = params.get('byProvider')?.toLowerCase();
  const output = params.get('byOutputModality')?.toUpperCase();
  const modelSummaries = defaultFoundationModels.filter(
    (model) => (provider === undefined || model.providerName.toLowerCase() === provider) && (output === undefined || model.outputModalities.includes(output)),
  );
  sendJson(res, 200, { modelSummaries });
}
