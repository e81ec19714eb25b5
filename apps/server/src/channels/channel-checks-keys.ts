import type { ErrorBody } from '@chat-relay/contract';
import type { ChannelKeyState, ChannelRecord, ChannelStore } from '../storage/types';
import type { ChannelRegistry } from './channel-registry';
import { alignedStates, keyRefusalReason } from '../storage/key-states';

/** Positions of the keys the relay took out of rotation after an upstream 401/403. */
export const disabledKeyPositions = (channel: ChannelRecord): number[] =>
  channel.keys.flatMap((_, index) => (channel.keyStates[index]?.status === 'disabled' ? [index] : []));

/** The reason a still-refused key keeps, from the check's error. */
export const refusalReason = (error: ErrorBody | undefined): string => (error ? keyRefusalReason(error) : 'upstream refused the key');

/**
 * Changes the state of one disabled key, found by value in the channel as stored now: the admin
 * may have replaced, reordered or re-enabled keys — or disabled the channel — while the check
 * ran; then nothing is written. The same store update the admin's `enable_keys` makes, and the
 * same routing refresh (every instance reloads its channels).
 */
export async function changeDisabledKey(
  deps: { channels: ChannelStore; registry: ChannelRegistry },
  channelId: number,
  checked: { position: number; key: string },
  change: (state: ChannelKeyState) => ChannelKeyState | undefined,
): Promise<boolean> {
  const current = await deps.channels.get(channelId);
  // The admin's `enabled: false` is the operator's decision: the checker never touches such a channel.
  if (!current?.enabled) return false;
  const index = current.keys[checked.position] === checked.key ? checked.position : current.keys.indexOf(checked.key);
  const state = current.keyStates[index];
  if (index < 0 || state?.status !== 'disabled') return false;
  const next = change(state);
  if (!next) return false;
  const keyStates = alignedStates(current.keys, current.keyStates).map((state, position) => (position === index ? next : state));
  await deps.channels.update(channelId, { keyStates });
  deps.registry.invalidate();
  return true;
}
