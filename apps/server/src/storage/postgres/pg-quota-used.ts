import type pg from 'pg';
import type { ReleasedReservations } from '../types';
import { PG_CODEC } from '../rows/codec';
import { WindowDeltas, windowKeysOf } from '../rows/quota-window-row';

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
 * Adds each change (either sign) to its window of `quota_windows`, kept within [0, 2^53). One
 * statement whatever the number of windows; the rows are locked in key order first (COLLATE "C",
 * as `compareWindowKeys` sorts), after the caller's tokens and accounts: the lock order of
 * `relay_reserve` too, so settling, giving back and reserving never deadlock. A window gone
 * (deleted by hand) is left gone.
 */
export async function addToWindows(client: pg.ClientBase, deltas: WindowDeltas): Promise<void> {
  const changed = deltas.sorted();
  if (changed.length === 0) return;
  const kept = (column: string) => `LEAST(${Number.MAX_SAFE_INTEGER}, GREATEST(0, w.${column} + d.${column}))`;
  await client.query(
    `UPDATE quota_windows AS w SET cost = ${kept('cost')}, requests = ${kept('requests')}, tokens = ${kept('tokens')}
     FROM unnest($1::text[], $2::integer[], $3::text[], $4::text[], $5::bigint[], $6::bigint[], $7::bigint[])
         AS d(owner, owner_id, period, start, cost, requests, tokens),
       (SELECT q.owner, q.owner_id, q.period, q.start FROM quota_windows q
          JOIN unnest($1::text[], $2::integer[], $3::text[], $4::text[]) AS k(owner, owner_id, period, start)
            ON q.owner = k.owner AND q.owner_id = k.owner_id AND q.period = k.period AND q.start = k.start
          ORDER BY q.owner, q.owner_id, q.period, q.start FOR UPDATE OF q) AS locked
     WHERE w.owner = locked.owner AND w.owner_id = locked.owner_id AND w.period = locked.period AND w.start = locked.start
       AND d.owner = locked.owner AND d.owner_id = locked.owner_id AND d.period = locked.period AND d.start = locked.start`,
    [
      changed.map(({ key }) => key.owner),
      changed.map(({ key }) => key.ownerId),
      changed.map(({ key }) => key.period),
      changed.map(({ key }) => key.start),
      changed.map(({ cost }) => cost),
      changed.map(({ requests }) => requests),
      changed.map(({ tokens }) => tokens),
    ],
  );
}

/**
 * Gives back the reservations matching `which` (over `r`) to their tokens and accounts — and
 * the cost, request and tokens each counted in its windows — never below 0, and forgets them —
 * inside the caller's transaction. The rows are deleted under lock:
 * one settled meanwhile by its usage row (or given back by another instance) is gone and skipped,
 * so each reservation is settled or given back, once. A task's reservation is never among them:
 * it outlives the instance that took it and is settled by the task alone (`TaskStore.settle`).
 */
export async function giveBack(client: pg.ClientBase, which: string, values: unknown[]): Promise<ReleasedReservations> {
  const { rows } = await client.query<{ token_id: number; account_id: number; amount: number; tokens: number; windows: unknown }>(
    `DELETE FROM quota_reservations WHERE id IN
       (SELECT r.id FROM quota_reservations r WHERE r.task_id IS NULL AND (${which}) ORDER BY r.id FOR UPDATE)
     RETURNING token_id, account_id, amount, tokens, windows`,
    values,
  );
  const tokens = new Map<number, number>();
  const accounts = new Map<number, number>();
  const windows = new WindowDeltas();
  let amount = 0;
  for (const row of rows) {
    addDelta(tokens, row.token_id, -row.amount);
    addDelta(accounts, row.account_id, -row.amount);
    for (const key of windowKeysOf(row.windows, PG_CODEC)) windows.add(key, { cost: -row.amount, requests: -1, tokens: -row.tokens });
    amount += row.amount;
  }
  await addToQuotaUsed(client, 'tokens', tokens);
  await addToQuotaUsed(client, 'accounts', accounts);
  await addToWindows(client, windows);
  return { count: rows.length, amount };
}
