/** Per-channel upstream timeouts (SPEC §6). */
export interface ChannelTimeoutsMs {
  /** TCP/TLS connect. */
  connectMs: number;
  /** From sending the request to the response headers. */
  firstByteMs: number;
  /** Longest silence between two body chunks (a stalled stream). */
  idleMs: number;
}

/** Generous by default: a long non-streamed completion can take minutes before its first byte. */
export const DEFAULT_CHANNEL_TIMEOUTS: ChannelTimeoutsMs = {
  connectMs: 10_000,
  firstByteMs: 300_000,
  idleMs: 120_000,
};

/**
 * How long a session stays pinned to the channel and key that last served it (prompt-cache
 * affinity, RELAY_AFFINITY_TTL_MS): an hour, Anthropic's longest cache lifetime; each use renews it.
 */
export const DEFAULT_AFFINITY_TTL_MS = 3_600_000;
