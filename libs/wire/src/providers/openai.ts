import { z } from 'zod';
import { openAiAdapter } from '../openai-chat/upstream/openai-adapter';
import { openAiCompletionsAdapter } from '../openai-endpoints/openai-completions-adapter';
import { openAiImageEditsAdapter, openAiImageGenerationsAdapter } from '../openai-endpoints/openai-images-adapters';
import { openAiEmbeddingsAdapter, openAiModerationsAdapter, openAiSpeechAdapter } from '../openai-endpoints/openai-passthrough-adapters';
import { openAiTranscriptionsAdapter } from '../openai-endpoints/openai-transcriptions-adapter';
import { openAiRerankAdapter } from '../openai-endpoints/rerank-adapter';
import { openaiResponsesNativeAdapter } from '../openai-responses/native/openai-responses-native-adapter';
import { openaiVideosProvider } from '../tasks/openai-videos-provider';
import { modelListProbe, type ChannelProvider, type ModelList } from './channel-provider';
import { openAiAuthHeaders } from './provider-auth';

export { openAiAuthHeaders };

const OpenAiModelSchema = z.object({ id: z.string().min(1) });
/** `{data: [...]}` as OpenAI answers; a bare array as some OpenAI-compatible servers (Together) do. */
const OpenAiModelListSchema = z.preprocess(
  (json) => (Array.isArray(json) ? { data: json } : json),
  z.object({ data: z.array(OpenAiModelSchema) }),
);

/** `GET {base}/models`, one page: OpenAI's list has no cursor. */
export const openAiModelList: ModelList = {
  url: (baseUrl) => `${baseUrl}/models`,
  headers: (key) => ({ ...openAiAuthHeaders(key), accept: 'application/json' }),
  parse: (json) =>
    OpenAiModelListSchema.transform((list) => ({
      models: list.data.map((model) => ({ id: model.id, endpoints: null })),
    })).safeParse(json),
  mapErrorResponse: (status, text, secrets) => openAiAdapter.mapErrorResponse(status, text, secrets),
};

/**
 * OpenAI and whatever speaks its API (Ollama, vLLM, OpenRouter …): the hub's own dialect, every
 * route passed through, the Responses API spoken natively, videos as tasks.
 */
export const openAiProvider: ChannelProvider = {
  chat: openAiAdapter,
  sendsHubAsIs: true,
  json: {
    completions: openAiCompletionsAdapter,
    embeddings: openAiEmbeddingsAdapter,
    rerank: openAiRerankAdapter,
    moderations: openAiModerationsAdapter,
    images_generations: openAiImageGenerationsAdapter,
    audio_speech: openAiSpeechAdapter,
  },
  multipart: {
    images_edits: openAiImageEditsAdapter,
    audio_transcriptions: openAiTranscriptionsAdapter('audio/transcriptions'),
    audio_translations: openAiTranscriptionsAdapter('audio/translations'),
  },
  tasks: { videos: openaiVideosProvider },
  native: { responses: openaiResponsesNativeAdapter },
  modelList: openAiModelList,
  probe: modelListProbe(openAiModelList),
};
