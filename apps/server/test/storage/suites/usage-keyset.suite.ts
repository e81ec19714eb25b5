import { usageEntry } from '../../testing/system-api';
import { pgKeysetSql } from '../../../src/storage/postgres/pg-usage-queries';
import { sqliteKeysetSql } from '../../../src/storage/sqlite/sqlite-usage-queries';
import type { StoreBackend } from '../testing/store-backends';
import type { StoredUsageLogEntry, UsageLogCursor, UsageLogEntry, UsageLogFilter } from '../../../src/storage/types';
import { createUsageOwners, type MoneyDb, openMoneyDb } from './money-fixture';
import { expectedListing, sampleRows } from './usage-sample';

/** Every row of the filter, read page by page as the CSV export reads them. */
async function readAll(db: MoneyDb, filter: UsageLogFilter, pageSize: number): Promise<{ rows: StoredUsageLogEntry[]; pages: number }> {
  const rows: StoredUsageLogEntry[] = [];
  let after: UsageLogCursor | null = null;
  for (let pages = 1; ; pages++) {
    const page = await db.storage.usageLog.keysetPage(filter, after, pageSize);
    expect(page.length).toBeLessThanOrEqual(pageSize);
    rows.push(...page);
    const last = page.at(-1);
    if (!last) return { rows, pages };
    after = { createdAt: last.createdAt, id: last.id };
  }
}
const requestIds = (rows: ReadonlyArray<{ requestId: string }>) => rows.map((row) => row.requestId);

/**
 * `UsageLogStore.keysetPage` on a real database: pages newest first that together give the
 * listing's rows exactly once, also where many rows share a time across a page boundary.
 */
export function describeUsageKeyset(backend: StoreBackend): void {
  let db: MoneyDb;
  let accounts: [number, number];
  let tokens: [number, number, number];

  beforeEach(async () => {
    db = await openMoneyDb(backend.name);
    ({ accounts, tokens } = await createUsageOwners(db.sql));
  });
  afterEach(() => db.close());

  describe('over sampled rows', () => {
    let rows: UsageLogEntry[];
    beforeEach(async () => {
      rows = sampleRows(300, { tokens, accounts }, 5);
      await db.storage.usageLog.insertBatch(rows.slice(0, 120));
      await db.storage.usageLog.insertBatch(rows.slice(120));
    });

    const filters: Array<[string, () => UsageLogFilter]> = [
      ['no filter', () => ({})],
      ['token', () => ({ tokenId: tokens[1] })],
      ['account', () => ({ accountId: accounts[0] })],
      ['model', () => ({ model: 'gpt-4o' })],
      ['status', () => ({ status: 500 })],
      ['endpoint', () => ({ endpoint: 'images' })],
      ['time range', () => ({ from: '2026-02-01T20:00:00.000Z', to: '2026-02-02T20:00:00.000Z' })],
      ['account, status and time', () => ({ accountId: accounts[1], status: 200, from: '2026-02-02T00:00:00.000Z' })],
    ];

    it.each(filters)('%s: the listing\'s rows, newest first, each once, whatever the page size', async (_name, filter) => {
      const expected = requestIds(expectedListing(rows, filter()));
      expect(expected.length).toBeGreaterThan(3);
      for (const pageSize of [1, 7, 1000]) {
        const { rows: read, pages } = await readAll(db, filter(), pageSize);
        expect({ pageSize, ids: requestIds(read) }).toEqual({ pageSize, ids: expected });
        // Full pages, then the empty one that ends the read.
        expect(pages).toBe(Math.ceil(expected.length / pageSize) + 1);
      }
      // The same rows as the listing, field for field.
      expect((await readAll(db, filter(), 50)).rows).toEqual((await db.storage.usageLog.query({ ...filter(), page: 1, perPage: 1000 })).rows);
    });
  });

  it('neither skips nor repeats rows of one time split across pages, and resumes from any cursor', async () => {
    const at = '2026-03-01T12:00:00.000Z';
    await db.storage.usageLog.insertBatch([
      usageEntry({ requestId: 'newer', createdAt: '2026-03-01T12:00:00.001Z' }),
      ...Array.from({ length: 23 }, (_, i) => usageEntry({ requestId: `same-${i}`, createdAt: at })),
      usageEntry({ requestId: 'older', createdAt: '2026-03-01T11:59:59.999Z' }),
    ]);
    const expected = ['newer', ...Array.from({ length: 23 }, (_, i) => `same-${22 - i}`), 'older'];
    for (const pageSize of [1, 4, 5, 23]) expect(requestIds((await readAll(db, {}, pageSize)).rows)).toEqual(expected);
    const all = (await readAll(db, {}, 100)).rows;
    const cursorAt = (index: number): UsageLogCursor => {
      const row = all.at(index);
      if (!row) throw new Error(`no row ${index}`);
      return { createdAt: row.createdAt, id: row.id };
    };
    expect(requestIds(await db.storage.usageLog.keysetPage({}, cursorAt(10), 100))).toEqual(expected.slice(11));
    expect(await db.storage.usageLog.keysetPage({}, cursorAt(-1), 100)).toEqual([]);
  });

  it.each([
    ['no filter', () => ({})],
    ['a token', () => ({ tokenId: tokens[0] })],
    ['an account and a time range', () => ({ accountId: accounts[0], from: '2026-02-01T00:00:00.000Z', to: '2026-02-02T00:00:00.000Z' })],
  ])('%s: a page resumes on an index, in its order (no scan, no sort of the matching rows)', async (_name, filter) => {
    const after = { createdAt: '2026-02-01T12:00:00.000Z', id: 500 };
    const plan = (
      backend.name === 'SQLite'
        ? await (async () => {
            const sql = sqliteKeysetSql(filter(), after, 1000);
            return db.explain(sql.sql, sql.params);
          })()
        : await (async () => {
            const sql = pgKeysetSql(filter(), after, 1000);
            return db.explain(sql.sql, sql.values);
          })()
    ).join('\n');
    if (process.env['SHOW_PLANS']) process.stdout.write(`\n--- ${backend.name} keyset ${_name}\n${plan}\n`);
    expect(plan).not.toMatch(backend.name === 'SQLite' ? /^SCAN usage_log$|TEMP B-TREE/m : /Seq Scan|Sort/);
    expect(plan).toMatch(backend.name === 'SQLite' ? /SEARCH usage_log USING/ : /Index\w* Scan/);
  });
}
