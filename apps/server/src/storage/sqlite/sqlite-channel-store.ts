import type Database from 'better-sqlite3';
import type { ChannelKeysRewrite, ChannelKeyState, ChannelPatch, ChannelRecord, NewChannel, Page, PageRequest, StoredChannelStore, SyncedModel } from '../types';
import { SQLITE_CODEC } from '../rows/codec';
import { channelColumns, channelRecordOf, type ChannelRow } from '../rows/channel-row';

const toRecord = (row: ChannelRow): ChannelRecord => channelRecordOf(row, SQLITE_CODEC);
const toColumns = (channel: NewChannel) => channelColumns(channel, SQLITE_CODEC);

export class SqliteChannelStore implements StoredChannelStore {
  constructor(private readonly db: Database.Database) {}

  async create(input: NewChannel): Promise<ChannelRecord> {
    const now = new Date().toISOString();
    const row = this.db
      .prepare(
        `INSERT INTO channels (name, type, base_url, keys, key_states, models, model_mapping, priority, weight, enabled, timeouts,
           responses_api, endpoints, passthrough, cloud, created_at, updated_at)
         VALUES (:name, :type, :base_url, :keys, :key_states, :models, :model_mapping, :priority, :weight, :enabled, :timeouts,
           :responses_api, :endpoints, :passthrough, :cloud, :now, :now)
         RETURNING *`,
      )
      .get({ ...toColumns(input), now }) as ChannelRow;
    return toRecord(row);
  }

  async get(id: number): Promise<ChannelRecord | undefined> {
    const row = this.db.prepare('SELECT * FROM channels WHERE id = ?').get(id) as ChannelRow | undefined;
    return row ? toRecord(row) : undefined;
  }

  async list(request: PageRequest): Promise<Page<ChannelRecord>> {
    const total = (this.db.prepare('SELECT COUNT(*) AS n FROM channels').get() as { n: number }).n;
    const rows = this.db
      .prepare('SELECT * FROM channels ORDER BY id LIMIT ? OFFSET ?')
      .all(request.perPage, (request.page - 1) * request.perPage) as ChannelRow[];
    return { rows: rows.map(toRecord), total };
  }

  async listAll(): Promise<ChannelRecord[]> {
    return (this.db.prepare('SELECT * FROM channels ORDER BY id').all() as ChannelRow[]).map(toRecord);
  }

  async update(id: number, patch: ChannelPatch): Promise<ChannelRecord | undefined> {
    return this.db.transaction(() => {
      const current = this.db.prepare('SELECT * FROM channels WHERE id = ?').get(id) as ChannelRow | undefined;
      if (!current) return undefined;
      const record = toRecord(current);
      // New keys start active unless the patch says otherwise.
      const keyStates = patch.keyStates ?? (patch.keys ? undefined : record.keyStates);
      const merged: NewChannel = { ...record, ...patch, keyStates };
      const row = this.db
        .prepare(
          `UPDATE channels SET name = :name, type = :type, base_url = :base_url, keys = :keys, key_states = :key_states,
             models = :models,
             model_mapping = :model_mapping, priority = :priority, weight = :weight, enabled = :enabled,
             timeouts = :timeouts, responses_api = :responses_api, endpoints = :endpoints, passthrough = :passthrough,
             cloud = :cloud, updated_at = :now
           WHERE id = :id RETURNING *`,
        )
        .get({ ...toColumns(merged), id, now: new Date().toISOString() }) as ChannelRow;
      return toRecord(row);
    })();
  }

  async delete(id: number): Promise<boolean> {
    return this.db.prepare('DELETE FROM channels WHERE id = ?').run(id).changes > 0;
  }

  async count(): Promise<number> {
    return (this.db.prepare('SELECT COUNT(*) AS n FROM channels').get() as { n: number }).n;
  }

  async disableKey(id: number, key: string, reason: string): Promise<ChannelRecord | undefined> {
    return this.db.transaction(() => {
      const current = this.db.prepare('SELECT * FROM channels WHERE id = ?').get(id) as ChannelRow | undefined;
      if (!current) return undefined;
      const record = toRecord(current);
      // By value: the admin may have reordered or replaced the keys since the request started.
      const index = record.keys.indexOf(key);
      if (index < 0) return undefined;
      const now = new Date().toISOString();
      const keyStates = record.keyStates.map((state, position): ChannelKeyState =>
        position === index ? { status: 'disabled', reason, changedAt: now } : state,
      );
      const row = this.db
        .prepare('UPDATE channels SET key_states = ?, updated_at = ? WHERE id = ? RETURNING *')
        .get(JSON.stringify(keyStates), now, id) as ChannelRow;
      return toRecord(row);
    })();
  }

  async setResponsesApi(id: number, value: ChannelRecord['responsesApi']): Promise<ChannelRecord | undefined> {
    const row = this.db
      .prepare('UPDATE channels SET responses_api = ?, updated_at = ? WHERE id = ? RETURNING *')
      .get(value, new Date().toISOString(), id) as ChannelRow | undefined;
    return row ? toRecord(row) : undefined;
  }

  async setSyncedModels(id: number, models: readonly SyncedModel[], at: string): Promise<ChannelRecord | undefined> {
    return this.db.transaction(() => {
      const current = this.db.prepare('SELECT updated_at FROM channels WHERE id = ?').get(id) as Pick<ChannelRow, 'updated_at'> | undefined;
      if (!current) return undefined;
      // Strictly later, even within the millisecond of the last write: the registry rebuilds a
      // channel only when its `updatedAt` changed.
      const updatedAt = new Date(Math.max(Date.now(), Date.parse(current.updated_at) + 1)).toISOString();
      const row = this.db
        .prepare('UPDATE channels SET synced_models = ?, models_synced_at = ?, updated_at = ? WHERE id = ? RETURNING *')
        .get(JSON.stringify(models), at, updatedAt, id) as ChannelRow;
      return toRecord(row);
    })();
  }

  async rewriteKeys(rewrites: readonly ChannelKeysRewrite[]): Promise<number> {
    if (rewrites.length === 0) return 0;
    let changed = 0;
    const rewrite = this.db.prepare('UPDATE channels SET keys = ? WHERE id = ? AND json(keys) = json(?)');
    this.db.transaction(() => {
      for (const { id, expected, next } of rewrites) changed += rewrite.run(JSON.stringify(next), id, JSON.stringify(expected)).changes;
    })();
    if (changed === 0) return 0;
    // The old values may linger in free space, and in pages the table outgrew when they were
    // written: only rebuilding the file removes every copy (once, at the upgrade or a rotation).
    this.db.exec('VACUUM');
    this.db.pragma('wal_checkpoint(TRUNCATE)');
    return changed;
  }
}
