import { usageEntry } from '../../testing/system-api';
import type { StoreBackend } from '../testing/store-backends';
import type { Storage, UsageLogEntry, UsageLogQuery } from '../../../src/storage/types';
import { createUsageOwners, type MoneyDb, openMoneyDb, quotaUsed, reservations } from './money-fixture';
import { bruteForceAggregate, expectedListing, sampleRows } from './usage-sample';

const stored = (entry: UsageLogEntry) => {
  const { quotaReserved: _quotaReserved, windowsReserved: _windowsReserved, ...rest } = entry;
  return { ...rest, fallbackPath: entry.fallbackPath ?? null, id: expect.any(Number) as number };
};
const requestIds = (rows: ReadonlyArray<{ requestId: string }>) => rows.map((row) => row.requestId);

/**
 * The behaviour every UsageLogStore must show, on a real database: rows written whole in one
 * batch and settled; the listing's filters and pages, newest first; aggregates equal to a sum
 * made here row by row, also after the raw rows are purged; retention bounded per call.
 */
export function describeUsageLogStore(backend: StoreBackend): void {
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

  describe('insertBatch', () => {
    it('gives back every field as written, nulls and fractions included; recent lists the last written first', async () => {
      const full = usageEntry({
        requestId: 'req-full',
        createdAt: '2026-02-01T10:00:00.123Z',
        tokenId: tokens[0],
        accountId: accounts[0],
        requestedModel: 'gpt-4o',
        upstreamModel: 'gpt-4o-2024-08-06',
        channelId: 7,
        assistantId: 'asst_1',
        stream: true,
        status: 200,
        errorCode: null,
        promptTokens: 1200,
        completionTokens: 80,
        cacheReadTokens: 1000,
        cacheWriteTokens: 100,
        endpoint: 'audio_transcriptions',
        units: 12.345,
        usageEstimated: true,
        cost: 9_007_199_254_740,
        latencyMs: 1234,
        ttfbMs: 56,
        clientIp: '2001:db8::1',
        attempts: 3,
        pricedBy: 'gpt-4o* (table)',
        fallbackPath: 'claude-sonnet-4-5>gpt-4.1',
      });
      const bare = usageEntry({
        requestId: 'req-bare',
        createdAt: '2026-01-01T00:00:00.000Z',
        tokenId: null,
        accountId: null,
        requestedModel: null,
        upstreamModel: null,
        channelId: null,
        status: 401,
        errorCode: 'invalid_api_key',
        ttfbMs: null,
        clientIp: null,
      });
      await storage.usageLog.insertBatch([full, bare]);
      // The last written first, whatever its time.
      expect(await storage.usageLog.recent(10)).toEqual([stored(bare), stored(full)]);
      expect(await storage.usageLog.recent(1)).toEqual([stored(bare)]);
    });

    it('takes the task and search endpoints (videos, music, search) like any other: rows, filters, rollup and series', async () => {
      const hour = '2026-02-10T08:00:00.000Z';
      const rows = (['videos', 'music', 'search'] as const).map((endpoint, i) =>
        usageEntry({ requestId: `req-${endpoint}`, createdAt: `2026-02-10T08:0${i}:00.000Z`, tokenId: tokens[0], accountId: accounts[0], endpoint, units: 8 - i, cost: 1_000 * (i + 1) }),
      );
      await storage.usageLog.insertBatch(rows);
      expect(await storage.usageLog.recent(3)).toEqual(rows.map(stored).reverse());
      for (const row of rows) {
        expect(requestIds((await storage.usageLog.query({ page: 1, perPage: 10, endpoint: row.endpoint })).rows)).toEqual([row.requestId]);
      }
      // Whole hours come from the rollup: the rows were added to it under their endpoints.
      const [point] = await storage.usageLog.series({ tokenId: tokens[0] }, hour, '2026-02-10T09:00:00.000Z', 'hour', 'total');
      expect(point).toMatchObject({ time: hour, requests: 3, cost: 6_000 });
      const byEndpoint = await db.sql.all<{ endpoint: string; units: number; cost: number }>(
        'SELECT endpoint, units, cost FROM usage_rollup WHERE token_id = ? ORDER BY endpoint',
        [tokens[0]],
      );
      expect(byEndpoint.map((row) => [row.endpoint, Number(row.units), Number(row.cost)])).toEqual([
        ['music', 7, 2_000],
        ['search', 6, 3_000],
        ['videos', 8, 1_000],
      ]);
    });

    it('leaves count_tokens rows out of the series, from the rollup and the log alike (issue 28 defect 7)', async () => {
      const hour = '2026-02-11T08:00:00.000Z';
      const owner = { tokenId: tokens[0], accountId: accounts[0] };
      await storage.usageLog.insertBatch([
        usageEntry({ ...owner, createdAt: '2026-02-11T08:01:00.000Z', endpoint: 'chat', promptTokens: 5 }),
        usageEntry({ ...owner, createdAt: '2026-02-11T08:02:00.000Z', endpoint: 'count_tokens' }),
      ]);
      const [whole] = await storage.usageLog.series({ tokenId: tokens[0] }, hour, '2026-02-11T09:00:00.000Z', 'hour', 'total');
      expect(whole).toMatchObject({ requests: 1, promptTokens: 5 });
      const [partial] = await storage.usageLog.series({ tokenId: tokens[0] }, '2026-02-11T08:00:30.000Z', '2026-02-11T08:30:00.000Z', 'hour', 'total');
      expect(partial).toMatchObject({ requests: 1, promptTokens: 5 });
      expect(requestIds((await storage.usageLog.query({ page: 1, perPage: 10, endpoint: 'count_tokens' })).rows)).toHaveLength(1);
    });

    it('writes 1,000 rows in one batch, settling each reserved one against its token and account', async () => {
      await db.sql.run('UPDATE tokens SET quota_limit = 100000000 WHERE id = ?', [tokens[0]]);
      const rows = sampleRows(1000, { tokens, accounts }).map((row, i) =>
        // Every 5th row of the first token had a reservation of 50,000 taken before its call.
        i % 5 === 0 ? { ...row, tokenId: tokens[0], accountId: accounts[0], quotaReserved: 50_000 } : row,
      );
      const reserved = rows.filter((row) => row.quotaReserved > 0);
      for (const row of reserved) {
        expect(await storage.quota.reserve({ requestId: row.requestId, tokenId: tokens[0], accountId: accounts[0], amount: 50_000 })).toEqual({ ok: true });
      }
      const started = Date.now();
      await storage.usageLog.insertBatch(rows);
      const took = Date.now() - started;

      expect((await storage.usageLog.query({ page: 1, perPage: 1 })).total).toBe(1000);
      expect(await reservations(db.sql)).toEqual([]);
      const costOf = (match: (row: UsageLogEntry) => boolean) => rows.filter(match).reduce((sum, row) => sum + row.cost, 0);
      expect(await quotaUsed(db.sql, tokens[0], accounts[0])).toEqual({
        token: costOf((row) => row.tokenId === tokens[0]),
        account: costOf((row) => row.tokenId !== null && row.accountId === accounts[0]),
      });
      const range = ['2026-01-31T00:00:00.000Z', '2026-02-05T00:00:00.000Z'] as const;
      expect(await storage.usageLog.aggregate({}, ...range, 'model')).toEqual(bruteForceAggregate(rows, {}, ...range, 'model'));
      // One transaction of a few statements: far below a round trip per row.
      expect(took).toBeLessThan(5_000);
    }, 30_000);

    it('writes nothing and fails whole when one row is refused (one transaction)', async () => {
      await expect(
        storage.usageLog.insertBatch([
          usageEntry({ requestId: 'req-ok', tokenId: tokens[0] }),
          usageEntry({ requestId: null as unknown as string, tokenId: tokens[0] }),
        ]),
        // Not toThrow: better-sqlite3 makes its errors with the Error of the first test file its
        // native module was loaded in, which another file's realm does not recognise as an Error.
      ).rejects.toMatchObject({ message: expect.stringMatching(/request_id/) });
      expect(await storage.usageLog.recent(10)).toEqual([]);
      expect(await storage.usageLog.aggregate({}, '2000-01-01T00:00:00.000Z', '2100-01-01T00:00:00.000Z', 'model')).toEqual([]);
    });
  });

  describe('query', () => {
    let rows: UsageLogEntry[];
    beforeEach(async () => {
      rows = sampleRows(400, { tokens, accounts }, 11);
      await storage.usageLog.insertBatch(rows.slice(0, 250));
      await storage.usageLog.insertBatch(rows.slice(250));
    });

    const filters: Array<[string, () => Omit<UsageLogQuery, 'page' | 'perPage'>]> = [
      ['no filter', () => ({})],
      ['token', () => ({ tokenId: tokens[1] })],
      ['account', () => ({ accountId: accounts[0] })],
      ['model', () => ({ model: 'Zeta' })],
      ['status', () => ({ status: 429 })],
      ['endpoint', () => ({ endpoint: 'embeddings' })],
      ['time range', () => ({ from: '2026-02-02T03:04:05.678Z', to: '2026-02-02T20:00:00.000Z' })],
      ['from only', () => ({ from: '2026-02-03T12:00:00.000Z' })],
      ['token, status and time', () => ({ tokenId: tokens[0], status: 200, to: '2026-02-03T00:00:00.000Z' })],
      ['account, model and endpoint', () => ({ accountId: accounts[1], model: 'gpt-4o', endpoint: 'chat' })],
    ];

    it.each(filters)('%s: the matching rows newest first, in pages, with their total', async (_name, filter) => {
      const expected = expectedListing(rows, filter());
      expect(expected.length).toBeGreaterThan(0);
      const first = await storage.usageLog.query({ ...filter(), page: 1, perPage: 7 });
      expect(first.total).toBe(expected.length);
      expect(requestIds(first.rows)).toEqual(requestIds(expected.slice(0, 7)));
      const third = await storage.usageLog.query({ ...filter(), page: 3, perPage: 7 });
      expect(requestIds(third.rows)).toEqual(requestIds(expected.slice(14, 21)));
      const all = await storage.usageLog.query({ ...filter(), page: 1, perPage: 1000 });
      expect(requestIds(all.rows)).toEqual(requestIds(expected));
    });

    it('answers an empty page past the end, and nothing for a filter no row matches', async () => {
      expect(await storage.usageLog.query({ page: 100, perPage: 7 })).toEqual({ rows: [], total: 400 });
      expect(await storage.usageLog.query({ page: 1, perPage: 7, model: 'no-such-model' })).toEqual({ rows: [], total: 0 });
    });
  });

  describe('aggregate', () => {
    let rows: UsageLogEntry[];
    beforeEach(async () => {
      rows = sampleRows(600, { tokens, accounts }, 23);
      await storage.usageLog.insertBatch(rows.slice(0, 200));
      await storage.usageLog.insertBatch(rows.slice(200));
    });

    const ranges: Array<[string, string, string]> = [
      ['hours not aligned, across days', '2026-02-01T09:17:23.456Z', '2026-02-03T14:41:07.890Z'],
      ['whole hours only', '2026-02-01T05:00:00.000Z', '2026-02-02T22:00:00.000Z'],
      ['within one hour', '2026-02-02T10:05:00.000Z', '2026-02-02T10:55:00.000Z'],
      ['across one hour boundary, no whole hour', '2026-02-02T10:50:00.000Z', '2026-02-02T11:10:00.000Z'],
      ['one whole hour and a little', '2026-02-02T09:59:59.999Z', '2026-02-02T11:00:00.001Z'],
      ['everything', '2026-01-01T00:00:00.000Z', '2026-03-01T00:00:00.000Z'],
    ];

    it.each(ranges)('%s: per day and per model, equal to the rows summed one by one', async (_name, from, to) => {
      const scopes = [{ tokenId: tokens[0] }, { tokenId: tokens[2] }, { accountId: accounts[0] }, {}];
      expect(bruteForceAggregate(rows, {}, from, to, 'model').length).toBeGreaterThan(1);
      for (const scope of scopes) {
        for (const groupBy of ['day', 'model'] as const) {
          const expected = bruteForceAggregate(rows, scope, from, to, groupBy);
          expect({ scope, groupBy, totals: await storage.usageLog.aggregate(scope, from, to, groupBy) }).toEqual({ scope, groupBy, totals: expected });
        }
      }
    });

    it('gives the same totals after the raw rows they came from are purged (the rollup keeps them)', async () => {
      const cutoff = '2026-02-02T13:00:00.000Z';
      // Starts before every row, ends after the cutoff: its partial hours hold no purged row.
      const from = '2026-01-31T23:47:11.111Z';
      const to = '2026-02-03T08:30:00.000Z';
      const scopes: Array<{ tokenId?: number; accountId?: number }> = [{ tokenId: tokens[1] }, { accountId: accounts[1] }, {}];
      const before = await Promise.all(scopes.flatMap((scope) => (['day', 'model'] as const).map((groupBy) => storage.usageLog.aggregate(scope, from, to, groupBy))));
      const purged = rows.filter((row) => row.createdAt < cutoff).length;
      expect(purged).toBeGreaterThan(100);
      expect(await storage.usageLog.purgeBefore(cutoff, 100_000)).toBe(purged);
      expect((await storage.usageLog.query({ page: 1, perPage: 1 })).total).toBe(rows.length - purged);
      const after = await Promise.all(scopes.flatMap((scope) => (['day', 'model'] as const).map((groupBy) => storage.usageLog.aggregate(scope, from, to, groupBy))));
      expect(after).toEqual(before);
      expect(after[0]).toEqual(bruteForceAggregate(rows, { tokenId: tokens[1] }, from, to, 'day'));
    });
  });

  describe('purgeBefore', () => {
    it('deletes at most `limit` rows per call, the oldest first, none from `before` on', async () => {
      const at = (minute: number) => new Date(Date.parse('2026-02-01T00:00:00.000Z') + minute * 60_000).toISOString();
      // Written out of time order: the oldest are purged first, not the first written.
      const minutes = [5, 1, 9, 3, 7, 2, 8, 4, 6, 0, 10, 11, 12];
      await storage.usageLog.insertBatch(minutes.map((minute) => usageEntry({ requestId: `m-${minute}`, createdAt: at(minute) })));
      const left = async () => requestIds((await storage.usageLog.query({ page: 1, perPage: 100 })).rows).reverse();

      expect(await storage.usageLog.purgeBefore(at(10), 4)).toBe(4);
      expect(await left()).toEqual(['m-4', 'm-5', 'm-6', 'm-7', 'm-8', 'm-9', 'm-10', 'm-11', 'm-12']);
      expect(await storage.usageLog.purgeBefore(at(10), 4)).toBe(4);
      expect(await storage.usageLog.purgeBefore(at(10), 4)).toBe(2);
      expect(await storage.usageLog.purgeBefore(at(10), 4)).toBe(0);
      expect(await left()).toEqual(['m-10', 'm-11', 'm-12']);
    });
  });
}
