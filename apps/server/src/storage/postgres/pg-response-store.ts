import type pg from 'pg';
import { inTransaction } from './pg-pool';
import { PG_CODEC } from '../rows/codec';
import {
  STORED_RESPONSE_COLUMNS as COLUMNS,
  storedResponseColumns,
  storedResponseColumnsOf,
  storedResponseRecordOf,
  type StoredResponseRow,
} from '../rows/stored-response-row';
import { AlreadyExistsError, type ResponseStore, type StoredResponseLimits, type StoredResponsePut, type StoredResponseRecord, type StoredResponseUsage } from '../types';

const toRecord = (row: StoredResponseRow): StoredResponseRecord => storedResponseRecordOf(row, PG_CODEC);

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Responses kept for `previous_response_id` and retrieval, on PostgreSQL, as SqliteResponseStore
 * keeps them: every read scoped to the account and to rows not expired at the caller's `now`; a
 * `put` never takes over another account's row (`AlreadyExistsError`).
 */
export class PgResponseStore implements ResponseStore {
  constructor(private readonly pool: pg.Pool) {}

  async usage(accountIds: readonly number[], now: string): Promise<Map<number, StoredResponseUsage>> {
    const found = new Map(accountIds.map((id): [number, StoredResponseUsage] => [id, { count: 0, bytes: 0 }]));
    if (accountIds.length === 0) return found;
    const { rows } = await this.pool.query<{ account_id: number; count: number; bytes: number }>(
      `SELECT account_id, COUNT(*) AS count, COALESCE(SUM(size_bytes), 0) AS bytes FROM stored_responses
       WHERE account_id = ANY($1::integer[]) AND expires_at > $2 GROUP BY account_id`,
      [accountIds, now],
    );
    for (const row of rows) found.set(row.account_id, { count: row.count, bytes: row.bytes });
    return found;
  }

  /**
   * One transaction holding the account's advisory lock (per schema): puts of one account from
   * any instance take turns, so each one's eviction sees every row the others committed.
   */
  async put(record: StoredResponseRecord, limits: StoredResponseLimits): Promise<StoredResponsePut> {
    const columns = storedResponseColumns(record);
    const sizeBytes = columns.size_bytes;
    return inTransaction(this.pool, async (client) => {
      await client.query(`SELECT pg_advisory_xact_lock(hashtext('chat-relay stored_responses ' || current_schema()), $1::integer)`, [record.accountId]);
      const { rows: owners } = await client.query<{ account_id: number }>('SELECT account_id FROM stored_responses WHERE id = $1', [record.id]);
      const owner = owners[0]?.account_id;
      if (owner !== undefined && owner !== record.accountId) throw new AlreadyExistsError(`response ${record.id} belongs to another account`);
      if (sizeBytes > limits.maxBytes) {
        await client.query('DELETE FROM stored_responses WHERE id = $1 AND account_id = $2', [record.id, record.accountId]);
        return { stored: false, evicted: 0 };
      }
      // json (not jsonb) columns, so a stored Response reads back as it was answered: its keys in
      // their order, and any text a prompt held (jsonb refuses U+0000).
      const { rowCount } = await client.query(
        `INSERT INTO stored_responses (${COLUMNS}, size_bytes)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10::json, $11::json, $12, $13, $14)
         ON CONFLICT (id) DO UPDATE SET token_id = excluded.token_id, origin = excluded.origin, channel_id = excluded.channel_id,
           key_digest = excluded.key_digest, model = excluded.model, previous_response_id = excluded.previous_response_id,
           status = excluded.status, response = excluded.response, input_items = excluded.input_items,
           created_at = excluded.created_at, expires_at = excluded.expires_at, size_bytes = excluded.size_bytes
         WHERE stored_responses.account_id = excluded.account_id`,
        Object.values(columns),
      );
      // The owner was checked under this account's lock; another account's insert of the id since lands here.
      if (rowCount === 0) throw new AlreadyExistsError(`response ${record.id} belongs to another account`);
      // Newest first, the one just put ahead of all; ids by bytes, as SQLite orders them.
      const evicted = await client.query(
        `DELETE FROM stored_responses WHERE account_id = $1 AND id IN (
           SELECT id FROM (
             SELECT id, SUM(size_bytes) OVER newest AS bytes_so_far, ROW_NUMBER() OVER newest AS position
             FROM stored_responses WHERE account_id = $1 AND expires_at > $2
             WINDOW newest AS (ORDER BY id = $3 DESC, created_at DESC, id COLLATE "C" DESC ROWS UNBOUNDED PRECEDING)
           ) AS ranked WHERE bytes_so_far > $4 OR position > $5
         )`,
        [record.accountId, limits.now, record.id, limits.maxBytes, limits.maxCount],
      );
      return { stored: true, evicted: evicted.rowCount ?? 0 };
    });
  }

  async get(id: string, accountId: number, now: string): Promise<StoredResponseRecord | undefined> {
    const { rows } = await this.pool.query<StoredResponseRow>(
      `SELECT ${COLUMNS} FROM stored_responses WHERE id = $1 AND account_id = $2 AND expires_at > $3`,
      [id, accountId, now],
    );
    return rows[0] && toRecord(rows[0]);
  }

  async chain(id: string, accountId: number, now: string, maxDepth: number): Promise<StoredResponseRecord[]> {
    // Walks back from `id` one link at a time; `seen` stops at a record already in the chain,
    // so a cycle of links yields each record once.
    const { rows } = await this.pool.query<StoredResponseRow>(
      `WITH RECURSIVE chain AS (
         SELECT ${COLUMNS}, 1 AS depth, ARRAY[id] AS seen FROM stored_responses
         WHERE id = $1 AND account_id = $2 AND expires_at > $3::timestamptz AND $4::integer >= 1
         UNION ALL
         SELECT ${storedResponseColumnsOf('earlier')}, chain.depth + 1, chain.seen || earlier.id FROM stored_responses AS earlier
         JOIN chain ON earlier.id = chain.previous_response_id
         WHERE earlier.account_id = $2 AND earlier.expires_at > $3::timestamptz AND chain.depth < $4::integer
           AND NOT earlier.id = ANY(chain.seen)
       )
       SELECT ${COLUMNS} FROM chain ORDER BY depth DESC`,
      [id, accountId, now, maxDepth],
    );
    return rows.map(toRecord);
  }

  async findItems(accountId: number, itemIds: readonly string[], now: string, recent: number): Promise<Record<string, unknown>[]> {
    if (itemIds.length === 0) return [];
    // Searched here, not in SQL: PostgreSQL's json operators refuse a value holding U+0000, which
    // a prompt may. Newest responses first, output before input, each in order, as on SQLite.
    const { rows } = await this.pool.query<{ response: unknown; input_items: unknown }>(
      `SELECT response, input_items FROM stored_responses
       WHERE account_id = $1 AND expires_at > $2 AND origin = 'bridged'
       ORDER BY created_at DESC LIMIT $3`,
      [accountId, now, recent],
    );
    const wanted = new Set(itemIds);
    const found: Record<string, unknown>[] = [];
    for (const row of rows) {
      const output = isObject(row.response) ? row.response['output'] : undefined;
      for (const items of [output, row.input_items]) {
        if (!Array.isArray(items)) continue;
        for (const item of items) if (isObject(item) && typeof item['id'] === 'string' && wanted.has(item['id'])) found.push(item);
      }
    }
    return found;
  }

  async delete(id: string, accountId: number): Promise<boolean> {
    const { rowCount } = await this.pool.query('DELETE FROM stored_responses WHERE id = $1 AND account_id = $2', [id, accountId]);
    return (rowCount ?? 0) > 0;
  }

  async purgeExpired(now: string): Promise<number> {
    const { rowCount } = await this.pool.query('DELETE FROM stored_responses WHERE expires_at <= $1', [now]);
    return rowCount ?? 0;
  }
}
