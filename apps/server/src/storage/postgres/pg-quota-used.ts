import type pg from 'pg';

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
