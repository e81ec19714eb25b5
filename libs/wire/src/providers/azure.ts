import { azureChatAdapter, azureEndpointAdapter } from '../azure/azure-adapters';
import { azureModelList } from '../azure/azure-model-list';
import { azureResponsesNativeAdapter, azureSpeaksResponses } from '../azure/azure-responses';
import type { NativeAdapter } from '../hub/native-adapter';
import type { UpstreamTarget } from '../hub/upstream-adapter';
import { openAiAdapter } from '../openai-chat/upstream/openai-adapter';
import { openAiCompletionsAdapter } from '../openai-endpoints/openai-completions-adapter';
import { openAiImageEditsAdapter, openAiImageGenerationsAdapter } from '../openai-endpoints/openai-images-adapters';
import { openAiEmbeddingsAdapter, openAiSpeechAdapter } from '../openai-endpoints/openai-passthrough-adapters';
import { openAiTranscriptionsAdapter } from '../openai-endpoints/openai-transcriptions-adapter';
import { modelListProbe, type ChannelProvider, type NativeDialect } from './channel-provider';
import { azureAuthHeaders } from './provider-auth';

export { azureAuthHeaders };
export { AZURE_DEFAULT_API_VERSION } from '../azure/azure-url';
export { azureModelList } from '../azure/azure-model-list';
export { buildAzureResponsesRequest, azureResponsesNativeAdapter } from '../azure/azure-responses';
export { mapAzureErrorResponse } from '../azure/azure-error';

/**
 * Azure OpenAI / Azure AI Foundry (issue 31): OpenAI's API at Azure's URLs — the v1 API
 * (`{root}/openai/v1/…`, model = the deployment's name) or, with an api-version in the channel's
 * cloud settings, the deployments API (`{root}/openai/deployments/{deployment}/…?api-version=`)
 * — the key as `api-key` (an Entra service principal's bearer is the server's to add). Every
 * body is the OpenAI adapter's; only URLs, headers, Azure's content-filter annotations and its
 * error shapes differ. The upstream model is the deployment's name: the channel's model mapping
 * maps the caller's model to it.
 */
export const azureProvider: ChannelProvider = {
  chat: azureChatAdapter(openAiAdapter),
  // The caller's Chat Completions body goes as it came (unknown fields too), as to OpenAI: policed the same way.
  sendsHubAsIs: true,
  json: {
    completions: azureEndpointAdapter(openAiCompletionsAdapter),
    embeddings: azureEndpointAdapter(openAiEmbeddingsAdapter),
    images_generations: azureEndpointAdapter(openAiImageGenerationsAdapter),
    audio_speech: azureEndpointAdapter(openAiSpeechAdapter),
  },
  multipart: {
    images_edits: azureEndpointAdapter(openAiImageEditsAdapter),
    audio_transcriptions: azureEndpointAdapter(openAiTranscriptionsAdapter('audio/transcriptions')),
    audio_translations: azureEndpointAdapter(openAiTranscriptionsAdapter('audio/translations')),
  },
  native: { responses: azureResponsesNativeAdapter },
  /**
   * The Responses API natively on the v1 API only. `channel` is passed by a server that knows
   * it: a channel pinned to an api-version gets undefined (its Responses callers are bridged).
   * Without it, the native adapter — which calls the v1 route whatever the channel's style.
   */
  nativeFor: (dialect: NativeDialect, _upstreamModel: string, channel?: UpstreamTarget): NativeAdapter | undefined =>
    dialect === 'responses' && (channel === undefined || azureSpeaksResponses(channel)) ? azureResponsesNativeAdapter : undefined,
  modelList: azureModelList,
  probe: modelListProbe(azureModelList),
};
