import type Database from 'better-sqlite3';
import { AlreadyExistsError, type ResponseStore, type StoredResponseLimits, type StoredResponsePut, type StoredResponseRecord, type StoredResponseUsage } from '../types';
import { SQLITE_CODEC } from '../rows/codec';
import {
  STORED_RESPONSE_COLUMNS,
  storedResponseColumns as toColumns,
  storedResponseRecordOf,
  type StoredResponseRow,
} from '../rows/stored-response-row';

const toRecord = (row: StoredResponseRow): StoredResponseRecord => storedResponseRecordOf(row, SQLITE_CODEC);

/**
 * Responses kept for `previous_response_id` and retrieval, on SQLite. Every read is scoped to the
 * account and to rows not expired at the caller's `now`: an expired row is gone for callers even
 * before `purgeExpired` removes it. A `put` never takes over another account's row: an id held by
 * another account fails with `AlreadyExistsError` and leaves that row as it was.
 */
export class SqliteResponseStore implements ResponseStore {
  private readonly upsert: Database.Statement<[ReturnType<typeof toColumns>]>;
  private readonly ownerOf: Database.Statement<[string], { account_id: number }>;
  private readonly deleteOwned: Database.Statement<[string, number]>;
  private readonly othersTotal: Database.Statement<{ id: string; account: number; now: string }, StoredResponseUsage>;
  private readonly othersOldestFirst: Database.Statement<{ id: string; account: number; now: string }, { id: string; size_bytes: number }>;
  private readonly usageOf: Database.Statement<{ ids: string; now: string }, { account_id: number; count: number; bytes: number }>;
  private readonly owned: Database.Statement<[string, number, string], StoredResponseRow>;
  private readonly chained: Database.Statement<{ id: string; account: number; now: string; depth: number }, StoredResponseRow>;
  private readonly itemsFound: Database.Statement<{ account: number; now: string; recent: number; ids: string }, { item: string }>;

  constructor(private readonly db: Database.Database) {
    this.upsert = db.prepare(
      `INSERT INTO stored_responses (id, account_id, token_id, origin, channel_id, key_digest, model, previous_response_id,
         status, response, input_items, created_at, expires_at, size_bytes)
       VALUES (:id, :account_id, :token_id, :origin, :channel_id, :key_digest, :model, :previous_response_id,
         :status, :response, :input_items, :created_at, :expires_at, :size_bytes)
       ON CONFLICT (id) DO UPDATE SET token_id = excluded.token_id, origin = excluded.origin, channel_id = excluded.channel_id,
         key_digest = excluded.key_digest, model = excluded.model, previous_response_id = excluded.previous_response_id,
         status = excluded.status, response = excluded.response, input_items = excluded.input_items,
         created_at = excluded.created_at, expires_at = excluded.expires_at, size_bytes = excluded.size_bytes
       WHERE stored_responses.account_id = excluded.account_id`,
    );
    this.ownerOf = db.prepare('SELECT account_id FROM stored_responses WHERE id = ?');
    this.deleteOwned = db.prepare('DELETE FROM stored_responses WHERE id = ? AND account_id = ?');
    // The account's other unexpired responses, as totals and oldest first: the index alone answers
    // both, and eviction reads only as many of the oldest as must go.
    this.othersTotal = db.prepare(
      `SELECT COUNT(*) AS count, COALESCE(SUM(size_bytes), 0) AS bytes FROM stored_responses
       WHERE account_id = :account AND expires_at > :now AND id <> :id`,
    );
    this.othersOldestFirst = db.prepare(
      `SELECT id, size_bytes FROM stored_responses WHERE account_id = :account AND expires_at > :now AND id <> :id
       ORDER BY created_at, id`,
    );
    this.usageOf = db.prepare(
      `SELECT account_id, COUNT(*) AS count, COALESCE(SUM(size_bytes), 0) AS bytes FROM stored_responses
       WHERE account_id IN (SELECT value FROM json_each(:ids)) AND expires_at > :now GROUP BY account_id`,
    );
    this.owned = db.prepare(`SELECT ${STORED_RESPONSE_COLUMNS} FROM stored_responses WHERE id = ? AND account_id = ? AND expires_at > ?`);
    // Walks back from `id` one link at a time. `seen` (ids between unit separators) stops at a
    // record already in the chain, so a cycle of links yields each record once.
    this.chained = db.prepare(
      `WITH RECURSIVE chain AS (
         SELECT stored_responses.*, 1 AS depth, char(31) || stored_responses.id || char(31) AS seen FROM stored_responses
         WHERE id = :id AND account_id = :account AND expires_at > :now AND :depth >= 1
         UNION ALL
         SELECT earlier.*, chain.depth + 1, chain.seen || earlier.id || char(31) FROM stored_responses AS earlier
         JOIN chain ON earlier.id = chain.previous_response_id
         WHERE earlier.account_id = :account AND earlier.expires_at > :now AND chain.depth < :depth
           AND instr(chain.seen, char(31) || earlier.id || char(31)) = 0
       )
       SELECT ${STORED_RESPONSE_COLUMNS} FROM chain ORDER BY depth DESC`,
    );
    // Newest responses first, so an id repeated across responses resolves to the latest item.
    this.itemsFound = db.prepare(
      `WITH recent AS (
         SELECT response, input_items, created_at FROM stored_responses
         WHERE account_id = :account AND expires_at > :now AND origin = 'bridged'
         ORDER BY created_at DESC LIMIT :recent
       ), wanted AS (SELECT value AS id FROM json_each(:ids))
       SELECT item FROM (
         SELECT item.value AS item, recent.created_at AS at, 0 AS side FROM recent, json_each(recent.response, '$.output') AS item
           WHERE json_extract(item.value, '$.id') IN (SELECT id FROM wanted)
         UNION ALL
         SELECT item.value, recent.created_at, 1 FROM recent, json_each(recent.input_items) AS item
           WHERE json_extract(item.value, '$.id') IN (SELECT id FROM wanted)
       ) ORDER BY at DESC, side`,
    );
  }

  /** One transaction: SQLite has one writer, so the account's bound holds at every commit. */
  async put(record: StoredResponseRecord, limits: StoredResponseLimits): Promise<StoredResponsePut> {
    const columns = toColumns(record);
    return this.db.transaction((): StoredResponsePut => {
      const owner = this.ownerOf.get(record.id)?.account_id;
      if (owner !== undefined && owner !== record.accountId) throw new AlreadyExistsError(`response ${record.id} belongs to another account`);
      if (columns.size_bytes > limits.maxBytes) {
        this.deleteOwned.run(record.id, record.accountId);
        return { stored: false, evicted: 0 };
      }
      this.upsert.run(columns);
      return { stored: true, evicted: this.evictBeside(record, columns.size_bytes, limits) };
    })();
  }

  /** Deletes the account's oldest other responses until they fit beside `record` (`size` bytes); returns how many. */
  private evictBeside(record: StoredResponseRecord, size: number, limits: StoredResponseLimits): number {
    const others = { id: record.id, account: record.accountId, now: limits.now };
    const totals = this.othersTotal.get(others) ?? { count: 0, bytes: 0 };
    let countOver = totals.count - (limits.maxCount - 1);
    let bytesOver = totals.bytes - (limits.maxBytes - size);
    if (countOver <= 0 && bytesOver <= 0) return 0;
    const doomed: string[] = [];
    for (const row of this.othersOldestFirst.iterate(others)) {
      doomed.push(row.id);
      countOver -= 1;
      bytesOver -= row.size_bytes;
      if (countOver <= 0 && bytesOver <= 0) break;
    }
    for (const id of doomed) this.deleteOwned.run(id, record.accountId);
    return doomed.length;
  }

  async usage(accountIds: readonly number[], now: string): Promise<Map<number, StoredResponseUsage>> {
    const found = new Map(accountIds.map((id): [number, StoredResponseUsage] => [id, { count: 0, bytes: 0 }]));
    if (accountIds.length === 0) return found;
    for (const row of this.usageOf.all({ ids: JSON.stringify(accountIds), now })) found.set(row.account_id, { count: row.count, bytes: row.bytes });
    return found;
  }

  async get(id: string, accountId: number, now: string): Promise<StoredResponseRecord | undefined> {
    const row = this.owned.get(id, accountId, now);
    return row ? toRecord(row) : undefined;
  }

  async chain(id: string, accountId: number, now: string, maxDepth: number): Promise<StoredResponseRecord[]> {
    return this.chained.all({ id, account: accountId, now, depth: maxDepth }).map(toRecord);
  }

  async findItems(accountId: number, itemIds: readonly string[], now: string, recent: number): Promise<Record<string, unknown>[]> {
    if (itemIds.length === 0) return [];
    const rows = this.itemsFound.all({ account: accountId, now, recent, ids: JSON.stringify(itemIds) });
    return rows.flatMap((row) => {
      const item = SQLITE_CODEC.json<unknown>(row.item);
      return typeof item === 'object' && item !== null && !Array.isArray(item) ? [item as Record<string, unknown>] : [];
    });
  }

  async delete(id: string, accountId: number): Promise<boolean> {
    return this.db.prepare('DELETE FROM stored_responses WHERE id = ? AND account_id = ?').run(id, accountId).changes > 0;
  }

  async purgeExpired(now: string): Promise<number> {
    return this.db.prepare('DELETE FROM stored_responses WHERE expires_at <= ?').run(now).changes;
  }
}
