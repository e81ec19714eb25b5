import { Worker } from 'node:worker_threads';
import type { Logger } from '../logger';
import type { UsageSink } from '../storage/usage-sink';
import type { UsageLogEntry } from '../storage/types';
import { isWriteReply, type WriteRequest } from '../storage/sqlite/usage-writer-protocol';

interface Pending {
  resolve(): void;
  reject(error: Error): void;
}

/** How long `close()` waits for the writer thread to finish before stopping it. */
const CLOSE_GRACE_MS = 5_000;

/**
 * Usage batches written by a worker thread (storage/sqlite/usage-writer.worker.ts), so that the
 * event loop relaying requests never waits on SQLite: inserts, index updates and WAL syncs run
 * beside it. If the thread fails, its batches are refused (the recorder keeps and retries them)
 * and later batches go to `fallback`, written in this thread: nothing is lost.
 */
export class WorkerUsageSink implements UsageSink {
  private worker: Worker | undefined;
  private failed = false;
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();

  constructor(
    private readonly workerFile: string,
    private readonly dataDir: string,
    private readonly fallback: UsageSink,
    private readonly logger: Logger,
  ) {}

  write(batch: readonly UsageLogEntry[]): Promise<void> {
    const worker = this.running();
    if (!worker) return this.fallback.write(batch);
    const request: WriteRequest = { id: this.nextId++, batch };
    return new Promise((resolve, reject) => {
      this.pending.set(request.id, { resolve, reject });
      worker.postMessage(request);
    });
  }

  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    if (worker) {
      const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
      // Closing the port lets the thread close its connection and end by itself.
      worker.postMessage({ close: true });
      const timer = setTimeout(() => void worker.terminate(), CLOSE_GRACE_MS);
      await exited;
      clearTimeout(timer);
    }
    await this.fallback.close();
  }

  private running(): Worker | undefined {
    if (this.failed) return undefined;
    if (this.worker) return this.worker;
    let worker: Worker;
    try {
      worker = new Worker(this.workerFile, { workerData: { dataDir: this.dataDir } });
    } catch (error) {
      this.fail(error instanceof Error ? error : new Error(String(error)));
      return undefined;
    }
    worker.on('message', (message: unknown) => this.settle(message));
    worker.once('error', (error) => this.fail(error));
    worker.once('exit', (code) => {
      if (this.worker === worker) this.fail(new Error(`usage writer thread exited with code ${code}`));
    });
    this.worker = worker;
    return worker;
  }

  private settle(message: unknown): void {
    if (!isWriteReply(message)) return;
    const pending = this.pending.get(message.id);
    if (!pending) return;
    this.pending.delete(message.id);
    if (message.error === undefined) pending.resolve();
    else pending.reject(new Error(message.error));
  }

  private fail(error: Error): void {
    if (this.failed) return;
    this.failed = true;
    this.worker = undefined;
    this.logger.error({ err: error }, 'usage writer thread failed; writing usage in the main thread from now on');
    for (const pending of this.pending.values()) pending.reject(error);
    this.pending.clear();
  }
}
