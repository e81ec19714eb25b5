import type Database from 'better-sqlite3';
import type { WindowKey, WindowUsage } from '../limit-types';
import type { WindowDeltas } from '../rows/quota-window-row';

type KeyValues = { owner: string; ownerId: number; period: string; start: string };
const keyValues = (key: WindowKey): KeyValues => ({ owner: key.owner, ownerId: key.ownerId, period: key.period, start: key.start });
const KEY_MATCHES = 'owner = @owner AND owner_id = @ownerId AND period = @period AND start = @start';

/**
 * The `quota_windows` statements the quota store and the usage writer share, always run inside
 * their transactions: SQLite runs those one at a time (processes on the same file included),
 * so reading a window, checking it and counting in it cannot interleave with another's.
 */
export class SqliteQuotaWindows {
  private readonly readOne: Database.Statement<[KeyValues], WindowUsage>;
  private readonly count: Database.Statement<[KeyValues & WindowUsage]>;
  private readonly change: Database.Statement<[KeyValues & WindowUsage]>;
  private readonly readMany: Database.Statement<[string], WindowUsage>;

  constructor(db: Database.Database) {
    this.readOne = db.prepare(`SELECT cost, requests, tokens FROM quota_windows WHERE ${KEY_MATCHES}`);
    this.count = db.prepare(
      `INSERT INTO quota_windows (owner, owner_id, period, start, cost, requests, tokens)
       VALUES (@owner, @ownerId, @period, @start, @cost, @requests, @tokens)
       ON CONFLICT (owner, owner_id, period, start) DO UPDATE SET
         cost = cost + excluded.cost, requests = requests + excluded.requests, tokens = tokens + excluded.tokens`,
    );
    // Settlement and give-back: never below 0 (an admin may have cleared a window meanwhile), and
    // within 2^53 so the columns stay exact JavaScript numbers. A window gone is left gone.
    const kept = (column: string) => `MIN(${Number.MAX_SAFE_INTEGER}, MAX(0, ${column} + @${column}))`;
    this.change = db.prepare(
      `UPDATE quota_windows SET cost = ${kept('cost')}, requests = ${kept('requests')}, tokens = ${kept('tokens')} WHERE ${KEY_MATCHES}`,
    );
    // One statement for any number of keys, in the order asked, zeros where nothing counted yet.
    this.readMany = db.prepare(
      `SELECT COALESCE(w.cost, 0) AS cost, COALESCE(w.requests, 0) AS requests, COALESCE(w.tokens, 0) AS tokens
       FROM json_each(?) AS k
       LEFT JOIN quota_windows w ON w.owner = k.value ->> 0 AND w.owner_id = k.value ->> 1 AND w.period = k.value ->> 2
         AND w.start = k.value ->> 3
       ORDER BY k.key`,
    );
  }

  /** What the window has counted; zeros when nothing yet. */
  read(key: WindowKey): WindowUsage {
    return this.readOne.get(keyValues(key)) ?? { cost: 0, requests: 0, tokens: 0 };
  }

  /** Counts `usage` in the window, created when new. */
  take(key: WindowKey, usage: WindowUsage): void {
    this.count.run({ ...keyValues(key), ...usage });
  }

  /** Adds each change (either sign) to its window, in lock order. */
  apply(deltas: WindowDeltas): void {
    for (const { key, ...delta } of deltas.sorted()) this.change.run({ ...keyValues(key), ...delta });
  }

  usage(keys: readonly WindowKey[]): WindowUsage[] {
    if (keys.length === 0) return [];
    return this.readMany.all(JSON.stringify(keys.map((key) => [key.owner, key.ownerId, key.period, key.start])));
  }
}
