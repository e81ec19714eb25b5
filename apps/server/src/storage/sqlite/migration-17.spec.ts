import Database from 'better-sqlite3';
import { migrate, migrations } from './migrations';
import { SqliteAccountStore } from './sqlite-account-store';
import { SqliteQuotaStore } from './sqlite-quota-store';
import { SqliteTokenStore } from './sqlite-token-store';

/** A database as version 16 left it — an account, its token with quota used, a reservation pending — then migrated. */
function migratedFromVersion16(): Database.Database {
  const db = new Database(':memory:');
  db.pragma('foreign_keys = ON');
  db.exec('CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT, applied_at TEXT)');
  for (const migration of migrations.filter((step) => step.version <= 16)) {
    db.exec(migration.sql);
    db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)').run(migration.version, migration.name, 'then');
  }
  const now = '2026-01-01T00:00:00.000Z';
  db.prepare("INSERT INTO accounts (id, name, role, quota_limit, quota_used, created_at) VALUES (1, 'team', 'user', 5000, 700, ?)").run(now);
  db.prepare(
    `INSERT INTO tokens (id, account_id, name, key_digest, key_hint, quota_limit, quota_used, models, created_at)
     VALUES (1, 1, 'alice', 'digest-alice', 'sk-…alic', 1000, 700, '["gpt-4o"]', ?)`,
  ).run(now);
  db.prepare(
    "INSERT INTO quota_reservations (request_id, token_id, account_id, amount, created_at, instance_id) VALUES ('pending', 1, 1, 200, ?, 'gone')",
  ).run(now);
  expect(migrate(db)).toContain(17);
  return db;
}

describe('migration 17: periodic limits, the windows they count in', () => {
  it('keeps tokens, accounts and pending reservations as they were, with no limits and the relay defaults', async () => {
    const db = migratedFromVersion16();
    const token = await new SqliteTokenStore(db).findByKeyDigest('digest-alice');
    expect(token).toMatchObject({
      id: 1,
      name: 'alice',
      quotaLimit: 1000,
      quotaUsed: 700,
      models: ['gpt-4o'],
      periodicLimits: [],
      timeZone: null,
      alertThresholds: null,
      account: { status: 'active', quotaLimit: 5000, periodicLimits: [], timeZone: null },
    });
    expect(await new SqliteAccountStore(db).get(1)).toMatchObject({ quotaUsed: 700, periodicLimits: [], timeZone: null, alertThresholds: null });
    // The reservation from before counted in no window: given back to the lifetime quota alone.
    expect(await new SqliteQuotaStore(db, 'here').releaseReservations('2027-01-01T00:00:00.000Z')).toEqual({ count: 1, amount: 200 });
    expect(db.prepare('SELECT quota_used FROM tokens WHERE id = 1').get()).toEqual({ quota_used: 500 });
    expect(db.prepare('SELECT COUNT(*) AS n FROM quota_windows').get()).toEqual({ n: 0 });
    db.close();
  });

  it('reads limits written by hand defensively: a limit that does not parse is left out, thresholds that do not parse are the default', async () => {
    const db = migratedFromVersion16();
    db.prepare(
      `UPDATE tokens SET periodic_limits = '[{"period":"day","metric":"cost","limit":100},{"period":"year","metric":"cost","limit":1},{"limit":-5}]',
         alert_thresholds = '"eighty"', time_zone = ''`,
    ).run();
    db.prepare("UPDATE accounts SET periodic_limits = 'not json'").run();
    const token = await new SqliteTokenStore(db).get(1);
    expect(token).toMatchObject({ periodicLimits: [{ period: 'day', metric: 'cost', limit: 100 }], alertThresholds: null, timeZone: null });
    expect((await new SqliteAccountStore(db).get(1))?.periodicLimits).toEqual([]);
    db.close();
  });
});
