import type Database from 'better-sqlite3';
import type { QuotaReservation, QuotaStore, ReleasedReservations, ReserveOutcome } from '../types';

interface ReserveValues {
  amount: number;
  id: number;
  needed: number;
}

/**
 * Reservations are conditional UPDATEs inside one transaction: SQLite runs them one at a time,
 * so "the reservation fits" and "take it" cannot interleave between requests. The same
 * transaction records the reservation, so a process killed before settling it leaves a row
 * that the next start gives back (`releaseReservations`).
 */
export class SqliteQuotaStore implements QuotaStore {
  private readonly reserveToken: Database.Statement<[ReserveValues]>;
  private readonly reserveAccount: Database.Statement<[ReserveValues]>;
  private readonly record: Database.Statement<[string, number, number, number, string]>;
  private readonly run: (reservation: QuotaReservation) => ReserveOutcome;
  private readonly release: (before: string) => ReleasedReservations;

  constructor(db: Database.Database, private readonly instanceId: string) {
    // `needed` is the amount but at least 1: a limit already reached admits nothing, not even
    // a request that costs nothing (the token shows "exhausted").
    this.reserveToken = db.prepare(
      'UPDATE tokens SET quota_used = quota_used + @amount WHERE id = @id AND (quota_limit IS NULL OR quota_used + @needed <= quota_limit)',
    );
    this.reserveAccount = db.prepare(
      'UPDATE accounts SET quota_used = quota_used + @amount WHERE id = @id AND (quota_limit IS NULL OR quota_used + @needed <= quota_limit)',
    );
    this.record = db.prepare(
      'INSERT INTO quota_reservations (request_id, token_id, account_id, amount, created_at) VALUES (?, ?, ?, ?, ?)',
    );
    this.run = db.transaction((reservation: QuotaReservation): ReserveOutcome => {
      const { amount } = reservation;
      const needed = Math.max(amount, 1);
      if (this.reserveToken.run({ amount, id: reservation.tokenId, needed }).changes === 0) {
        return { ok: false, exhausted: 'token' };
      }
      if (this.reserveAccount.run({ amount, id: reservation.accountId, needed }).changes === 0) {
        // Throwing rolls the token's reservation back with the transaction.
        throw new AccountExhausted();
      }
      // Nothing to give back for a free request: no row.
      if (amount > 0) {
        this.record.run(reservation.requestId, reservation.tokenId, reservation.accountId, amount, new Date().toISOString());
      }
      return { ok: true };
    });

    const pending = 'FROM quota_reservations r WHERE r.created_at < :before';
    const total = db.prepare(`SELECT COUNT(*) AS count, COALESCE(SUM(amount), 0) AS amount ${pending}`);
    const releaseTokens = db.prepare(
      `UPDATE tokens SET quota_used = MAX(0, quota_used - (SELECT SUM(amount) ${pending} AND r.token_id = tokens.id))
       WHERE id IN (SELECT token_id ${pending})`,
    );
    const releaseAccounts = db.prepare(
      `UPDATE accounts SET quota_used = MAX(0, quota_used - (SELECT SUM(amount) ${pending} AND r.account_id = accounts.id))
       WHERE id IN (SELECT account_id ${pending})`,
    );
    const forget = db.prepare('DELETE FROM quota_reservations WHERE created_at < :before');
    this.release = db.transaction((before: string): ReleasedReservations => {
      const released = total.get({ before }) as ReleasedReservations;
      if (released.count === 0) return released;
      releaseTokens.run({ before });
      releaseAccounts.run({ before });
      forget.run({ before });
      return released;
    });
  }

  async reserve(reservation: QuotaReservation): Promise<ReserveOutcome> {
    try {
      return this.run(reservation);
    } catch (error) {
      if (error instanceof AccountExhausted) return { ok: false, exhausted: 'account' };
      throw error;
    }
  }

  async releaseReservations(before: string): Promise<ReleasedReservations> {
    return this.release(before);
  }

  // Issue 15 scaffolding: written with migration 9 (reservations carry the instance's id).
  async heartbeat(_now: string): Promise<void> {
    throw new Error(`heartbeat of ${this.instanceId}: not written yet`);
  }

  async releaseOrphaned(_staleBefore: string): Promise<ReleasedReservations> {
    throw new Error('releaseOrphaned: not written yet');
  }

  async retire(): Promise<ReleasedReservations> {
    throw new Error('retire: not written yet');
  }
}

class AccountExhausted extends Error {}
