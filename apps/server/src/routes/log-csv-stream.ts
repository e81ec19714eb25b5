import type { Response } from 'express';
import { Readable } from 'node:stream';
import type { Logger } from '../logger';
import type { StoredUsageLogEntry, UsageLogCursor } from '../storage/types';
import { LOG_CSV_HEADER, logCsvLine } from './log-csv';
import { logView } from './log-view';

/** Rows read per keyset page: one chunk written, about what the export holds in memory. */
export const LOG_EXPORT_PAGE_SIZE = 1000;

/** The next page of the export, newest first, after `after` (from the newest when null). */
export type LogPageReader = (after: UsageLogCursor | null, limit: number) => Promise<StoredUsageLogEntry[]>;

/**
 * The CSV export as a Readable of one chunk per keyset page, piped into the response. Node calls
 * `_read` (so the next page is read) only when the previous chunk has left its buffer, and a full
 * socket pauses the pipe until it drains: back-pressure bounds memory to about one page.
 */
export class LogCsvStream extends Readable {
  private after: UsageLogCursor | null = null;
  private first: StoredUsageLogEntry[] | undefined;

  constructor(
    first: StoredUsageLogEntry[],
    private readonly readPage: LogPageReader,
    private readonly pageSize: number,
  ) {
    super();
    this.first = first;
  }

  override _read(): void {
    const first = this.first;
    if (first) {
      this.first = undefined;
      this.emitPage(first, LOG_CSV_HEADER);
      return;
    }
    this.readPage(this.after, this.pageSize).then(
      (rows) => {
        // The client left while the page was read: nothing more is written or read.
        if (!this.destroyed) this.emitPage(rows, '');
      },
      (error: unknown) => this.destroy(error instanceof Error ? error : new Error(String(error))),
    );
  }

  private emitPage(rows: StoredUsageLogEntry[], prefix: string): void {
    const last = rows.at(-1);
    if (last) this.after = { createdAt: last.createdAt, id: last.id };
    const text = prefix + rows.map((row) => logCsvLine(logView(row))).join('');
    if (text) this.push(text);
    // A short page is the last one: no read to learn that the next is empty.
    if (rows.length < this.pageSize) this.push(null);
  }
}

/**
 * The download's body and headers. The first page is read before answering, so a failing store
 * is a plain 500; a failure later cuts the transfer (logged), as no status can be sent any more.
 * A client that leaves ends the reading.
 */
export async function logCsvDownload(res: Response, readPage: LogPageReader, logger: Logger, pageSize = LOG_EXPORT_PAGE_SIZE): Promise<Readable> {
  const first = await readPage(null, pageSize);
  const body = new LogCsvStream(first, readPage, pageSize);
  res.setHeader('content-type', 'text/csv; charset=utf-8');
  res.setHeader('content-disposition', `attachment; filename="chat-relay-logs-${new Date().toISOString().slice(0, 10)}.csv"`);
  res.setHeader('cache-control', 'no-store');
  res.once('close', () => body.destroy());
  body.once('error', (error) => {
    logger.error({ requestId: res.locals.requestId, err: error }, 'log export failed after it started');
    res.destroy(error);
  });
  return body;
}
