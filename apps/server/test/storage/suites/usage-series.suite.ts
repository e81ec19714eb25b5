import { usageEntry } from '../../testing/system-api';
import type { StoreBackend } from '../testing/store-backends';
import type { Storage, UsageLogEntry, UsageSeriesFilter } from '../../../src/storage/types';
import { createUsageOwners, type MoneyDb, openMoneyDb } from './money-fixture';
import { sampleRows } from './usage-sample';
import { bruteForceSeries } from './usage-series-expected';

const BUCKETS = ['hour', 'day'] as const;
const GROUPS = ['total', 'model', 'channel', 'token'] as const;

/**
 * `UsageLogStore.series` on a real database: every bucket, group and filter equal to the rows
 * summed one by one; whole hours read from the rollup (so purged rows still count) and the
 * partial hours at the ends from the raw log.
 */
export function describeUsageSeries(backend: StoreBackend): void {
  let db: MoneyDb;
  let storage: Storage;
  let accounts: [number, number];
  let tokens: [number, number, number];

  beforeEach(async () => {
    db = await openMoneyDb(backend.name);
    storage = db.storage;
    ({ accounts, tokens } = await createUsageOwners(db.sql));
  });
  afterEach(() => db.close());

  describe('over sampled rows', () => {
    let rows: UsageLogEntry[];
    beforeEach(async () => {
      rows = sampleRows(600, { tokens, accounts }, 31);
      await storage.usageLog.insertBatch(rows.slice(0, 300));
      await storage.usageLog.insertBatch(rows.slice(300));
    });

    const ranges: Array<[string, string, string]> = [
      ['hours not aligned, across days', '2026-02-01T09:17:23.456Z', '2026-02-03T14:41:07.890Z'],
      ['whole days', '2026-02-01T00:00:00.000Z', '2026-02-04T00:00:00.000Z'],
      ['within one hour', '2026-02-02T10:05:00.000Z', '2026-02-02T10:55:00.000Z'],
    ];
    const filters: Array<() => UsageSeriesFilter> = [
      () => ({}),
      () => ({ tokenId: tokens[0] }),
      () => ({ accountId: accounts[1] }),
      () => ({ channelId: 2 }),
      () => ({ model: 'Zeta' }),
      () => ({ accountId: accounts[0], channelId: 1, model: 'gpt-4o' }),
    ];

    it.each(ranges)('%s: each bucket, group and filter equal to the rows summed one by one', async (_name, from, to) => {
      expect(bruteForceSeries(rows, {}, from, to, 'hour', 'model').length).toBeGreaterThan(1);
      for (const filter of filters.map((make) => make())) {
        for (const bucket of BUCKETS) {
          for (const groupBy of GROUPS) {
            const expected = bruteForceSeries(rows, filter, from, to, bucket, groupBy);
            const actual = await storage.usageLog.series(filter, from, to, bucket, groupBy);
            expect({ filter, bucket, groupBy, actual }).toEqual({ filter, bucket, groupBy, actual: expected });
          }
        }
      }
    });

    it('counts errors (status >= 400) apart from requests, and scopes to one account', async () => {
      const from = '2026-02-01T00:00:00.000Z';
      const to = '2026-02-04T00:00:00.000Z';
      const days = await storage.usageLog.series({}, from, to, 'day', 'total');
      const errors = days.reduce((sum, point) => sum + point.errors, 0);
      expect(errors).toBe(rows.filter((row) => row.status >= 400).length);
      expect(errors).toBeGreaterThan(0);
      expect(errors).toBeLessThan(days.reduce((sum, point) => sum + point.requests, 0));
      const own = await storage.usageLog.series({ accountId: accounts[0] }, from, to, 'day', 'token');
      const ownRows = rows.filter((row) => row.accountId === accounts[0]);
      expect(own.reduce((sum, point) => sum + point.requests, 0)).toBe(ownRows.length);
      expect(ownRows.length).toBeLessThan(rows.length / 2);
      // Rows are scoped by the account id they were written with, whatever token they name.
      expect(new Set(own.map((point) => point.key))).toEqual(new Set(ownRows.map((row) => (row.tokenId === null ? null : String(row.tokenId)))));
    });

    it('keeps the totals of whole hours after retention deleted their raw rows (the rollup holds them)', async () => {
      const cutoff = '2026-02-02T13:00:00.000Z';
      const from = '2026-02-01T00:00:00.000Z';
      const to = '2026-02-03T17:00:00.000Z';
      const read = () =>
        Promise.all(
          [{}, { accountId: accounts[1] }].flatMap((filter) =>
            BUCKETS.flatMap((bucket) => GROUPS.map((groupBy) => storage.usageLog.series(filter, from, to, bucket, groupBy))),
          ),
        );
      const before = await read();
      expect(await storage.usageLog.purgeBefore(cutoff, 100_000)).toBeGreaterThan(100);
      expect(await read()).toEqual(before);
      expect(before[0]).toEqual(bruteForceSeries(rows, {}, from, to, 'hour', 'total'));
    });
  });

  it('reads the partial hours at the ends from the raw log and the whole hours from the rollup', async () => {
    const row = (requestId: string, createdAt: string) => usageEntry({ requestId, createdAt, tokenId: tokens[0], accountId: accounts[0], cost: 100 });
    await storage.usageLog.insertBatch([
      row('start', '2026-03-01T10:45:00.000Z'),
      row('whole', '2026-03-01T11:15:00.000Z'),
      row('end', '2026-03-01T13:10:00.000Z'),
      row('after', '2026-03-01T13:40:00.000Z'),
    ]);
    // Changed behind the store's back: only what is read from the raw log shows it.
    await db.sql.run('UPDATE usage_log SET cost = 5000');
    const points = await storage.usageLog.series({}, '2026-03-01T10:30:00.000Z', '2026-03-01T13:30:00.000Z', 'hour', 'total');
    expect(points.map((point) => [point.time, point.requests, point.cost])).toEqual([
      ['2026-03-01T10:00:00.000Z', 1, 5000],
      ['2026-03-01T11:00:00.000Z', 1, 100],
      ['2026-03-01T13:00:00.000Z', 1, 5000],
    ]);
    const day = await storage.usageLog.series({}, '2026-03-01T10:30:00.000Z', '2026-03-01T13:30:00.000Z', 'day', 'total');
    expect(day).toEqual([
      { time: '2026-03-01T00:00:00.000Z', key: null, requests: 3, errors: 0, promptTokens: 0, completionTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, cost: 10_100 },
    ]);
  });

  it('orders keys null first, ids as numbers, names by their bytes; answers nothing for an empty range', async () => {
    const at = '2026-03-02T08:00:00.000Z';
    await storage.usageLog.insertBatch([
      usageEntry({ createdAt: at, channelId: 10, requestedModel: 'b' }),
      usageEntry({ createdAt: at, channelId: 2, requestedModel: 'B' }),
      usageEntry({ createdAt: at, channelId: null, requestedModel: null, status: 401 }),
      usageEntry({ createdAt: at, channelId: 2, requestedModel: 'a', status: 500 }),
    ]);
    const keys = async (groupBy: 'channel' | 'model') =>
      (await storage.usageLog.series({}, '2026-03-02T00:00:00.000Z', '2026-03-03T00:00:00.000Z', 'hour', groupBy)).map((point) => [point.key, point.requests, point.errors]);
    expect(await keys('channel')).toEqual([[null, 1, 1], ['2', 2, 1], ['10', 1, 0]]);
    expect(await keys('model')).toEqual([[null, 1, 1], ['B', 1, 0], ['a', 1, 1], ['b', 1, 0]]);
    expect(await storage.usageLog.series({}, '2026-04-01T00:00:00.000Z', '2026-04-02T00:00:00.000Z', 'hour', 'total')).toEqual([]);
    expect(await storage.usageLog.series({}, at, at, 'hour', 'total')).toEqual([]);
  });
}
