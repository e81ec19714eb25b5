import { throttledWarn, type ThrottledWarn } from '../core/throttled-log';
import type { Logger } from '../logger';
import type { MatchedRoute } from '../core/matched-route';
import { USAGE_BACKLOG_MAX, USAGE_FLUSH_INTERVAL_MS } from '../core/usage-defaults';
import type { TokenStore, UsageLogEntry, UsageLogStore } from '../storage/types';

export interface UsageRecorderOptions {
  flushIntervalMs?: number;
  maxBatch?: number;
  /**
   * The most rows one write (one transaction) takes; a flush of more is written in turns, the
   * event loop free between them. SQLite's writes run on the event loop: 500 rows held it 4–6 ms,
   * every request in flight waiting behind them (docs/PERFORMANCE.md, issue 30).
   */
  rowsPerWrite?: number;
  /** Rows waiting at most before `backlogFull` says new requests must be refused. */
  maxBacklog?: number;
}

/** Hears of each row as it is queued, with the route its request came by (metrics); it must not throw. */
export type UsageObserver = (entry: UsageLogEntry, route: MatchedRoute | undefined) => void;

/**
 * Keeps the hot path free of database writes: entries are queued in memory and written together
 * every `flushIntervalMs` (or sooner when `maxBatch` is reached), at most `rowsPerWrite` to a
 * transaction. `close()` drains
 * the queue, so a clean shutdown loses nothing; a crash loses at most the rows of one interval,
 * whose reservations the next start gives back (those requests go uncharged). While the database
 * cannot take them, rows are kept and retried; once `maxBacklog` wait, `backlogFull` tells the
 * relay to refuse new requests (503) rather than serve what it could not account for.
 */
export class UsageRecorder {
  private queue: UsageLogEntry[] = [];
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> = Promise.resolve();
  /** close() has returned: a row recorded now is written once, never retried. */
  private closed = false;
  private readonly flushIntervalMs: number;
  private readonly maxBatch: number;
  private readonly rowsPerWrite: number;
  private readonly maxBacklog: number;
  /** Rows recorded and not yet written (queued, or in a write under way). */
  private unwritten = 0;
  /** Writes have been failing since this many ms (performance.now), or undefined. */
  private failingSince: number | undefined;
  private readonly warn: ThrottledWarn;
  private readonly writtenListeners: Array<(batch: readonly UsageLogEntry[]) => void> = [];

  constructor(
    private readonly usageLog: UsageLogStore,
    private readonly tokens: TokenStore,
    private readonly logger: Logger,
    options: UsageRecorderOptions = {},
    private readonly observe?: UsageObserver,
  ) {
    this.flushIntervalMs = options.flushIntervalMs ?? USAGE_FLUSH_INTERVAL_MS;
    this.maxBatch = options.maxBatch ?? 500;
    this.rowsPerWrite = Math.max(1, options.rowsPerWrite ?? ROWS_PER_WRITE);
    this.maxBacklog = options.maxBacklog ?? USAGE_BACKLOG_MAX;
    this.warn = throttledWarn(logger);
  }

  /** As many rows wait as the backlog holds: the database has been away too long to take more requests. */
  get backlogFull(): boolean {
    return this.unwritten >= this.maxBacklog;
  }

  /** Hears of each batch once it is written (threshold alerts read the owners' usage after it); it must not throw. */
  onWritten(listener: (batch: readonly UsageLogEntry[]) => void): void {
    this.writtenListeners.push(listener);
  }

  record(entry: UsageLogEntry, route?: MatchedRoute): void {
    this.queue.push(entry);
    this.unwritten += 1;
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

  /** A flush's rows, `rowsPerWrite` at a time, each write after a turn of the event loop. */
  private async write(batch: UsageLogEntry[]): Promise<void> {
    const step = this.rowsPerWrite;
    for (let start = 0; start < batch.length; start += step) {
      // What waited meanwhile — streams' pieces, new requests — goes before the next rows.
      if (start > 0) await nextTurn();
      if (!(await this.writeRows(batch, start))) return;
    }
  }

  /**
   * The rows of `batch` from `start`, `rowsPerWrite` of them, in one transaction. False when it
   * failed: these rows and the rest of the batch are kept, in order, for the next flush (or, after
   * close(), dropped).
   */
  private async writeRows(batch: UsageLogEntry[], start: number): Promise<boolean> {
    const rows = start === 0 && batch.length <= this.rowsPerWrite ? batch : batch.slice(start, start + this.rowsPerWrite);
    try {
      await this.usageLog.insertBatch(rows);
    } catch (error) {
      const unwritten = start === 0 ? batch : batch.slice(start);
      if (this.closed) {
        // After close() the store is gone: retrying would spin on it for as long as the process lives.
        this.unwritten -= unwritten.length;
        this.logger.error({ err: error, entries: unwritten.length }, 'usage log write failed after shutdown; rows lost');
        return false;
      }
      // Keep the entries for the next flush rather than lose them (the store never writes a row twice).
      this.queue.unshift(...unwritten);
      this.failingSince ??= performance.now();
      this.warn('write', error, `usage log write failed; ${this.unwritten} rows kept and retried`);
      this.timer ??= setTimeout(() => void this.flush(), this.flushIntervalMs * 4);
      return false;
    }
    await this.written(rows);
    return true;
  }

  private async written(batch: UsageLogEntry[]): Promise<void> {
    this.unwritten -= batch.length;
    if (this.failingSince !== undefined) {
      this.logger.info({ failedForMs: Math.round(performance.now() - this.failingSince), waiting: this.unwritten }, 'usage log writes resumed');
      this.failingSince = undefined;
    }
    for (const listener of this.writtenListeners) {
      try {
        listener(batch);
      } catch (error) {
        this.logger.error({ err: error }, 'usage batch listener failed');
      }
    }
    const lastUsed = new Map<number, string>();
    for (const entry of batch) {
      if (entry.tokenId !== null) lastUsed.set(entry.tokenId, entry.createdAt);
    }
    // Only a display date: a failure is logged, and the rows — written already — are never retried for it.
    if (lastUsed.size) await this.tokens.touchLastUsed(lastUsed).catch((error: unknown) => this.warn('touch', error, 'last_used_at not updated'));
  }
}

/** Rows a write takes at most by default: ~1 ms of SQLite's on this project's machines (~11 µs a row). */
export const ROWS_PER_WRITE = 100;

const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
