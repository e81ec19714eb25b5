import type { ChannelKeyState } from './types';

/** A key in rotation that was never disabled (what a key without a stored state is). */
export const ACTIVE_KEY: ChannelKeyState = { status: 'active', reason: null, changedAt: null };

/** One state per key: missing ones (a channel from before key states) are active. */
export const alignedStates = (keys: readonly string[], states: readonly ChannelKeyState[] | undefined): ChannelKeyState[] =>
  keys.map((_, index) => states?.[index] ?? ACTIVE_KEY);

/** A disabled key put back in rotation at `changedAt` (the admin's `enable_keys`, or a passing check). */
export const reenabledKey = (changedAt: string): ChannelKeyState => ({ status: 'active', reason: null, changedAt });

/** Why a key is out of rotation, from the upstream's refusal: routing and the scheduled check word it alike. */
export const keyRefusalReason = (error: { code: string | null; type: string; message: string }): string =>
  `upstream ${error.code ?? error.type}: ${error.message}`;
