import type pg from 'pg';
import { LimitMetricSchema } from '@chat-relay/contract';
import type { QuotaReservation, QuotaStore, ReleasedReservations, ReserveOutcome, WindowKey, WindowReservation, WindowUsage } from '../types';
import { compareWindowKeys, storedWindowKey } from '../rows/quota-window-row';
import { backendPidOf, outcomeUnknown } from './pg-doubt';
import { giveBack } from './pg-quota-used';
import { inTransaction, withClient } from './pg-pool';
import { DoubtfulReservations } from './pg-reservation-doubts';

/**
 * Quota on a database several instances share. A reservation is one round trip to
 * `relay_reserve` (schema v10): conditional UPDATEs of the token and its account, then the
 * periodic windows locked and checked in key order, whose row locks make instances reserving at
 * once take turns, so together they never pass a limit. Each
 * reservation is recorded with this instance's id; what a dead instance held is given back by
 * the others once its heartbeat is stale — except what a task holds (`TaskStore.create`), which
 * waits for the task to settle, whichever instance settles it. A reservation whose answer was
 * lost with its connection is undone once the server answers again (DoubtfulReservations).
 */
export class PgQuotaStore implements QuotaStore {
  private readonly doubts: DoubtfulReservations;

  constructor(
    private readonly pool: pg.Pool,
    private readonly instanceId: string,
  ) {
    this.doubts = new DoubtfulReservations(pool, instanceId);
  }

  async reserve(reservation: QuotaReservation): Promise<ReserveOutcome> {
    const at = new Date().toISOString();
    const windows = [...(reservation.windows ?? [])].sort(compareWindowKeys);
    let backendPid: number | undefined;
    let rows: Array<{ outcome: string }>;
    try {
      ({ rows } = await withClient(this.pool, (client) => {
        backendPid = backendPidOf(client);
        return client.query<{ outcome: string }>(
          'SELECT relay_reserve($1, $2::integer, $3::integer, $4::bigint, $5, $6::timestamptz, $7::jsonb, $8::bigint) AS outcome',
          [
            reservation.requestId,
            reservation.tokenId,
            reservation.accountId,
            reservation.amount,
            this.instanceId,
            at,
            JSON.stringify(windows.map((window) => ({ ...storedWindowKey(window), limits: window.limits }))),
            Math.max(0, Math.floor(reservation.tokens ?? 0)),
          ],
        );
      }));
    } catch (error) {
      // Sent, but unanswered: it may have been taken. The caller is refused (503) and settles nothing.
      if (backendPid !== undefined && outcomeUnknown(error)) this.doubts.add({ backendPid, reservation, at });
      throw error;
    }
    const outcome = rows[0]?.outcome;
    if (outcome === 'ok') return { ok: true };
    if (outcome === 'token' || outcome === 'account') return { ok: false, exhausted: outcome };
    const refused = outcome === undefined ? undefined : windowRefusalOf(outcome, windows);
    if (refused) return refused;
    throw new Error(`relay_reserve answered ${JSON.stringify(outcome)}`);
  }

  async windowUsage(keys: readonly WindowKey[]): Promise<WindowUsage[]> {
    if (keys.length === 0) return [];
    const { rows } = await this.pool.query<WindowUsage>(
      `SELECT COALESCE(w.cost, 0) AS cost, COALESCE(w.requests, 0) AS requests, COALESCE(w.tokens, 0) AS tokens
       FROM unnest($1::text[], $2::integer[], $3::text[], $4::text[]) WITH ORDINALITY AS k(owner, owner_id, period, start, n)
       LEFT JOIN quota_windows w ON w.owner = k.owner AND w.owner_id = k.owner_id AND w.period = k.period AND w.start = k.start
       ORDER BY k.n`,
      [keys.map((key) => key.owner), keys.map((key) => key.ownerId), keys.map((key) => key.period), keys.map((key) => key.start)],
    );
    return rows.map((row) => ({ cost: Number(row.cost), requests: Number(row.requests), tokens: Number(row.tokens) }));
  }

  async releaseReservations(before: string): Promise<ReleasedReservations> {
    return inTransaction(this.pool, (client) => giveBack(client, 'r.created_at < $1', [before]));
  }

  async heartbeat(now: string): Promise<void> {
    await this.pool.query(
      'INSERT INTO relay_instances (instance_id, heartbeat_at) VALUES ($1, $2) ON CONFLICT (instance_id) DO UPDATE SET heartbeat_at = excluded.heartbeat_at',
      [this.instanceId, now],
    );
  }

  async releaseOrphaned(staleBefore: string): Promise<ReleasedReservations> {
    return inTransaction(this.pool, async (client) => {
      const released = await giveBack(
        client,
        `r.instance_id IS NULL OR (r.instance_id <> $1 AND NOT EXISTS
           (SELECT 1 FROM relay_instances i WHERE i.instance_id = r.instance_id AND i.heartbeat_at >= $2))`,
        [this.instanceId, staleBefore],
      );
      await client.query('DELETE FROM relay_instances WHERE heartbeat_at < $2 AND instance_id <> $1', [this.instanceId, staleBefore]);
      return released;
    });
  }

  async retire(): Promise<ReleasedReservations> {
    // Whatever this instance holds goes back whole, doubtful reservations that were taken included.
    this.doubts.stop();
    return inTransaction(this.pool, async (client) => {
      const released = await giveBack(client, 'r.instance_id = $1', [this.instanceId]);
      await client.query('DELETE FROM relay_instances WHERE instance_id = $1', [this.instanceId]);
      return released;
    });
  }
}

/** `window:<index>:<metric>:<used>` (relay_reserve's refusal by a window of `windows`), read back; undefined for anything else. */
function windowRefusalOf(outcome: string, windows: readonly WindowReservation[]): ReserveOutcome | undefined {
  const match = /^window:(\d+):([a-z]+):(\d+)$/.exec(outcome);
  const window = match ? windows[Number(match[1])] : undefined;
  const metric = LimitMetricSchema.safeParse(match?.[2]);
  if (!match || !window || !metric.success) return undefined;
  return { ok: false, exhausted: 'window', window, metric: metric.data, used: Number(match[3]) };
}
