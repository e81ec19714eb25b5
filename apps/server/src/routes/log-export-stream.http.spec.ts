import http from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { LOG_CSV_COLUMNS } from '@chat-relay/contract';
import { createLogger } from '../logger';
import type { UsageLogEntry } from '../storage/types';
import { parseCsv } from '../../test/testing/parse-csv';
import { bearer, usageEntry } from '../../test/testing/system-api';
import { createTestRelay, listen, type TestRelay } from '../../test/testing/test-relay';
import { LOG_EXPORT_PAGE_SIZE } from './log-csv-stream';

const REQUEST_ID = LOG_CSV_COLUMNS.indexOf('request_id');

/** `count` rows a second apart, newest last written; `sameTime` of them around index `at` share one time. */
function rows(count: number, sameTime = 0, at = 0): UsageLogEntry[] {
  const base = Date.parse('2026-01-01T00:00:00.000Z');
  return Array.from({ length: count }, (_, i) =>
    usageEntry({ requestId: `req-${i}`, createdAt: new Date(base + (i >= at && i < at + sameTime ? at : i) * 1000).toISOString(), accountId: 1 }),
  );
}

async function insert(relay: TestRelay, entries: UsageLogEntry[]): Promise<void> {
  for (let i = 0; i < entries.length; i += 5000) await relay.storage.usageLog.insertBatch(entries.slice(i, i + 5000));
}

describe('GET /api/logs/export, streamed', () => {
  let relay: TestRelay;
  let lines: string[];
  let server: Awaited<ReturnType<typeof listen>>;
  let reads: jest.SpyInstance;
  let realKeysetPage: TestRelay['storage']['usageLog']['keysetPage'];

  /** Starts the download; the response arrives paused (nothing read until the test reads it). */
  const startDownload = () =>
    new Promise<{ req: http.ClientRequest; res: http.IncomingMessage }>((resolve, reject) => {
      const req = http.get(`${server.url}/api/logs/export`, { headers: bearer(relay.adminKey) }, (res) => {
        res.pause();
        resolve({ req, res });
      });
      req.on('error', reject);
    });
  const readAll = async (res: http.IncomingMessage): Promise<string> => {
    const parts: Buffer[] = [];
    for await (const part of res) parts.push(part as Buffer);
    return Buffer.concat(parts).toString('utf8');
  };

  beforeEach(async () => {
    lines = [];
    relay = await createTestRelay({ logger: createLogger('info', { write: (line: string) => void lines.push(line) }) });
    server = await listen(relay.app);
    realKeysetPage = relay.storage.usageLog.keysetPage.bind(relay.storage.usageLog);
    reads = jest.spyOn(relay.storage.usageLog, 'keysetPage');
  });
  afterEach(async () => {
    await server.close();
    await relay.close();
  });

  it('writes 2,500 rows each once, newest first, across pages that split rows of one time', async () => {
    // 20 rows share one time across the first page boundary (newest first: rows 1,490..1,509 of 2,500).
    await insert(relay, rows(2500, 20, 1490));
    const { res } = await startDownload();
    expect(res.statusCode).toBe(200);
    const [header, ...records] = parseCsv(await readAll(res));
    expect(header).toEqual(LOG_CSV_COLUMNS);
    const ids = records.map((record) => record[REQUEST_ID]);
    const expected = (await relay.storage.usageLog.query({ page: 1, perPage: 5000 })).rows.map((row) => row.requestId);
    expect(expected).toHaveLength(2500);
    expect(ids).toEqual(expected);
    expect(new Set(ids).size).toBe(2500);
    // Three pages of 1,000: the short third one ends the read.
    expect(reads.mock.calls.map(([, , limit]) => limit)).toEqual([LOG_EXPORT_PAGE_SIZE, LOG_EXPORT_PAGE_SIZE, LOG_EXPORT_PAGE_SIZE]);
  });

  it('stops reading pages when the client leaves, and logs no error', async () => {
    await insert(relay, rows(20_000));
    // A slow database: a page every 20 ms, 21 pages in all.
    reads.mockImplementation(async (...args: Parameters<typeof realKeysetPage>) => {
      await sleep(20);
      return realKeysetPage(...args);
    });
    const { req, res } = await startDownload();
    const first: unknown = await new Promise((resolve) => res.once('data', resolve).resume());
    expect(String(first)).toMatch(/^id,created_at,/);
    req.destroy();
    await sleep(100);
    const readWhenLeft = reads.mock.calls.length;
    await sleep(400);
    expect(reads.mock.calls.length).toBe(readWhenLeft);
    expect(readWhenLeft).toBeLessThan(6);
    expect(lines.filter((line) => JSON.parse(line).level >= 50)).toEqual([]);
  });

  it('cuts the transfer and logs the error when the store fails after the first page; a first page failing is a 500', async () => {
    await insert(relay, rows(2500));
    reads.mockImplementationOnce(realKeysetPage);
    reads.mockRejectedValueOnce(new Error('connection lost'));
    const { res } = await startDownload();
    expect(res.statusCode).toBe(200);
    await expect(readAll(res)).rejects.toThrow(/aborted/);
    const logged = lines.map((line) => JSON.parse(line)).filter((entry) => entry.msg === 'log export failed after it started');
    expect(logged).toEqual([expect.objectContaining({ level: 50, err: expect.objectContaining({ message: 'connection lost' }) })]);

    reads.mockRejectedValueOnce(new Error('database down'));
    const failed = await new Promise<http.IncomingMessage>((resolve) => http.get(`${server.url}/api/logs/export`, { headers: bearer(relay.adminKey) }, resolve));
    expect(failed.statusCode).toBe(500);
    expect(JSON.parse(await readAll(failed)).error.type).toBe('server_error');
  });
});
