import type pg from 'pg';
import type { ReleasedReservations } from '../types';

/**
 * Adds each delta (micro-USD, either sign) to the `quota_used` of the token or account with its
 * id, kept within [0, 2^53) as SQLite keeps it. One statement whatever the number of ids; the
 * rows are locked in id order first, so transactions settling and giving back at once on several
 * instances always take them in the same order and never deadlock.
 */
export async function addToQuotaUsed(client: pg.ClientBase, table: 'tokens' | 'accounts', deltas: ReadonlyMap<number, number>): Promise<void> {
  const changed = [...deltas].filter(([, delta]) => delta !== 0);
  if (changed.length === 0) return;
  await client.query(
    `UPDATE ${table} AS t SET quota_used = LEAST(${Number.MAX_SAFE_INTEGER}, GREATEST(0, t.quota_used + d.delta))
     FROM (SELECT id FROM ${table} WHERE id = ANY($1::integer[]) ORDER BY id FOR UPDATE) AS locked,
       unnest($1::integer[], $2::bigint[]) AS d(id, delta)
     WHERE t.id = locked.id AND d.id = locked.id`,
    [changed.map(([id]) => id), changed.map(([, delta]) => delta)],
  );
}

/** `deltas` with `amount` added at `id`. */
export function addDelta(deltas: Map<number, number>, id: number, amount: number): void {
  deltas.set(id, (deltas.get(id) ?? 0) + amount);
}

/**
 * Gives back the reservations matching `which` (over `r`) to their tokens and accounts, never
 * below 0, and forgets them — inside the caller's transaction. The rows are deleted under lock:
 * one settled meanwhile by its usage row (or given back by another instance) is gone and skipped,
 * so each reservation is settled or given back, once. A task's reservation is never among them:
 * it outlives the instance that took it and is settled by the task alone (`TaskStore.settle`).
 */
export async function giveBack(client: pg.ClientBase, which: string, values: unknown[]): Promise<ReleasedReservations> {
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
