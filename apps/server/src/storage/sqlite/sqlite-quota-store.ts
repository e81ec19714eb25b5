import type Database from 'better-sqlite3';
import type { QuotaReservation, QuotaStore, ReserveOutcome } from '../types';

/**
 * Reservations are conditional UPDATEs inside one transaction: SQLite runs them one at a time,
 * so "has quota left" and "take the reservation" cannot interleave between requests.
 */
export class SqliteQuotaStore implements QuotaStore {
  private readonly reserveToken: Database.Statement<[number, number]>;
  private readonly reserveAccount: Database.Statement<[number, number]>;
  private readonly run: (reservation: QuotaReservation) => ReserveOutcome;

  constructor(db: Database.Database) {
    this.reserveToken = db.prepare(
      'UPDATE tokens SET quota_used = quota_used + ? WHERE id = ? AND (quota_limit IS NULL OR quota_used < quota_limit)',
    );
    this.reserveAccount = db.prepare(
      'UPDATE accounts SET quota_used = quota_used + ? WHERE id = ? AND (quota_limit IS NULL OR quota_used < quota_limit)',
    );
    this.run = db.transaction((reservation: QuotaReservation): ReserveOutcome => {
      if (this.reserveToken.run(reservation.amount, reservation.tokenId).changes === 0) {
        return { ok: false, exhausted: 'token' };
      }
      if (this.reserveAccount.run(reservation.amount, reservation.accountId).changes === 0) {
        // Throwing rolls the token's reservation back with the transaction.
        throw new AccountExhausted();
      }
      return { ok: true };
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
}

class AccountExhausted extends Error {}
