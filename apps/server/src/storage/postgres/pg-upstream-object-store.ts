import type pg from 'pg';
import type { UpstreamObjectKind, UpstreamObjectRecord, UpstreamObjectStore } from '../types';
import { UPSTREAM_OBJECT_COLUMNS, upstreamObjectColumns } from '../rows/upstream-object-row';
import { columnsOf } from './pg-rows';

/** Upstream objects in PostgreSQL, behaving as SqliteUpstreamObjectStore does. */
export class PgUpstreamObjectStore implements UpstreamObjectStore {
  constructor(private readonly pool: pg.Pool) {}

  /** One INSERT for all (a column per array); an id already recorded keeps its first owner. */
  async remember(objects: readonly UpstreamObjectRecord[]): Promise<void> {
    if (objects.length === 0) return;
    await this.pool.query(
      `INSERT INTO upstream_objects (${UPSTREAM_OBJECT_COLUMNS})
       SELECT * FROM unnest($1::text[], $2::text[], $3::integer[], $4::integer[], $5::timestamptz[], $6::timestamptz[])
       ON CONFLICT (kind, id) DO NOTHING`,
      columnsOf(objects.map((object) => Object.values(upstreamObjectColumns(object)))),
    );
  }

  async owned(accountId: number, kind: UpstreamObjectKind, ids: readonly string[], now: string): Promise<string[]> {
    if (ids.length === 0) return [];
    const { rows } = await this.pool.query<{ id: string }>(
      'SELECT id FROM upstream_objects WHERE kind = $1 AND account_id = $2 AND expires_at > $3 AND id = ANY($4::text[])',
      [kind, accountId, now, [...ids]],
    );
    return rows.map((row) => row.id);
  }

  async purgeExpired(now: string): Promise<number> {
    const { rowCount } = await this.pool.query('DELETE FROM upstream_objects WHERE expires_at <= $1', [now]);
    return rowCount ?? 0;
  }
}
