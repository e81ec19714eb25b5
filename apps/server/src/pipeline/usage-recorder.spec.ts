import { Writable } from 'node:stream';
import { createLogger } from '../logger';
import type { TokenStore, UsageLogEntry, UsageLogStore } from '../storage/types';
import { UsageRecorder } from './usage-recorder';

const entry = (requestId: string, tokenId: number | null = 1, createdAt = '2026-01-01T00:00:00.000Z'): UsageLogEntry => ({
  createdAt,
  requestId,
  tokenId,
  endpoint: 'chat',
  units: 0,
  accountId: 1,
  requestedModel: 'm',
  upstreamModel: 'm',
  channelId: 1,
  assistantId: null,
  stream: false,
  status: 200,
  errorCode: null,
  promptTokens: 1,
  completionTokens: 1,
  cacheReadTokens: 0,
  cacheWriteTokens: 0,
  usageEstimated: false,
  cost: 0,
  quotaReserved: 0,
  latencyMs: 1,
  ttfbMs: 1,
  clientIp: null,
  attempts: 1,
});

function fakeStores(failFirst = false) {
  const batches: UsageLogEntry[][] = [];
  const touched: Array<Map<number, string>> = [];
  let failures = failFirst ? 1 : 0;
  const usageLog: UsageLogStore = {
    purgeBefore: async () => 0,
    insertBatch: async (entries) => {
      if (failures-- > 0) throw new Error('disk full');
      batches.push([...entries]);
    },
    recent: async () => [],
    query: async () => ({ rows: [], total: 0 }),
    aggregate: async () => [],
    series: async () => [],
    keysetPage: async () => [],
  };
  const tokens = { touchLastUsed: async (map: ReadonlyMap<number, string>) => void touched.push(new Map(map)) } as unknown as TokenStore;
  return { usageLog, tokens, batches, touched };
}

describe('UsageRecorder', () => {
  const logger = createLogger('silent');

  it('writes nothing per request: entries go out together on the timer', async () => {
    const stores = fakeStores();
    const recorder = new UsageRecorder(stores.usageLog, stores.tokens, logger, { flushIntervalMs: 30 });
    recorder.record(entry('a'));
    recorder.record(entry('b'));
    expect(stores.batches).toHaveLength(0);
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(stores.batches.map((batch) => batch.map((row) => row.requestId))).toEqual([['a', 'b']]);
    await recorder.close();
  });

  it('tells its observer of each row with its route as it is queued; an observer that throws costs no row', async () => {
    const stores = fakeStores();
    const route = { path: '/v1/chat/completions' };
    const heard: Array<[string, string | undefined]> = [];
    const recorder = new UsageRecorder(stores.usageLog, stores.tokens, logger, { flushIntervalMs: 60_000 }, (row, matched) => {
      heard.push([row.requestId, matched?.path]);
      if (row.requestId === 'b') throw new Error('metrics broke');
    });
    recorder.record(entry('a'), route);
    recorder.record(entry('b'));
    expect(heard).toEqual([
      ['a', '/v1/chat/completions'],
      ['b', undefined],
    ]);
    await recorder.close();
    expect(stores.batches.flat().map((row) => row.requestId)).toEqual(['a', 'b']);
  });

  it('flushes early when the batch is full', async () => {
    const stores = fakeStores();
    const recorder = new UsageRecorder(stores.usageLog, stores.tokens, logger, { flushIntervalMs: 60_000, maxBatch: 3 });
    for (const id of ['a', 'b', 'c', 'd']) recorder.record(entry(id));
    await Promise.resolve();
    await new Promise((resolve) => setImmediate(resolve));
    expect(stores.batches[0]?.map((row) => row.requestId)).toEqual(['a', 'b', 'c']);
    await recorder.close();
    expect(stores.batches.flat()).toHaveLength(4);
  });

  it('close() drains everything queued, so a clean shutdown loses nothing', async () => {
    const stores = fakeStores();
    const recorder = new UsageRecorder(stores.usageLog, stores.tokens, logger, { flushIntervalMs: 60_000 });
    for (let i = 0; i < 50; i++) recorder.record(entry(`r${i}`));
    await recorder.close();
    expect(stores.batches.flat()).toHaveLength(50);
  });

  it('keeps a failed batch and writes it on the next flush', async () => {
    const stores = fakeStores(true);
    const recorder = new UsageRecorder(stores.usageLog, stores.tokens, logger, { flushIntervalMs: 60_000 });
    recorder.record(entry('kept'));
    await recorder.flush();
    expect(stores.batches).toHaveLength(0);
    await recorder.close();
    expect(stores.batches.flat().map((row) => row.requestId)).toEqual(['kept']);
  });

  it('close() tries a batch that failed during the last flush once more, so shutdown loses nothing', async () => {
    const stores = fakeStores(true);
    const recorder = new UsageRecorder(stores.usageLog, stores.tokens, logger, { flushIntervalMs: 60_000 });
    recorder.record(entry('late'));
    await recorder.close();
    expect(stores.batches.flat().map((row) => row.requestId)).toEqual(['late']);
  });

  it('a row recorded after close() whose write fails is tried once, not retried for the life of the process', async () => {
    const stores = fakeStores();
    const recorder = new UsageRecorder(stores.usageLog, stores.tokens, logger, { flushIntervalMs: 5 });
    await recorder.close();
    let attempts = 0;
    stores.usageLog.insertBatch = async () => {
      attempts += 1;
      throw new Error('database closed');
    };
    recorder.record(entry('after-close'));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(attempts).toBe(1);
  });

  it('updates last_used_at once per token per batch with the latest time', async () => {
    const stores = fakeStores();
    const recorder = new UsageRecorder(stores.usageLog, stores.tokens, logger, { flushIntervalMs: 60_000 });
    recorder.record(entry('a', 7, '2026-01-01T00:00:01.000Z'));
    recorder.record(entry('b', 7, '2026-01-01T00:00:02.000Z'));
    recorder.record(entry('c', null));
    await recorder.close();
    expect(stores.touched).toEqual([new Map([[7, '2026-01-01T00:00:02.000Z']])]);
  });

  it('rows written whose last-used touch then fails are not written again (issue 26: a row written twice)', async () => {
    const stores = fakeStores();
    let touchFailures = 1;
    const touch = stores.tokens.touchLastUsed.bind(stores.tokens);
    stores.tokens.touchLastUsed = async (map) => {
      if (touchFailures-- > 0) throw new Error('connection lost');
      return touch(map);
    };
    const recorder = new UsageRecorder(stores.usageLog, stores.tokens, logger, { flushIntervalMs: 60_000 });
    recorder.record(entry('once', 7));
    await recorder.flush();
    await recorder.close();
    expect(stores.batches.flat().map((row) => row.requestId)).toEqual(['once']);
  });

  it('an outage: rows kept and retried, the backlog full at maxBacklog and free again once written, one log line per interval', async () => {
    const stores = fakeStores();
    let down = true;
    const insert = stores.usageLog.insertBatch.bind(stores.usageLog);
    stores.usageLog.insertBatch = async (entries) => {
      if (down) throw new Error('the database does not answer');
      return insert(entries);
    };
    const lines: string[] = [];
    const sink = new Writable({
      write: (chunk: Buffer, _encoding, done) => {
        lines.push(chunk.toString('utf8'));
        done();
      },
    });
    const recorder = new UsageRecorder(stores.usageLog, stores.tokens, createLogger('info', sink), { flushIntervalMs: 5, maxBacklog: 3 });
    for (const id of ['a', 'b']) recorder.record(entry(id));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(recorder.backlogFull).toBe(false);
    recorder.record(entry('c'));
    expect(recorder.backlogFull).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const failures = lines.filter((line) => line.includes('usage log write failed'));
    expect(failures).toHaveLength(1);
    down = false;
    await recorder.close();
    expect(recorder.backlogFull).toBe(false);
    expect(stores.batches.flat().map((row) => row.requestId)).toEqual(['a', 'b', 'c']);
    expect(lines.filter((line) => line.includes('usage log writes resumed'))).toHaveLength(1);
  });

  it('writes a large flush rowsPerWrite rows at a time, the event loop running between two writes', async () => {
    const stores = fakeStores();
    const order: string[] = [];
    const insert = stores.usageLog.insertBatch.bind(stores.usageLog);
    stores.usageLog.insertBatch = async (entries) => {
      order.push(`write ${entries.map((row) => row.requestId).join('')}`);
      // Something the event loop has to run (a stream's next piece): it goes before the next write.
      setImmediate(() => order.push('loop'));
      return insert(entries);
    };
    const recorder = new UsageRecorder(stores.usageLog, stores.tokens, logger, { flushIntervalMs: 60_000, rowsPerWrite: 2 });
    for (const id of ['a', 'b', 'c', 'd', 'e']) recorder.record(entry(id));
    await recorder.close();
    expect(order).toEqual(['write ab', 'loop', 'write cd', 'loop', 'write e']);
    expect(stores.batches.map((batch) => batch.map((row) => row.requestId).join(''))).toEqual(['ab', 'cd', 'e']);
    expect(recorder.backlogFull).toBe(false);
  });

  it('a write that fails partway through a flush keeps its rows and the rest, in order, and writes none twice', async () => {
    const stores = fakeStores();
    let writes = 0;
    const insert = stores.usageLog.insertBatch.bind(stores.usageLog);
    stores.usageLog.insertBatch = async (entries) => {
      writes += 1;
      if (writes === 2) throw new Error('disk full');
      return insert(entries);
    };
    const recorder = new UsageRecorder(stores.usageLog, stores.tokens, logger, { flushIntervalMs: 60_000, rowsPerWrite: 2, maxBacklog: 5 });
    for (const id of ['a', 'b', 'c', 'd', 'e']) recorder.record(entry(id));
    expect(recorder.backlogFull).toBe(true);
    await recorder.flush();
    expect(stores.batches.flat().map((row) => row.requestId)).toEqual(['a', 'b']);
    // Three rows still unwritten: the backlog counts them, the next flush takes them.
    expect(recorder.backlogFull).toBe(false);
    recorder.record(entry('f'));
    recorder.record(entry('g'));
    expect(recorder.backlogFull).toBe(true);
    await recorder.close();
    expect(stores.batches.flat().map((row) => row.requestId)).toEqual(['a', 'b', 'c', 'd', 'e', 'f', 'g']);
    expect(recorder.backlogFull).toBe(false);
  });
});
