import type { ChannelType } from '@chat-relay/contract';
import { anthropicAdapter, geminiAdapter, openAiAdapter, type ProviderAdapter } from '@chat-relay/wire';

/** The wire format of a channel type. */
export function adapterFor(type: ChannelType): ProviderAdapter {
  switch (type) {
    case 'openai':
      return openAiAdapter;
    case 'anthropic':
      return anthropicAdapter;
    case 'gemini':
      return geminiAdapter;
    case 'suno':
    case 'tavily':
    case 'searxng':
      // Their types serve no chat (CHANNEL_TYPE_ENDPOINTS): routing never asks.
      throw new Error(`a ${type} channel speaks no chat`);
    default: {
      const unknownType: never = type;
      throw new Error(`unknown channel type ${String(unknownType)}`);
    }
  }
}
