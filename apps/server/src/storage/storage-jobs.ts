import { throttledWarn } from '../core/throttled-log';
import type { Logger } from '../logger';
import { HEARTBEAT_EVERY_MS, INSTANCE_STALE_MS } from './instance-liveness';
import { isStoreFault } from './store-faults';
import type { Storage } from './types';

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;
/** Rows deleted per statement by the retention job: short transactions, the log stays writable. */
const PURGE_BATCH = 5_000;
/** The first retention pass runs this long after start, not during it. */
const FIRST_PURGE_AFTER_MS = 60_000;
/**
 * Periodic windows (issue 32) kept this long after they start: a month window (the longest) in
 * any time zone is over well before, and nothing reads a window once it is over.
 */
export const WINDOWS_KEPT_DAYS = 70;

export interface StorageJobOptions {
  /** RELAY_LOG_RETENTION_DAYS: raw usage rows older than this are deleted; 0 keeps them. */
  logRetentionDays: number;
}

/** The periodic work storage needs beside requests; `close` stops it and retires the instance. */
export interface StorageJobs {
  /** One retention pass now (the timer's work; tests call it). */
  purgeExpiredLog(now?: number): Promise<number>;
  /** One pass deleting windows that started more than WINDOWS_KEPT_DAYS before `now` (the daily timer's work). */
  purgeOldWindows(now?: number): Promise<number>;
  /** After the usage log is drained: stop the timers, give back what this instance still holds. */
  close(): Promise<void>;
}

/**
 * - Shared database (PostgreSQL): this instance's heartbeat every HEARTBEAT_EVERY_MS, and the
 *   reservations of instances silent for INSTANCE_STALE_MS (killed, not stopped) given back.
 * - Retention: raw usage rows older than RELAY_LOG_RETENTION_DAYS deleted in batches, hourly;
 *   periodic windows long over (WINDOWS_KEPT_DAYS) deleted daily, whatever the retention.
 *   Every instance runs it; the deletes are idempotent, so several at once only share the work.
 * A failing pass is logged and tried again at the next tick; nothing here throws into the process.
 */
export function startStorageJobs(storage: Storage, logger: Logger, options: StorageJobOptions): StorageJobs {
  const timers: NodeJS.Timeout[] = [];
  let running: Promise<unknown> = Promise.resolve();
  const warn = throttledWarn(logger);
  /** One pass at a time: a slow database never stacks passes up. */
  const serially = (work: () => Promise<unknown>) => {
    running = running.then(work).catch((error: unknown) =>
      isStoreFault(error)
        ? warn('job', error, 'storage job failed: the database does not answer; tried again at its next tick')
        : logger.error({ err: error }, 'storage job failed; tried again at its next tick'),
    );
    return running;
  };

  const beat = async () => {
    const now = Date.now();
    await storage.quota.heartbeat(new Date(now).toISOString());
    const released = await storage.quota.releaseOrphaned(new Date(now - INSTANCE_STALE_MS).toISOString());
    if (released.count > 0) {
      logger.warn({ reservations: released.count, microUsd: released.amount }, 'gave back quota reserved by an instance that stopped answering');
    }
  };

  const purgeExpiredLog = async (now = Date.now()): Promise<number> => {
    if (options.logRetentionDays <= 0) return 0;
    const before = new Date(now - options.logRetentionDays * DAY_MS).toISOString();
    let purged = 0;
    for (;;) {
      const deleted = await storage.usageLog.purgeBefore(before, PURGE_BATCH);
      purged += deleted;
      if (deleted < PURGE_BATCH) break;
    }
    if (purged > 0) logger.info({ rows: purged, before }, 'usage log rows past RELAY_LOG_RETENTION_DAYS deleted (hourly totals kept)');
    return purged;
  };

  const purgeOldWindows = async (now = Date.now()): Promise<number> => {
    const before = new Date(now - WINDOWS_KEPT_DAYS * DAY_MS).toISOString().slice(0, 10);
    return storage.quota.purgeWindowsBefore(before);
  };

  if (storage.kind === 'postgres') timers.push(setInterval(() => void serially(beat), HEARTBEAT_EVERY_MS));
  timers.push(setTimeout(() => void serially(() => purgeOldWindows()), FIRST_PURGE_AFTER_MS));
  timers.push(setInterval(() => void serially(() => purgeOldWindows()), DAY_MS));
  if (options.logRetentionDays > 0) {
    timers.push(setTimeout(() => void serially(() => purgeExpiredLog()), FIRST_PURGE_AFTER_MS));
    timers.push(setInterval(() => void serially(() => purgeExpiredLog()), HOUR_MS));
  }
  for (const timer of timers) timer.unref();

  return {
    purgeExpiredLog: (now) => {
      const pass = running.then(() => purgeExpiredLog(now));
      running = pass.catch(() => undefined);
      return pass;
    },
    purgeOldWindows: (now) => {
      const pass = running.then(() => purgeOldWindows(now));
      running = pass.catch(() => undefined);
      return pass;
    },
    close: async () => {
      for (const timer of timers) clearInterval(timer);
      await running;
      if (storage.kind !== 'postgres') return;
      try {
        const released = await storage.quota.retire();
        if (released.count > 0) logger.warn({ reservations: released.count, microUsd: released.amount }, 'gave back quota still reserved at shutdown');
      } catch (error) {
        // The database is away at shutdown: the other instances give it back once the heartbeat is stale.
        logger.warn({ err: error }, 'could not retire this instance; its reservations are given back by the others after INSTANCE_STALE_MS');
      }
    },
  };
}
