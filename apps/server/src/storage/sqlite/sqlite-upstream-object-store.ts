import type Database from 'better-sqlite3';
import type { UpstreamObjectKind, UpstreamObjectRecord, UpstreamObjectStore } from '../types';
import { UPSTREAM_OBJECT_COLUMNS, upstreamObjectColumns } from '../rows/upstream-object-row';

/** Upstream objects in SQLite: one row per (kind, id), its first owner kept. */
export class SqliteUpstreamObjectStore implements UpstreamObjectStore {
  private readonly insert: Database.Statement;
  private readonly ownedOf: Database.Statement<{ account: number; kind: string; now: string; ids: string }, { id: string }>;

  constructor(private readonly db: Database.Database) {
    this.insert = db.prepare(
      `INSERT INTO upstream_objects (${UPSTREAM_OBJECT_COLUMNS})
       VALUES (:kind, :id, :account_id, :channel_id, :created_at, :expires_at)
       ON CONFLICT (kind, id) DO NOTHING`,
    );
    this.ownedOf = db.prepare(
      `SELECT id FROM upstream_objects
       WHERE kind = :kind AND account_id = :account AND expires_at > :now AND id IN (SELECT value FROM json_each(:ids))`,
    );
  }

  async remember(objects: readonly UpstreamObjectRecord[]): Promise<void> {
    if (objects.length === 0) return;
    this.db.transaction(() => {
      for (const object of objects) this.insert.run(upstreamObjectColumns(object));
    })();
  }

  async owned(accountId: number, kind: UpstreamObjectKind, ids: readonly string[], now: string): Promise<string[]> {
    if (ids.length === 0) return [];
    return this.ownedOf.all({ account: accountId, kind, now, ids: JSON.stringify(ids) }).map((row) => row.id);
  }

  async purgeExpired(now: string): Promise<number> {
    return this.db.prepare('DELETE FROM upstream_objects WHERE expires_at <= ?').run(now).changes;
  }
}
