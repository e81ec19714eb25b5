export { DEFAULT_AFFINITY_TTL_MS } from '../core/channel-defaults';
import { MemoryAffinityStore, DEFAULT_AFFINITY_CAPACITY, type AffinityPin, type AffinityStore, type HeldPin } from '../cluster/affinity-store';

export interface AffinityOptions {
  /** A session not used for this long is forgotten (RELAY_AFFINITY_TTL_MS). */
  ttlMs: number;
  /** With a shared store: how long a pin read or written here is trusted before it is read again. */
  localTrustMs?: number;
  capacity?: number;
  clock?: () => number;
}

const DEFAULT_LOCAL_TRUST_MS = 10_000;

/**
 * Prompt-cache affinity (issue 29): which channel and key last served a session, so the next
 * request of the session goes there while that channel may take it — the provider's prompt cache
 * is per key (or workspace) and misses whenever the pick changes. Held in this process's memory,
 * in front of a shared store (Redis) when the instances share one: a pin known here costs one map
 * lookup; one read from the shared store is trusted for `localTrustMs`, and a pin in use is written
 * back to it at most once per read, which keeps its TTL running.
 */
export class SessionAffinity {
  private readonly local: MemoryAffinityStore;
  private readonly ttlMs: number;
  private readonly localTrustMs: number;
  private readonly clock: () => number;

  constructor(
    options: AffinityOptions,
    private readonly shared?: AffinityStore,
  ) {
    this.ttlMs = options.ttlMs;
    this.clock = options.clock ?? Date.now;
    this.localTrustMs = Math.min(options.localTrustMs ?? DEFAULT_LOCAL_TRUST_MS, options.ttlMs);
    this.local = new MemoryAffinityStore(options.capacity ?? DEFAULT_AFFINITY_CAPACITY, this.clock);
  }

  /**
   * Where the session was last served, if known: at once from memory (its TTL starts over, in
   * place), else from the shared store.
   */
  lookup(session: string): HeldPin | undefined | Promise<HeldPin | undefined> {
    const now = this.clock();
    const held = this.local.peek(session, now);
    const shared = this.shared;
    if (held && (!shared || now - held.syncedAt < this.localTrustMs)) {
      held.expiresAt = now + this.ttlMs;
      return held;
    }
    if (!shared) return undefined;
    return shared.get(session).then((pin) => {
      if (pin) return this.local.put(session, pin, this.ttlMs, false);
      this.local.remove(session);
      return undefined;
    });
  }

  /**
   * The session's answer came from `pin`: nothing to do when it is the pin looked up (`held`,
   * renewed then) but, with a shared store, writing it back once per read (which renews its TTL
   * there); remembered, here and in the shared store, when it is new or replaces another.
   */
  served(session: string, held: HeldPin | undefined, pin: AffinityPin): void {
    if (held && held.channelId === pin.channelId && held.keyDigest === pin.keyDigest) {
      if (!this.shared) return;
      const now = this.clock();
      if (now - held.writtenAt < this.localTrustMs) return;
      held.writtenAt = held.syncedAt = now;
      void this.shared.set(session, pin, this.ttlMs);
      return;
    }
    this.local.put(session, pin, this.ttlMs);
    void this.shared?.set(session, pin, this.ttlMs);
  }

  /** The pinned channel failed the session: the next request draws afresh. */
  forget(session: string): void {
    this.local.remove(session);
    void this.shared?.delete(session);
  }
}
