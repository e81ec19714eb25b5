import type { ChannelType } from '@chat-relay/contract';
import { chatAdapterOf, type ProviderAdapter } from '@chat-relay/wire';

/** The wire format of a channel type: its provider module's chat adapter (a type with no chat throws; routing never asks). */
export function adapterFor(type: ChannelType): ProviderAdapter {
  return chatAdapterOf(type);
}
