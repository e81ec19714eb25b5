import Database from 'better-sqlite3';
import { migrate, migrations } from './migrations';
import { SqlitePriceStore } from './sqlite-price-store';

/** A database as version 14 left it — a price of its own with passthrough units — then migrated. */
function migratedFromVersion14(): Database.Database {
  const db = new Database(':memory:');
  db.pragma('foreign_keys = ON');
  db.exec('CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT, applied_at TEXT)');
  for (const migration of migrations.filter((step) => step.version <= 14)) {
    db.exec(migration.sql);
    db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)').run(migration.version, migration.name, 'then');
  }
  db.prepare('DELETE FROM prices').run();
  db.prepare(
    `INSERT INTO prices (position, model, input, output, cache_read, video_second_variants, tool_calls, audio_output)
     VALUES (1, 'house-*', 7, 9, 3, '{"1280x720":5}', '{"web_search":10}', 11)`,
  ).run();
  // Every later version too: each helper adding one need not touch this spec.
  expect(migrate(db)).toEqual(migrations.filter((step) => step.version >= 15).map((step) => step.version));
  return db;
}

describe('migration 15: prices carry only the units that apply, free on purpose; the price of each log row', () => {
  it('keeps every price as it was, seeds the free moderation entries, and takes an entry without token prices', async () => {
    const db = migratedFromVersion14();
    const prices = new SqlitePriceStore(db);
    expect(await prices.list()).toStrictEqual([
      { model: 'house-*', input: 7, output: 9, cacheRead: 3, cacheWrite: null, videoSecondVariants: { '1280x720': 5 }, toolCalls: { web_search: 10 }, audioOutput: 11 },
      { model: 'omni-moderation-*', input: null, output: null, cacheRead: null, cacheWrite: null, free: true },
      { model: 'text-moderation-*', input: null, output: null, cacheRead: null, cacheWrite: null, free: true },
    ]);
    await prices.replace([{ model: 'sora-2', input: null, output: null, cacheRead: null, cacheWrite: null, videoSecond: 100_000 }]);
    expect(await prices.list()).toStrictEqual([{ model: 'sora-2', input: null, output: null, cacheRead: null, cacheWrite: null, videoSecond: 100_000 }]);
    const columns = db.prepare("SELECT name FROM pragma_table_info('usage_log')").all() as Array<{ name: string }>;
    expect(columns.map((column) => column.name)).toContain('priced_by');
    db.close();
  });
});
