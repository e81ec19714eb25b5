import { Writable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { LOG_CSV_COLUMNS } from '@chat-relay/contract';
import type { StoredUsageLogEntry, UsageLogCursor } from '../storage/types';
import { usageEntry } from '../../test/testing/system-api';
import { LogCsvStream } from './log-csv-stream';

const PAGE = 50;
const TOTAL_PAGES = 40;

/** A log of TOTAL_PAGES pages, newest first, and the cursors each read was given. */
function fakeLog() {
  const cursors: Array<UsageLogCursor | null> = [];
  const entry = (index: number): StoredUsageLogEntry => {
    const { quotaReserved: _quotaReserved, ...rest } = usageEntry({ requestId: `req-${index}`, createdAt: new Date(Date.UTC(2026, 0, 1) - index * 1000).toISOString() });
    return { ...rest, pricedBy: null, fallbackPath: null, id: PAGE * TOTAL_PAGES - index };
  };
  const readPage = async (after: UsageLogCursor | null, limit: number): Promise<StoredUsageLogEntry[]> => {
    cursors.push(after);
    const start = after === null ? 0 : PAGE * TOTAL_PAGES - after.id + 1;
    return Array.from({ length: Math.max(0, Math.min(limit, PAGE * TOTAL_PAGES - start)) }, (_, i) => entry(start + i));
  };
  return { cursors, readPage, entry };
}

describe('LogCsvStream', () => {
  it('reads the next page only as the destination takes what was written (back-pressure)', async () => {
    const log = fakeLog();
    const stream = new LogCsvStream(await log.readPage(null, PAGE), log.readPage, PAGE);
    let release: (() => void) | undefined;
    let written = 0;
    // A destination that takes one chunk, then holds the next until released: a stalled client.
    const stalled = new Writable({
      highWaterMark: 1024,
      write(chunk: Buffer, _encoding, done) {
        written += chunk.length;
        release = done;
      },
    });
    stream.pipe(stalled);
    await sleep(50);
    // A page in the destination, one in its buffer, the stream's own 16 KiB: a few of the 40.
    expect(log.cursors.length).toBeLessThanOrEqual(6);
    const readWhileStalled = log.cursors.length;
    await sleep(50);
    expect(log.cursors.length).toBe(readWhileStalled);

    // Now every chunk is taken at once: the whole log is read, each page once, to the end.
    const finished = new Promise((resolve) => stalled.on('finish', resolve));
    stalled._write = (chunk: Buffer, _encoding, done) => {
      written += chunk.length;
      done();
    };
    release?.();
    await finished;
    expect(log.cursors).toHaveLength(TOTAL_PAGES + 1);
    expect(log.cursors.slice(1, 3)).toEqual([
      { createdAt: log.entry(PAGE - 1).createdAt, id: log.entry(PAGE - 1).id },
      { createdAt: log.entry(2 * PAGE - 1).createdAt, id: log.entry(2 * PAGE - 1).id },
    ]);
    expect(written).toBeGreaterThan(PAGE * TOTAL_PAGES * 100);
  });

  it('ends after a short page without another read, and writes the header even for no rows', async () => {
    const readPage = jest.fn(async () => [] as StoredUsageLogEntry[]);
    const chunks: string[] = [];
    for await (const chunk of new LogCsvStream([], readPage, PAGE)) chunks.push(String(chunk));
    expect(chunks).toEqual([`${LOG_CSV_COLUMNS.join(',')}\r\n`]);
    expect(readPage).not.toHaveBeenCalled();
  });
});
