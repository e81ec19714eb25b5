import type { ChannelTimeoutsMs } from '../storage/types';

/** Generous by default: a long non-streamed completion can take minutes before its first byte. */
export const DEFAULT_CHANNEL_TIMEOUTS: ChannelTimeoutsMs = {
  connectMs: 10_000,
  firstByteMs: 300_000,
  idleMs: 120_000,
};
