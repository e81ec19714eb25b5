import type { ChannelType } from '@chat-relay/contract';
import { anthropicAdapter } from './anthropic';
import { geminiAdapter } from './gemini';
import { openAiAdapter } from './openai/openai-adapter';
import type { ProviderAdapter } from './provider-adapter';

/** The wire format of a channel type. */
export function adapterFor(type: ChannelType): ProviderAdapter {
  switch (type) {
    case 'openai':
      return openAiAdapter;
    case 'anthropic':
      return anthropicAdapter;
    case 'gemini':
      return geminiAdapter;
    default: {
      const unknownType: never = type;
      throw new Error(`unknown channel type ${String(unknownType)}`);
    }
  }
}
