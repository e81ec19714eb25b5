import type { Logger } from '../logger';
import type { MatchedRoute } from '../middleware/route-metadata';
import type { TokenStore, UsageLogEntry, UsageLogStore } from '../storage/types';

/**
 * How often queued usage rows are written (and their reservations settled): the window of
 * completed requests a crash (`kill -9`) can lose, plus the write itself.
 */
export const USAGE_FLUSH_INTERVAL_MS = 250;

export interface UsageRecorderOptions {
  flushIntervalMs?: number;
  maxBatch?: number;
}

/** Hears of each row as it is queued, with the route its request came by (metrics); it must not throw. */
export type UsageObserver = (entry: UsageLogEntry, route: MatchedRoute | undefined) => void;

/**
 * Keeps the hot path free of database writes: entries are queued in memory and written in one
 * transaction every `flushIntervalMs` (or sooner when `maxBatch` is reached). `close()` drains
 * the queue, so a clean shutdown loses nothing; a crash loses at most the rows of one interval,
 * whose reservations the next start gives back (those requests go uncharged).
 */
export class UsageRecorder {
  private queue: UsageLogEntry[] = [];
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> = Promise.resolve();
  /** close() has returned: a row recorded now is written once, never retried. */
  private closed = false;
  private readonly flushIntervalMs: number;
  private readonly maxBatch: number;

  constructor(
    private readonly usageLog: UsageLogStore,
    private readonly tokens: TokenStore,
    private readonly logger: Logger,
    options: UsageRecorderOptions = {},
    private readonly observe?: UsageObserver,
  ) {
    this.flushIntervalMs = options.flushIntervalMs ?? USAGE_FLUSH_INTERVAL_MS;
    this.maxBatch = options.maxBatch ?? 500;
  }

  record(entry: UsageLogEntry, route?: MatchedRoute): void {
    this.queue.push(entry);
    try {
      this.observe?.(entry, route);
    } catch (error) {
      // A metrics fault never costs a usage row: the row is queued already.
      this.logger.error({ err: error, requestId: entry.requestId }, 'usage observer failed');
    }
    if (this.queue.length >= this.maxBatch) void this.flush();
    else this.timer ??= setTimeout(() => void this.flush(), this.flushIntervalMs);
  }

  /** Writes everything queued so far; resolves when it is on disk. */
  flush(): Promise<void> {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    const batch = this.queue;
    this.queue = [];
    this.flushing = this.flushing.then(() => (batch.length ? this.write(batch) : undefined));
    return this.flushing;
  }

  async close(): Promise<void> {
    await this.flush();
    // A batch that failed during that flush is back in the queue: one more try before shutdown.
    if (this.queue.length > 0) await this.flush();
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.closed = true;
  }

  private async write(batch: UsageLogEntry[]): Promise<void> {
    try {
      await this.usageLog.insertBatch(batch);
      const lastUsed = new Map<number, string>();
      for (const entry of batch) {
        if (entry.tokenId !== null) lastUsed.set(entry.tokenId, entry.createdAt);
      }
      if (lastUsed.size) await this.tokens.touchLastUsed(lastUsed);
    } catch (error) {
      if (this.closed) {
        // After close() the store is gone: retrying would spin on it for as long as the process lives.
        this.logger.error({ err: error, entries: batch.length }, 'usage log write failed after shutdown; rows lost');
        return;
      }
      // Keep the entries for the next flush rather than lose them.
      this.queue.unshift(...batch);
      this.logger.error({ err: error, entries: batch.length }, 'usage log write failed; will retry');
      this.timer ??= setTimeout(() => void this.flush(), this.flushIntervalMs * 4);
    }
  }
}
