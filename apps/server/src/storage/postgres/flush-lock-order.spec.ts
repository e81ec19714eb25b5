import { usageEntry } from '../../../test/testing/system-api';
import { createAccount, createToken, openMoneyDb, type MoneyDb } from '../../../test/storage/suites/money-fixture';
import { TEST_DATABASE_URL } from '../../../test/storage/testing/store-backends';
import type { Storage } from '../types';

const describePg = TEST_DATABASE_URL ? describe : describe.skip;
if (!TEST_DATABASE_URL) process.stderr.write('PostgreSQL lock-order spec skipped: DATABASE_URL is not set\n');

/** `values` in an order of their own for each round: instances never agree on one by chance. */
const shuffled = <T>(values: readonly T[], round: number): T[] =>
  values.map((value, index) => ({ value, key: (index * 7919 + round * 104_729) % 1_009 })).sort((a, b) => a.key - b.key).map(({ value }) => value);

/** The SQLSTATE under a store error (StoreUnavailableError keeps the driver's error as its cause). */
const sqlStateOf = (error: unknown): string | undefined => {
  const cause = (error as { cause?: { code?: unknown } }).cause;
  const code = cause?.code ?? (error as { code?: unknown }).code;
  return typeof code === 'string' ? code : undefined;
};

describePg('two instances flushing usage on the same tokens at once (issue 26: deadlock detected in addToQuotaUsed)', () => {
  let db: MoneyDb;
  afterEach(() => db.close());

  it('a usage batch and a last-used touch of another instance, each over the same tokens in any order, never deadlock', async () => {
    db = await openMoneyDb('PostgreSQL');
    const accountId = await createAccount(db.sql, null);
    const tokens: number[] = [];
    for (let i = 0; i < 200; i += 1) tokens.push(await createToken(db.sql, accountId, null));
    const instances: Storage[] = [db.storage, await db.open('instance-b')];
    const failures: string[] = [];
    let flushes = 0;
    const until = Date.now() + 2_500;
    await Promise.all(
      instances.map(async (storage, instance) => {
        for (let round = instance; Date.now() < until; round += 2) {
          const order = shuffled(tokens, round);
          const at = new Date().toISOString();
          try {
            // What the recorder does after each batch: the rows (and their cost), then last_used_at.
            await storage.usageLog.insertBatch(order.map((tokenId) => usageEntry({ tokenId, accountId, cost: 1 })));
            await storage.tokens.touchLastUsed(new Map(shuffled(tokens, round + 1).map((tokenId) => [tokenId, at])));
            flushes += 1;
          } catch (error) {
            failures.push(sqlStateOf(error) ?? String(error));
          }
        }
      }),
    );
    const [sum] = await db.sql.all<{ used: number }>('SELECT SUM(quota_used) AS used FROM tokens');
    console.info(`flush lock order: ${flushes} flushes of ${tokens.length} tokens on two instances, ${failures.length} failed (${failures.join(', ') || 'none'})`);
    expect(failures).toEqual([]);
    expect(Number(sum?.used)).toBe(flushes * tokens.length);
  }, 20_000);
});
