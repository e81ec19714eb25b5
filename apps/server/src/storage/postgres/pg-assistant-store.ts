import type pg from 'pg';
import {
  AlreadyExistsError,
  type AssistantPatch,
  type AssistantRecord,
  type AssistantStore,
  type AssistantUsageTotals,
  type AssistantWriteOptions,
  type NewAssistant,
  type Page,
  type PageRequest,
} from '../types';
import { inTransaction } from './pg-pool';
import { idParam, isUniqueViolation, pageOf, Params, type Queryable } from './pg-rows';
import { PG_CODEC } from '../rows/codec';
import { ASSISTANT_COLUMNS as COLUMNS, ASSISTANT_WRITTEN as WRITTEN, assistantColumns, assistantRecordOf, type AssistantRow } from '../rows/assistant-row';

const toRecord = (row: AssistantRow): AssistantRecord => assistantRecordOf(row, PG_CODEC);

/**
 * The written columns' parameters, in ASSISTANT_WRITTEN's order. `tools` and `response_format` are
 * `json`, not `jsonb`: a JSON Schema's properties keep their order, which a model answering in
 * strict mode follows.
 */
const WRITTEN_VALUES = '$1, $2, $3, $4::json, $5, $6, $7, $8::json, $9::jsonb, $10';
const toValues = (assistant: Omit<NewAssistant, 'id' | 'accountId'>): unknown[] => Object.values(assistantColumns(assistant));

/** `takePublicId` for a public `visibility`: another account's public assistant of `id` becomes private. */
async function takePublicId(
  client: Queryable,
  options: AssistantWriteOptions | undefined,
  visibility: AssistantRecord['visibility'],
  accountId: number,
  id: string,
  now: string,
): Promise<void> {
  if (!options?.takePublicId || visibility !== 'public') return;
  await client.query("UPDATE assistants SET visibility = 'private', updated_at = $3 WHERE id = $1 AND visibility = 'public' AND account_id <> $2", [id, accountId, now]);
}

/** Ids sort byte by byte, as SQLite's BINARY collation does, whatever the database's locale. */
const BY_ID = 'id COLLATE "C"';

/** Assistants in PostgreSQL, behaving as SqliteAssistantStore does. */
export class PgAssistantStore implements AssistantStore {
  constructor(private readonly pool: pg.Pool) {}

  private async all(sql: string, values: unknown[]): Promise<AssistantRecord[]> {
    const { rows } = await this.pool.query<AssistantRow>(sql, values);
    return rows.map(toRecord);
  }

  async create(input: NewAssistant, options?: AssistantWriteOptions): Promise<AssistantRecord> {
    const now = new Date().toISOString();
    try {
      // One transaction: a failed insert takes nothing back from anyone.
      return await inTransaction(this.pool, async (client) => {
        await takePublicId(client, options, input.visibility, input.accountId, input.id, now);
        const publicOne = await client.query<{ account_id: number }>(`SELECT account_id FROM assistants WHERE id = $1 AND visibility = 'public'`, [input.id]);
        const holder = publicOne.rows[0]?.account_id;
        if (holder !== undefined && holder !== input.accountId) throw new AlreadyExistsError(`a public assistant ${input.id} exists`);
        const { rows } = await client.query<AssistantRow>(
          `INSERT INTO assistants (${WRITTEN}, id, account_id, created_at, updated_at)
           VALUES (${WRITTEN_VALUES}, $11, $12, $13, $13) RETURNING ${COLUMNS}`,
          [...toValues(input), input.id, input.accountId, now],
        );
        if (!rows[0]) throw new Error('INSERT … RETURNING gave no row');
        return toRecord(rows[0]);
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw new AlreadyExistsError(`assistant ${input.id} exists`);
      throw error;
    }
  }

  async getOwned(accountId: number, id: string): Promise<AssistantRecord | undefined> {
    const [owned] = await this.all(`SELECT ${COLUMNS} FROM assistants WHERE account_id = $1::bigint AND id = $2`, [idParam(accountId), id]);
    return owned;
  }

  async findById(id: string): Promise<AssistantRecord[]> {
    return this.all(`SELECT ${COLUMNS} FROM assistants WHERE id = $1 ORDER BY account_id`, [id]);
  }

  async resolveFor(accountId: number, id: string): Promise<AssistantRecord | undefined> {
    // The caller's own first, else the public one (one at most: a unique index).
    const [resolved] = await this.all(
      `SELECT ${COLUMNS} FROM assistants WHERE id = $2 AND (account_id = $1::bigint OR visibility = 'public')
       ORDER BY account_id = $1::bigint DESC LIMIT 1`,
      [idParam(accountId), id],
    );
    return resolved;
  }

  async list(request: PageRequest & { accountId?: number }): Promise<Page<AssistantRecord>> {
    const params = new Params();
    const where = request.accountId === undefined ? 'TRUE' : `account_id = ${params.add(idParam(request.accountId))}::bigint`;
    return pageOf(this.pool, { columns: COLUMNS, table: 'assistants', where, orderBy: `created_at, ${BY_ID}`, params }, request, toRecord);
  }

  async listUsableBy(accountId: number): Promise<AssistantRecord[]> {
    return this.all(
      `SELECT ${COLUMNS} FROM assistants a WHERE a.account_id = $1::bigint
         OR (a.visibility = 'public' AND NOT EXISTS (SELECT 1 FROM assistants o WHERE o.account_id = $1::bigint AND o.id = a.id))
       ORDER BY ${BY_ID}`,
      [idParam(accountId)],
    );
  }

  async update(accountId: number, id: string, patch: AssistantPatch, options?: AssistantWriteOptions): Promise<AssistantRecord | undefined> {
    try {
      return await inTransaction(this.pool, async (client) => {
        const current = await client.query<AssistantRow>(`SELECT ${COLUMNS} FROM assistants WHERE account_id = $1::bigint AND id = $2 FOR UPDATE`, [
          idParam(accountId),
          id,
        ]);
        if (!current.rows[0]) return undefined;
        const merged = { ...toRecord(current.rows[0]), ...patch };
        await takePublicId(client, options, merged.visibility, accountId, id, new Date().toISOString());
        const { rows } = await client.query<AssistantRow>(
          `UPDATE assistants SET (${WRITTEN}, updated_at) = (${WRITTEN_VALUES}, $11)
           WHERE account_id = $12 AND id = $13 RETURNING ${COLUMNS}`,
          [...toValues(merged), new Date().toISOString(), accountId, id],
        );
        return rows[0] ? toRecord(rows[0]) : undefined;
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw new AlreadyExistsError(`a public assistant ${id} exists`);
      throw error;
    }
  }

  async delete(accountId: number, id: string): Promise<boolean> {
    const { rowCount } = await this.pool.query('DELETE FROM assistants WHERE account_id = $1::bigint AND id = $2', [idParam(accountId), id]);
    return (rowCount ?? 0) > 0;
  }

  async usageSince(assistant: AssistantRecord, sinceIso: string): Promise<AssistantUsageTotals> {
    // The log names the id only: another account's request was this assistant's when it was
    // public and that account had no own assistant of the same id.
    const { rows } = await this.pool.query<AssistantUsageTotals>(
      `SELECT COUNT(*) AS requests, COALESCE(SUM(prompt_tokens), 0) AS "promptTokens",
         COALESCE(SUM(completion_tokens), 0) AS "completionTokens", COALESCE(SUM(cache_read_tokens), 0) AS "cacheReadTokens",
         COALESCE(SUM(cache_write_tokens), 0) AS "cacheWriteTokens"
       FROM usage_log u WHERE u.assistant_id = $1 AND u.created_at >= $2::timestamptz AND (u.account_id = $3
         OR ($4::boolean AND NOT EXISTS (SELECT 1 FROM assistants o WHERE o.id = $1 AND o.account_id = u.account_id)))`,
      [assistant.id, sinceIso, assistant.accountId, assistant.visibility === 'public'],
    );
    const totals = rows[0];
    if (!totals) throw new Error('an aggregate gave no row');
    return {
      requests: totals.requests,
      promptTokens: totals.promptTokens,
      completionTokens: totals.completionTokens,
      cacheReadTokens: totals.cacheReadTokens,
      cacheWriteTokens: totals.cacheWriteTokens,
    };
  }
}
