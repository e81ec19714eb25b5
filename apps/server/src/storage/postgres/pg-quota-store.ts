import type pg from 'pg';
import type { QuotaReservation, QuotaStore, ReleasedReservations, ReserveOutcome } from '../types';
import { addDelta, addToQuotaUsed } from './pg-quota-used';
import { inTransaction } from './pg-pool';

/**
 * Quota on a database several instances share. A reservation is one round trip to
 * `relay_reserve` (schema v2): conditional UPDATEs of the token and its account, whose row locks
 * make instances reserving at once take turns, so together they never pass a limit. Each
 * reservation is recorded with this instance's id; what a dead instance held is given back by
 * the others once its heartbeat is stale — except what a task holds (`TaskStore.create`), which
 * waits for the task to settle, whichever instance settles it.
 */
export class PgQuotaStore implements QuotaStore {
  constructor(
    private readonly pool: pg.Pool,
    private readonly instanceId: string,
  ) {}

  async reserve(reservation: QuotaReservation): Promise<ReserveOutcome> {
    const { rows } = await this.pool.query<{ outcome: string }>(
      'SELECT relay_reserve($1, $2::integer, $3::integer, $4::bigint, $5, $6::timestamptz) AS outcome',
      [reservation.requestId, reservation.tokenId, reservation.accountId, reservation.amount, this.instanceId, new Date().toISOString()],
    );
    const outcome = rows[0]?.outcome;
    if (outcome === 'ok') return { ok: true };
    if (outcome === 'token' || outcome === 'account') return { ok: false, exhausted: outcome };
    throw new Error(`relay_reserve answered ${JSON.stringify(outcome)}`);
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
    return inTransaction(this.pool, async (client) => {
      const released = await giveBack(client, 'r.instance_id = $1', [this.instanceId]);
      await client.query('DELETE FROM relay_instances WHERE instance_id = $1', [this.instanceId]);
      return released;
    });
  }
}

/**
 * Gives back the reservations matching `which` (over `r`) to their tokens and accounts, never
 * below 0, and forgets them — inside the caller's transaction. The rows are deleted under lock:
 * one settled meanwhile by its usage row (or given back by another instance) is gone and skipped,
 * so each reservation is settled or given back, once. A task's reservation is never among them:
 * it outlives the instance that took it and is settled by the task alone (`TaskStore.settle`).
 */
async function giveBack(client: pg.ClientBase, which: string, values: unknown[]): Promise<ReleasedReservations> {
  const { rows } = await client.query<{ token_id: number; account_id: number; amount: number }>(
    `DELETE FROM quota_reservations WHERE id IN
       (SELECT r.id FROM quota_reservations r WHERE r.task_id IS NULL AND (${which}) ORDER BY r.id FOR UPDATE)
     RETURNING token_id, account_id, amount`,
    values,
  );
  const tokens = new Map<number, number>();
  const accounts = new Map<number, number>();
  let amount = 0;
  for (const row of rows) {
    addDelta(tokens, row.token_id, -row.amount);
    addDelta(accounts, row.account_id, -row.amount);
    amount += row.amount;
  }
  await addToQuotaUsed(client, 'tokens', tokens);
  await addToQuotaUsed(client, 'accounts', accounts);
  return { count: rows.length, amount };
}
