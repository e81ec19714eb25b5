import { z } from 'zod';
import { anthropicAdapter } from '../anthropic-messages/upstream/anthropic-adapter';
import { anthropicNativeAdapter, buildAnthropicCountTokensRequest } from '../anthropic-messages/native/anthropic-native-adapter';
import { bridgedCompletionsAdapter } from '../openai-endpoints/bridged-completions-adapter';
import { modelListProbe, type ChannelProvider, type ModelList } from './channel-provider';
import { anthropicAuthHeaders } from './provider-auth';

export { anthropicAuthHeaders };

const AnthropicModelListSchema = z.object({
  data: z.array(z.object({ id: z.string().min(1) })),
  has_more: z.boolean().optional(),
  last_id: z.string().nullish(),
});

/** `GET {base}/models`, paged by `after_id` while `has_more`. */
export const anthropicModelList: ModelList = {
  url: (baseUrl, cursor) => `${baseUrl}/models?limit=1000${cursor === undefined ? '' : `&after_id=${encodeURIComponent(cursor)}`}`,
  headers: (key) => ({ ...anthropicAuthHeaders(key), accept: 'application/json' }),
  parse: (json) =>
    AnthropicModelListSchema.transform((list) => ({
      models: list.data.map((model) => ({ id: model.id, endpoints: null })),
      next: list.has_more && list.last_id ? list.last_id : undefined,
    })).safeParse(json),
  mapErrorResponse: (status, text, secrets) => anthropicAdapter.mapErrorResponse(status, text, secrets),
};

/** Anthropic's Messages API: chat and completions bridged through it, Messages callers passed through, its own token count. */
export const anthropicProvider: ChannelProvider = {
  chat: anthropicAdapter,
  json: { completions: bridgedCompletionsAdapter(anthropicAdapter, 'Anthropic') },
  native: { messages: anthropicNativeAdapter },
  modelList: anthropicModelList,
  tokenCounter: {
    dialect: 'messages',
    buildRequest: buildAnthropicCountTokensRequest,
    mapErrorResponse: (status, text, secrets) => anthropicNativeAdapter.mapErrorResponse(status, text, secrets),
  },
  probe: modelListProbe(anthropicModelList),
};
