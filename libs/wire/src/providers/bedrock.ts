import { anthropicAdapter } from '../anthropic-messages/upstream/anthropic-adapter';
import { bridgedCompletionsAdapter } from '../openai-endpoints/bridged-completions-adapter';
import { modelListProbe, type ChannelProvider } from './channel-provider';
import { anthropicModelList } from './anthropic';
import { bedrockAuthHeaders } from './provider-auth';

export { bedrockAuthHeaders };

/** Amazon Bedrock — placeholder until its adapters land (issue 31). */
export const bedrockProvider: ChannelProvider = {
  chat: anthropicAdapter,
  json: { completions: bridgedCompletionsAdapter(anthropicAdapter, 'Amazon Bedrock') },
  probe: modelListProbe(anthropicModelList),
};
