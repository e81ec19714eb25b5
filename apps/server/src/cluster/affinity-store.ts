/**
 * Where a session was last served (issue 29, prompt-cache affinity): the channel, and the key by
 * its sha256 (hex) — never the key itself, as this may be kept in Redis.
 */
export interface AffinityPin {
  channelId: number;
  keyDigest: string;
}

/**
 * Session → pin, each entry forgotten `ttlMs` after it was last set. One interface, two homes:
 * this process's memory, or Redis when the instances share one (one spec suite for both). A store
 * that cannot be reached answers "not known" and drops writes: affinity is an optimisation.
 */
export interface AffinityStore {
  get(session: string): Promise<AffinityPin | undefined>;
  set(session: string, pin: AffinityPin, ttlMs: number): Promise<void>;
  delete(session: string): Promise<void>;
}

/**
 * An entry held in memory; its holder may push `expiresAt` back in place (no map write per use),
 * and notes when it last read it from (`syncedAt`) or wrote it to (`writtenAt`) a shared store.
 */
export interface HeldPin extends AffinityPin {
  expiresAt: number;
  syncedAt: number;
  writtenAt: number;
}

/** Sessions remembered per process at most: the oldest set is forgotten first. */
export const DEFAULT_AFFINITY_CAPACITY = 100_000;

/**
 * Affinity in this process's memory, bounded. `peek` and `put` are synchronous: on the hot path a
 * pin known here costs one map lookup.
 */
export class MemoryAffinityStore implements AffinityStore {
  private readonly entries = new Map<string, HeldPin>();

  constructor(
    private readonly capacity = DEFAULT_AFFINITY_CAPACITY,
    private readonly clock: () => number = Date.now,
  ) {}

  get size(): number {
    return this.entries.size;
  }

  /** The live entry at `now`, or undefined (an expired one is dropped). */
  peek(session: string, now = this.clock()): HeldPin | undefined {
    const entry = this.entries.get(session);
    if (entry === undefined || entry.expiresAt > now) return entry;
    this.entries.delete(session);
    return undefined;
  }

  /** `written`: whether a shared store was just given this pin (else it was read from one, or there is none). */
  put(session: string, pin: AffinityPin, ttlMs: number, written = true): HeldPin {
    const now = this.clock();
    const entry: HeldPin = { channelId: pin.channelId, keyDigest: pin.keyDigest, expiresAt: now + ttlMs, syncedAt: now, writtenAt: written ? now : 0 };
    // Re-inserted: the most recently set is the last to be evicted.
    this.entries.delete(session);
    this.entries.set(session, entry);
    if (this.entries.size > this.capacity) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
    return entry;
  }

  remove(session: string): void {
    this.entries.delete(session);
  }

  async get(session: string): Promise<AffinityPin | undefined> {
    const entry = this.peek(session);
    return entry && { channelId: entry.channelId, keyDigest: entry.keyDigest };
  }

  async set(session: string, pin: AffinityPin, ttlMs: number): Promise<void> {
    this.put(session, pin, ttlMs);
  }

  async delete(session: string): Promise<void> {
    this.remove(session);
  }
}
