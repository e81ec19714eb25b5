import type pg from 'pg';
import type { QuotaReservation } from '../types';
import { fenceSession, type SessionDoubt } from './pg-doubt';
import { inTransaction } from './pg-pool';
import { giveBack } from './pg-quota-used';

/** A reservation whose statement went unanswered: it may have been taken, or be taken yet. */
export interface DoubtfulReservation extends SessionDoubt {
  reservation: QuotaReservation;
  /** The `created_at` it was sent with: with the instance and request, what names its row. */
  at: string;
}

const FIRST_TRY_MS = 200;
const LONGEST_WAIT_MS = 5_000;
/** Doubts kept at most; past it (a very long outage under load) the instance's restart or retirement gives the rest back. */
const MAX_DOUBTS = 10_000;

/**
 * The reservations this instance asked for without learning whether they were taken (the
 * connection dropped, or went silent, under `relay_reserve`). The request was answered 503 and
 * settles nothing, so a reservation that was taken would hold quota until the instance stops.
 * Each is undone once the server answers again: its old session fenced (nothing held up in the
 * network can land after), then its row — if it was ever taken — given back, exactly once.
 */
export class DoubtfulReservations {
  private doubts: DoubtfulReservation[] = [];
  private timer: NodeJS.Timeout | undefined;
  private waitMs = FIRST_TRY_MS;

  constructor(
    private readonly pool: pg.Pool,
    private readonly instanceId: string,
  ) {}

  add(doubt: DoubtfulReservation): void {
    if (this.doubts.length >= MAX_DOUBTS) return;
    this.doubts.push(doubt);
    this.waitMs = FIRST_TRY_MS;
    this.schedule();
  }

  get size(): number {
    return this.doubts.length;
  }

  /** Undoes what it can now; what the server cannot be asked about yet stays for the next try. */
  async resolve(): Promise<void> {
    const pending = this.doubts;
    this.doubts = [];
    const fenced = new Set<number>();
    for (const [index, doubt] of pending.entries()) {
      try {
        if (!fenced.has(doubt.backendPid)) await fenceSession(this.pool, doubt.backendPid);
        fenced.add(doubt.backendPid);
        await inTransaction(this.pool, (client) =>
          giveBack(client, 'r.request_id = $1 AND r.token_id = $2 AND r.amount = $3 AND r.instance_id = $4 AND r.created_at = $5::timestamptz', [
            doubt.reservation.requestId,
            doubt.reservation.tokenId,
            doubt.reservation.amount,
            this.instanceId,
            doubt.at,
          ]),
        );
      } catch {
        this.doubts.push(...pending.slice(index));
        return;
      }
    }
  }

  /** Stops trying (the instance retires: its reservations are given back whole). */
  stop(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.doubts = [];
  }

  private schedule(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      if (this.pool.ending || this.pool.ended) return this.stop();
      void this.resolve().then(() => {
        if (this.doubts.length === 0) return;
        this.waitMs = Math.min(LONGEST_WAIT_MS, this.waitMs * 2);
        this.schedule();
      });
    }, this.waitMs);
    this.timer.unref();
  }
}
