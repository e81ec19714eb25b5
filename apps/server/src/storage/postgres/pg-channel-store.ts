import type pg from 'pg';
import type { ChannelKeysRewrite, ChannelKeyState, ChannelPatch, ChannelRecord, NewChannel, Page, PageRequest, StoredChannelStore, SyncedModel } from '../types';
import { inTransaction } from './pg-pool';
import { idParam, pageOf, Params } from './pg-rows';
import { PG_CODEC } from '../rows/codec';
import { CHANNEL_COLUMNS as COLUMNS, CHANNEL_WRITTEN as WRITTEN, channelColumns, channelRecordOf, type ChannelRow } from '../rows/channel-row';

const toRecord = (row: ChannelRow): ChannelRecord => channelRecordOf(row, PG_CODEC);

/**
 * The written columns' parameters, in CHANNEL_WRITTEN's order. `model_mapping` is `json`, not
 * `jsonb`: its keys keep the admin's order (the model list and the channel test read them in order).
 */
const WRITTEN_VALUES = '$1, $2, $3, $4::jsonb, $5::jsonb, $6::jsonb, $7::json, $8, $9, $10, $11::jsonb, $12, $13::jsonb, $14::json, $15::jsonb';
const toValues = (channel: NewChannel): unknown[] => Object.values(channelColumns(channel, PG_CODEC));

/** Channels in PostgreSQL, behaving as SqliteChannelStore does. */
export class PgChannelStore implements StoredChannelStore {
  constructor(private readonly pool: pg.Pool) {}

  private async one(sql: string, values: unknown[]): Promise<ChannelRecord | undefined> {
    const { rows } = await this.pool.query<ChannelRow>(sql, values);
    return rows[0] ? toRecord(rows[0]) : undefined;
  }

  async create(input: NewChannel): Promise<ChannelRecord> {
    const now = new Date().toISOString();
    const created = await this.one(
      `INSERT INTO channels (${WRITTEN}, created_at, updated_at) VALUES (${WRITTEN_VALUES}, $16, $16) RETURNING ${COLUMNS}`,
      [...toValues(input), now],
    );
    if (!created) throw new Error('INSERT … RETURNING gave no row');
    return created;
  }

  async get(id: number): Promise<ChannelRecord | undefined> {
    return this.one(`SELECT ${COLUMNS} FROM channels WHERE id = $1::bigint`, [idParam(id)]);
  }

  async list(request: PageRequest): Promise<Page<ChannelRecord>> {
    return pageOf(this.pool, { columns: COLUMNS, table: 'channels', where: 'TRUE', orderBy: 'id', params: new Params() }, request, toRecord);
  }

  async listAll(): Promise<ChannelRecord[]> {
    const { rows } = await this.pool.query<ChannelRow>(`SELECT ${COLUMNS} FROM channels ORDER BY id`);
    return rows.map(toRecord);
  }

  async update(id: number, patch: ChannelPatch): Promise<ChannelRecord | undefined> {
    return inTransaction(this.pool, async (client) => {
      const current = await client.query<ChannelRow>(`SELECT ${COLUMNS} FROM channels WHERE id = $1::bigint FOR UPDATE`, [idParam(id)]);
      if (!current.rows[0]) return undefined;
      const record = toRecord(current.rows[0]);
      // New keys start active unless the patch says otherwise.
      const keyStates = patch.keyStates ?? (patch.keys ? undefined : record.keyStates);
      const merged: NewChannel = { ...record, ...patch, keyStates };
      const { rows } = await client.query<ChannelRow>(
        `UPDATE channels SET (${WRITTEN}, updated_at) = (${WRITTEN_VALUES}, $16) WHERE id = $17 RETURNING ${COLUMNS}`,
        [...toValues(merged), new Date().toISOString(), id],
      );
      return rows[0] ? toRecord(rows[0]) : undefined;
    });
  }

  async delete(id: number): Promise<boolean> {
    const { rowCount } = await this.pool.query('DELETE FROM channels WHERE id = $1::bigint', [idParam(id)]);
    return (rowCount ?? 0) > 0;
  }

  async count(): Promise<number> {
    const { rows } = await this.pool.query<{ n: number }>('SELECT COUNT(*) AS n FROM channels');
    return rows[0]?.n ?? 0;
  }

  async disableKey(id: number, key: string, reason: string): Promise<ChannelRecord | undefined> {
    return inTransaction(this.pool, async (client) => {
      // Locked: two instances disabling two keys of one channel at once both count.
      const current = await client.query<ChannelRow>(`SELECT ${COLUMNS} FROM channels WHERE id = $1::bigint FOR UPDATE`, [idParam(id)]);
      if (!current.rows[0]) return undefined;
      const record = toRecord(current.rows[0]);
      // By value: the admin may have reordered or replaced the keys since the request started.
      const index = record.keys.indexOf(key);
      if (index < 0) return undefined;
      const now = new Date().toISOString();
      const keyStates = record.keyStates.map((state, position): ChannelKeyState =>
        position === index ? { status: 'disabled', reason, changedAt: now } : state,
      );
      const { rows } = await client.query<ChannelRow>(
        `UPDATE channels SET key_states = $1::jsonb, updated_at = $2 WHERE id = $3 RETURNING ${COLUMNS}`,
        [JSON.stringify(keyStates), now, id],
      );
      return rows[0] ? toRecord(rows[0]) : undefined;
    });
  }

  async setResponsesApi(id: number, value: ChannelRecord['responsesApi']): Promise<ChannelRecord | undefined> {
    return this.one(`UPDATE channels SET responses_api = $1, updated_at = $2 WHERE id = $3::bigint RETURNING ${COLUMNS}`, [
      value,
      new Date().toISOString(),
      idParam(id),
    ]);
  }

  async setSyncedModels(id: number, models: readonly SyncedModel[], at: string): Promise<ChannelRecord | undefined> {
    // Strictly later, even within the millisecond of the last write: the registry rebuilds a
    // channel only when its `updatedAt` changed.
    return this.one(
      `UPDATE channels SET synced_models = $1::jsonb, models_synced_at = $2,
         updated_at = GREATEST($3::timestamptz, updated_at + interval '1 millisecond')
       WHERE id = $4::bigint RETURNING ${COLUMNS}`,
      [JSON.stringify(models), at, new Date().toISOString(), idParam(id)],
    );
  }

  async rewriteKeys(rewrites: readonly ChannelKeysRewrite[]): Promise<number> {
    if (rewrites.length === 0) return 0;
    // Older row versions stay on disk until VACUUM reclaims them (docs/SCALING.md).
    return inTransaction(this.pool, async (client) => {
      let changed = 0;
      for (const { id, expected, next } of rewrites) {
        const { rowCount } = await client.query('UPDATE channels SET keys = $1::jsonb WHERE id = $2 AND keys = $3::jsonb', [
          JSON.stringify(next),
          id,
          JSON.stringify(expected),
        ]);
        changed += rowCount ?? 0;
      }
      return changed;
    });
  }
}
