import { openAiAdapter } from '../openai-chat/upstream/openai-adapter';
import { bridgedCompletionsAdapter } from '../openai-endpoints/bridged-completions-adapter';
import { modelListProbe, type ChannelProvider } from './channel-provider';
import { openAiModelList } from './openai';
import { azureAuthHeaders } from './provider-auth';

export { azureAuthHeaders };

/** Azure OpenAI — placeholder until its adapters land (issue 31). */
export const azureProvider: ChannelProvider = {
  chat: openAiAdapter,
  json: { completions: bridgedCompletionsAdapter(openAiAdapter, 'Azure OpenAI') },
  probe: modelListProbe(openAiModelList),
};
