import Database from 'better-sqlite3';
import { usageEntry } from '../../../test/testing/system-api';
import { migrate, migrations } from './migrations';
import { SqlitePriceStore } from './sqlite-price-store';
import { SqliteUsageLogStore } from './sqlite-usage-log-store';

/**
 * A database as version 5 left it — a usage row, the seeded prices with one of them edited and
 * one of the admin's own — then migrated.
 */
function migratedFromVersion5(): Database.Database {
  const db = new Database(':memory:');
  db.exec('CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT, applied_at TEXT)');
  for (const migration of migrations.filter((step) => step.version <= 5)) {
    db.exec(migration.sql);
    db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)').run(migration.version, migration.name, 'then');
  }
  db.prepare(
    `INSERT INTO usage_log (created_at, request_id, token_id, account_id, requested_model, upstream_model, channel_id, assistant_id,
       stream, status, error_code, prompt_tokens, completion_tokens, usage_estimated, cost, latency_ms, ttfb_ms, client_ip, attempts)
     VALUES ('2026-01-01T00:00:00.000Z', 'old', 1, 1, 'claude-sonnet-4-5', 'claude-sonnet-4-5', 1, NULL, 0, 200, NULL, 1200, 30, 0, 4050, 10, 5, NULL, 1)`,
  ).run();
  db.prepare("UPDATE prices SET input = 2000000 WHERE model = 'claude-haiku-4-5*'").run();
  db.prepare("INSERT INTO prices (position, model, input, output) VALUES (99, 'house-model', 7, 8)").run();
  expect(migrate(db)[0]).toBe(6);
  return db;
}

describe('migration 6: prompt cache prices and token counts', () => {
  it('reads rows written before it with no cache reads or writes, and sums them so', async () => {
    const db = migratedFromVersion5();
    const usageLog = new SqliteUsageLogStore(db);
    const [old] = await usageLog.recent(1);
    expect(old).toMatchObject({ requestId: 'old', promptTokens: 1200, completionTokens: 30, cacheReadTokens: 0, cacheWriteTokens: 0, cost: 4050 });
    await usageLog.insertBatch([
      usageEntry({ tokenId: 1, accountId: 1, createdAt: '2026-01-01T01:00:00.000Z', requestedModel: 'claude-sonnet-4-5', promptTokens: 1000, cacheReadTokens: 600, cacheWriteTokens: 300 }),
    ]);
    expect((await usageLog.recent(1))[0]).toMatchObject({ promptTokens: 1000, cacheReadTokens: 600, cacheWriteTokens: 300 });
    expect(await usageLog.aggregate({ tokenId: 1 }, '2026-01-01T00:00:00.000Z', '2026-01-02T00:00:00.000Z', 'model')).toEqual([
      { key: 'claude-sonnet-4-5', requests: 2, promptTokens: 2200, completionTokens: 30, cacheReadTokens: 600, cacheWriteTokens: 300, cost: 4050 },
    ]);
    db.close();
  });

  it('gives the seeded models their list cache prices, and leaves rows the admin changed or added to follow input', async () => {
    const db = migratedFromVersion5();
    const prices = new Map((await new SqlitePriceStore(db).list()).map((price) => [price.model, price]));
    expect(prices.get('claude-sonnet-4*')).toEqual({ model: 'claude-sonnet-4*', input: 3_000_000, output: 15_000_000, cacheRead: 300_000, cacheWrite: 3_750_000 });
    expect(prices.get('gpt-4o*')).toEqual({ model: 'gpt-4o*', input: 2_500_000, output: 10_000_000, cacheRead: 1_250_000, cacheWrite: null });
    expect(prices.get('claude-haiku-4-5*')).toMatchObject({ input: 2_000_000, cacheRead: null, cacheWrite: null });
    expect(prices.get('house-model')).toMatchObject({ cacheRead: null, cacheWrite: null });
    // No seeded price is cheaper to write than to send, nor dearer to read (the free entries of migration 15 have none).
    for (const price of [...prices.values()].filter((entry) => !entry.free)) {
      expect(price.cacheRead ?? price.input).toBeLessThanOrEqual(price.input ?? 0);
      expect(price.cacheWrite ?? price.input).toBeGreaterThanOrEqual(price.input ?? 0);
    }
    db.close();
  });
});
