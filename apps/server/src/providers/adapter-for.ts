import type { ChannelType } from '@chat-relay/contract';
import { RelayError } from '../errors/relay-error';
import { anthropicAdapter } from './anthropic';
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
      throw new RelayError({
        status: 501,
        type: 'server_error',
        code: 'channel_type_unavailable',
        message: `Channel type '${type}' is not available in this build.`,
      });
    default: {
      const unknownType: never = type;
      throw new Error(`unknown channel type ${String(unknownType)}`);
    }
  }
}
