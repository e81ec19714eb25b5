import { geminiAdapter } from '../gemini/upstream/gemini-adapter';
import { bridgedCompletionsAdapter } from '../openai-endpoints/bridged-completions-adapter';
import { modelListProbe, type ChannelProvider } from './channel-provider';
import { geminiModelList } from './gemini';
import { vertexAuthHeaders } from './provider-auth';

export { vertexAuthHeaders };

/** Google Vertex AI — placeholder until its adapters land (issue 31). */
export const vertexProvider: ChannelProvider = {
  chat: geminiAdapter,
  json: { completions: bridgedCompletionsAdapter(geminiAdapter, 'Vertex AI') },
  probe: modelListProbe(geminiModelList),
};
