import type Database from 'better-sqlite3';
import type { QuotaReservation, QuotaStore, ReleasedReservations, ReserveOutcome, WindowKey, WindowRefusal, WindowUsage } from '../types';
import { SQLITE_CODEC } from '../rows/codec';
import { compareWindowKeys, neededIn, storedWindowKey, WindowDeltas, windowKeysOf, windowRefusal } from '../rows/quota-window-row';
import { SqliteQuotaWindows } from './sqlite-quota-windows';

interface ReserveValues {
  amount: number;
  id: number;
  needed: number;
}

/**
 * Reservations are conditional UPDATEs inside one transaction: SQLite runs them one at a time,
 * so "the reservation fits" and "take it" cannot interleave between requests. The same
 * transaction records the reservation with this instance's id, so a process killed before
 * settling it leaves a row that is given back: everything at the next start when the database
 * is its alone (`releaseReservations`), else once its heartbeat is stale (`releaseOrphaned`) —
 * except what a task holds (`TaskStore.create`), which waits for the task to settle. Periodic
 * windows (issue 32) are checked and counted in the same transaction, after the token and the
 * account (the lock order of every backend: tokens, accounts, windows by key).
 */
export class SqliteQuotaStore implements QuotaStore {
  private readonly reserveToken: Database.Statement<[ReserveValues]>;
  private readonly reserveAccount: Database.Statement<[ReserveValues]>;
  private readonly record: Database.Statement<[string, number, number, number, string, string, string | null, number]>;
  private readonly windows: SqliteQuotaWindows;
  private readonly run: (reservation: QuotaReservation) => ReserveOutcome;
  private readonly release: (before: string) => ReleasedReservations;
  private readonly orphaned: (staleBefore: string) => ReleasedReservations;
  private readonly retired: () => ReleasedReservations;
  private readonly beat: Database.Statement<[string, string]>;

  constructor(db: Database.Database, private readonly instanceId: string) {
    this.windows = new SqliteQuotaWindows(db);
    // `needed` is the amount but at least 1: a limit already reached admits nothing, not even
    // a request that costs nothing (the token shows "exhausted").
    this.reserveToken = db.prepare(
      'UPDATE tokens SET quota_used = quota_used + @amount WHERE id = @id AND (quota_limit IS NULL OR quota_used + @needed <= quota_limit)',
    );
    this.reserveAccount = db.prepare(
      'UPDATE accounts SET quota_used = quota_used + @amount WHERE id = @id AND (quota_limit IS NULL OR quota_used + @needed <= quota_limit)',
    );
    this.record = db.prepare(
      `INSERT INTO quota_reservations (request_id, token_id, account_id, amount, created_at, instance_id, windows, tokens)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.run = db.transaction((reservation: QuotaReservation): ReserveOutcome => {
      const { amount } = reservation;
      const needed = Math.max(amount, 1);
      // The token's UPDATE comes first: from it on the transaction holds the write lock, so the
      // windows read below cannot change before they are counted in.
      if (this.reserveToken.run({ amount, id: reservation.tokenId, needed }).changes === 0) {
        return { ok: false, exhausted: 'token' };
      }
      if (this.reserveAccount.run({ amount, id: reservation.accountId, needed }).changes === 0) {
        // Throwing rolls the token's reservation back with the transaction.
        throw new AccountExhausted();
      }
      const windows = [...(reservation.windows ?? [])].sort(compareWindowKeys);
      const tokens = Math.max(0, Math.floor(reservation.tokens ?? 0));
      const wanted = neededIn(amount, tokens);
      for (const window of windows) {
        const refusal = windowRefusal(window, this.windows.read(window), wanted);
        // Everything taken so far goes back with the transaction.
        if (refusal) throw new WindowExhausted(refusal);
      }
      for (const window of windows) this.windows.take(window, { cost: amount, requests: 1, tokens });
      // Nothing to give back for a free request without windows: no row. With windows there is:
      // its request (and tokens) counted in them.
      if (amount > 0 || windows.length > 0) {
        this.record.run(
          reservation.requestId,
          reservation.tokenId,
          reservation.accountId,
          amount,
          new Date().toISOString(),
          this.instanceId,
          windows.length > 0 ? JSON.stringify(windows.map(storedWindowKey)) : null,
          windows.length > 0 ? tokens : 0,
        );
      }
      return { ok: true };
    });

    this.release = this.giveBack(db, 'r.created_at < :before');
    this.orphaned = this.giveBack(
      db,
      `r.instance_id IS NULL OR (r.instance_id <> :me AND NOT EXISTS
         (SELECT 1 FROM relay_instances i WHERE i.instance_id = r.instance_id AND i.heartbeat_at >= :before))`,
      'DELETE FROM relay_instances WHERE heartbeat_at < :before AND instance_id <> :me',
    );
    const ownLeftovers = this.giveBack(db, 'r.instance_id = :me', 'DELETE FROM relay_instances WHERE instance_id = :me');
    this.retired = () => ownLeftovers('');
    this.beat = db.prepare(
      'INSERT INTO relay_instances (instance_id, heartbeat_at) VALUES (?, ?) ON CONFLICT (instance_id) DO UPDATE SET heartbeat_at = excluded.heartbeat_at',
    );
  }

  /**
   * A transaction that gives back the reservations matching `which` (over `r`, with `:before`
   * and `:me` bound) to their tokens and accounts — never below 0 — forgets them, then runs
   * `andThen`. Settling (`insertBatch`) deletes a reservation in a transaction too, so each is
   * either settled or given back, once. A task's reservation is never among them: it outlives
   * the process that took it and is settled by the task alone (`TaskStore.settle`).
   */
  private giveBack(db: Database.Database, matching: string, andThen?: string): (before: string) => ReleasedReservations {
    const which = `r.task_id IS NULL AND (${matching})`;
    const pending = `FROM quota_reservations r WHERE (${which})`;
    const total = db.prepare(`SELECT COUNT(*) AS count, COALESCE(SUM(amount), 0) AS amount ${pending}`);
    const releaseTokens = db.prepare(
      `UPDATE tokens SET quota_used = MAX(0, quota_used - (SELECT SUM(amount) ${pending} AND r.token_id = tokens.id))
       WHERE id IN (SELECT token_id ${pending})`,
    );
    const releaseAccounts = db.prepare(
      `UPDATE accounts SET quota_used = MAX(0, quota_used - (SELECT SUM(amount) ${pending} AND r.account_id = accounts.id))
       WHERE id IN (SELECT account_id ${pending})`,
    );
    const withWindows = db.prepare(`SELECT amount, tokens, windows ${pending} AND r.windows IS NOT NULL`);
    const forget = db.prepare(`DELETE FROM quota_reservations AS r WHERE ${which}`);
    const after = andThen === undefined ? undefined : db.prepare(andThen);
    // Bound only where the statement names them: better-sqlite3 refuses unused named parameters.
    const bind = (sql: string, before: string) => ({
      ...(sql.includes(':before') ? { before } : {}),
      ...(sql.includes(':me') ? { me: this.instanceId } : {}),
    });
    return db.transaction((before: string): ReleasedReservations => {
      const values = bind(pending, before);
      const released = total.get(values) as ReleasedReservations;
      if (released.count > 0) {
        const windowsBack = new WindowDeltas();
        for (const row of withWindows.all(values) as Array<{ amount: number; tokens: number; windows: string }>) {
          for (const key of windowKeysOf(row.windows, SQLITE_CODEC)) windowsBack.add(key, { cost: -row.amount, requests: -1, tokens: -row.tokens });
        }
        releaseTokens.run(values);
        releaseAccounts.run(values);
        this.windows.apply(windowsBack);
        forget.run(values);
      }
      if (after && andThen) after.run(bind(andThen, before));
      return released;
    });
  }

  async reserve(reservation: QuotaReservation): Promise<ReserveOutcome> {
    try {
      return this.run(reservation);
    } catch (error) {
      if (error instanceof AccountExhausted) return { ok: false, exhausted: 'account' };
      if (error instanceof WindowExhausted) return { ok: false, exhausted: 'window', ...error.refusal };
      throw error;
    }
  }

  async windowUsage(keys: readonly WindowKey[]): Promise<WindowUsage[]> {
    return this.windows.usage(keys);
  }

  async releaseReservations(before: string): Promise<ReleasedReservations> {
    return this.release(before);
  }

  async heartbeat(now: string): Promise<void> {
    this.beat.run(this.instanceId, now);
  }

  async releaseOrphaned(staleBefore: string): Promise<ReleasedReservations> {
    return this.orphaned(staleBefore);
  }

  async retire(): Promise<ReleasedReservations> {
    return this.retired();
  }
}

class AccountExhausted extends Error {}

class WindowExhausted extends Error {
  constructor(readonly refusal: WindowRefusal) {
    super('window exhausted');
  }
}
