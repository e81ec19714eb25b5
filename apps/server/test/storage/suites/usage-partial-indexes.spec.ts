import { pgListingSql } from '../../../src/storage/postgres/pg-usage-queries';
import { sqliteListingSql } from '../../../src/storage/sqlite/sqlite-usage-queries';
import { describeEachBackend } from '../testing/store-backends';
import { createAccount, createToken, openMoneyDb, type MoneyDb } from './money-fixture';
import { sampleRows } from './usage-sample';

// Each test opens its own database (on PostgreSQL a schema, migrated): seconds when the machine is busy.
jest.setTimeout(30_000);

/**
 * Issue 30: a usage row with no account or no assistant — most rows — is left out of those two
 * indexes (SQLite migration 20, PostgreSQL 13), and what filters by either still reads through
 * its index and finds the same rows.
 */
describeEachBackend('the usage log indexes accounts and assistants only where a row names one', (backend) => {
  let db: MoneyDb;
  let accountId: number;
  beforeEach(async () => {
    db = await openMoneyDb(backend.name);
    accountId = await createAccount(db.sql, null);
    const tokenId = await createToken(db.sql, accountId, null);
    // Rows with and without an account; every seventh names an assistant.
    const rows = sampleRows(400, { tokens: [tokenId], accounts: [accountId] }, 11).map((row, i) => ({ ...row, assistantId: i % 7 === 0 ? 'g-partial' : null }));
    await db.storage.usageLog.insertBatch(rows);
    if (backend.name === 'PostgreSQL') await db.sql.run('ANALYZE usage_log');
  });
  afterEach(() => db.close());

  const definitionOf = async (name: string): Promise<string> => {
    const sql =
      backend.name === 'SQLite'
        ? 'SELECT sql AS definition FROM sqlite_master WHERE name = ?'
        : 'SELECT indexdef AS definition FROM pg_indexes WHERE indexname = ? AND schemaname = current_schema()';
    const [row] = await db.sql.all<{ definition: string }>(sql, [name]);
    return row?.definition ?? '';
  };

  it.each([
    ['usage_log_account', 'account_id'],
    ['usage_log_assistant', 'assistant_id'],
  ])('%s is partial: only rows whose %s is set', async (index, column) => {
    expect(await definitionOf(index)).toMatch(new RegExp(`WHERE \\(?${column} IS NOT NULL\\)?`));
  });

  it('an account filter still reads through usage_log_account and finds only that account’s rows', async () => {
    const query = { accountId, page: 1, perPage: 500 };
    const listing = backend.name === 'SQLite' ? sqliteListingSql(query) : pgListingSql(query);
    const plan = await db.explain(listing.rows, 'params' in listing ? listing.params : listing.pageValues);
    expect(plan.join('\n')).toMatch(/usage_log_account/);
    const [{ n } = { n: -1 }] = await db.sql.all<{ n: number | string }>('SELECT COUNT(*) AS n FROM usage_log WHERE account_id IS NOT NULL');
    const listed = await db.storage.usageLog.query(query);
    expect(listed.total).toBe(Number(n));
    expect(listed.rows.every((row) => row.accountId === accountId)).toBe(true);
  });

  it('a filter by assistant reads through usage_log_assistant and finds every row that names it', async () => {
    const plan =
      backend.name === 'SQLite'
        ? await db.explain('SELECT COUNT(*) FROM usage_log WHERE assistant_id = :id AND created_at >= :since', { id: 'g-partial', since: '2026-01-01T00:00:00.000Z' })
        : await db.explain('SELECT COUNT(*) FROM usage_log WHERE assistant_id = $1 AND created_at >= $2::timestamptz', ['g-partial', '2026-01-01T00:00:00.000Z']);
    expect(plan.join('\n')).toMatch(/usage_log_assistant/);
    const [{ n } = { n: -1 }] = await db.sql.all<{ n: number | string }>("SELECT COUNT(*) AS n FROM usage_log WHERE assistant_id = 'g-partial'");
    expect(Number(n)).toBe(Math.ceil(400 / 7));
  });
});
