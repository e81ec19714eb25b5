import type Database from 'better-sqlite3';
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
import { SQLITE_CODEC } from '../rows/codec';
import { assistantColumns as toColumns, assistantRecordOf, type AssistantRow } from '../rows/assistant-row';

const toRecord = (row: AssistantRow): AssistantRecord => assistantRecordOf(row, SQLITE_CODEC);

const isUniqueViolation = (error: unknown): boolean => {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'SQLITE_CONSTRAINT_PRIMARYKEY' || code === 'SQLITE_CONSTRAINT_UNIQUE';
};

export class SqliteAssistantStore implements AssistantStore {
  private readonly owned: Database.Statement<[number, string], AssistantRow>;
  private readonly resolved: Database.Statement<{ account: number; id: string }, AssistantRow>;
  private readonly publicWithId: Database.Statement<[string], AssistantRow>;
  private readonly makeOthersPrivate: Database.Statement<{ id: string; account: number; now: string }>;

  constructor(private readonly db: Database.Database) {
    this.owned = db.prepare('SELECT * FROM assistants WHERE account_id = ? AND id = ?');
    // The caller's own first, else the public one (one at most: a unique index).
    this.resolved = db.prepare(
      `SELECT * FROM assistants WHERE id = :id AND (account_id = :account OR visibility = 'public')
       ORDER BY account_id = :account DESC LIMIT 1`,
    );
    this.publicWithId = db.prepare("SELECT * FROM assistants WHERE id = ? AND visibility = 'public'");
    this.makeOthersPrivate = db.prepare(
      "UPDATE assistants SET visibility = 'private', updated_at = :now WHERE id = :id AND visibility = 'public' AND account_id <> :account",
    );
  }

  /** `takePublicId` for a public `visibility`: another account's public assistant of `id` becomes private. */
  private takePublicId(options: AssistantWriteOptions | undefined, visibility: AssistantRecord['visibility'], accountId: number, id: string): void {
    if (options?.takePublicId && visibility === 'public') this.makeOthersPrivate.run({ id, account: accountId, now: new Date().toISOString() });
  }

  async create(input: NewAssistant, options?: AssistantWriteOptions): Promise<AssistantRecord> {
    const now = new Date().toISOString();
    try {
      return this.db.transaction(() => this.insert(input, now, options))();
    } catch (error) {
      if (isUniqueViolation(error)) throw new AlreadyExistsError(`assistant ${input.id} exists`);
      throw error;
    }
  }

  /** In the caller's transaction: a failed insert takes nothing back from anyone. */
  private insert(input: NewAssistant, now: string, options: AssistantWriteOptions | undefined): AssistantRecord {
    this.takePublicId(options, input.visibility, input.accountId, input.id);
    const publicOne = this.publicWithId.get(input.id);
    if (publicOne && publicOne.account_id !== input.accountId) {
      throw new AlreadyExistsError(`a public assistant ${input.id} exists`);
    }
    const row = this.db
      .prepare(
        `INSERT INTO assistants (id, account_id, name, description, instructions, tools, temperature, top_p,
           max_tokens, response_format, models, visibility, created_at, updated_at)
         VALUES (:id, :account_id, :name, :description, :instructions, :tools, :temperature, :top_p,
           :max_tokens, :response_format, :models, :visibility, :now, :now)
         RETURNING *`,
      )
      .get({ ...toColumns(input), id: input.id, account_id: input.accountId, now }) as AssistantRow;
    return toRecord(row);
  }

  async getOwned(accountId: number, id: string): Promise<AssistantRecord | undefined> {
    const row = this.owned.get(accountId, id);
    return row ? toRecord(row) : undefined;
  }

  async findById(id: string): Promise<AssistantRecord[]> {
    const rows = this.db.prepare('SELECT * FROM assistants WHERE id = ? ORDER BY account_id').all(id) as AssistantRow[];
    return rows.map(toRecord);
  }

  async resolveFor(accountId: number, id: string): Promise<AssistantRecord | undefined> {
    const row = this.resolved.get({ account: accountId, id });
    return row ? toRecord(row) : undefined;
  }

  async list(request: PageRequest & { accountId?: number }): Promise<Page<AssistantRecord>> {
    const where = request.accountId === undefined ? '1 = 1' : 'account_id = :account';
    const params = request.accountId === undefined ? {} : { account: request.accountId };
    const total = (this.db.prepare(`SELECT COUNT(*) AS n FROM assistants WHERE ${where}`).get(params) as { n: number }).n;
    const rows = this.db
      .prepare(`SELECT * FROM assistants WHERE ${where} ORDER BY created_at, id LIMIT :limit OFFSET :offset`)
      .all({ ...params, limit: request.perPage, offset: (request.page - 1) * request.perPage }) as AssistantRow[];
    return { rows: rows.map(toRecord), total };
  }

  async listUsableBy(accountId: number): Promise<AssistantRecord[]> {
    const rows = this.db
      .prepare(
        `SELECT * FROM assistants a WHERE a.account_id = :account
           OR (a.visibility = 'public' AND NOT EXISTS (SELECT 1 FROM assistants o WHERE o.account_id = :account AND o.id = a.id))
         ORDER BY a.id`,
      )
      .all({ account: accountId }) as AssistantRow[];
    return rows.map(toRecord);
  }

  async update(accountId: number, id: string, patch: AssistantPatch, options?: AssistantWriteOptions): Promise<AssistantRecord | undefined> {
    try {
      return this.db.transaction(() => {
        const current = this.owned.get(accountId, id);
        if (!current) return undefined;
        const merged = { ...toRecord(current), ...patch };
        this.takePublicId(options, merged.visibility, accountId, id);
        const row = this.db
          .prepare(
            `UPDATE assistants SET name = :name, description = :description, instructions = :instructions,
               tools = :tools, temperature = :temperature, top_p = :top_p, max_tokens = :max_tokens,
               response_format = :response_format, models = :models, visibility = :visibility, updated_at = :now
             WHERE account_id = :account AND id = :id RETURNING *`,
          )
          .get({ ...toColumns(merged), account: accountId, id, now: new Date().toISOString() }) as AssistantRow;
        return toRecord(row);
      })();
    } catch (error) {
      if (isUniqueViolation(error)) throw new AlreadyExistsError(`a public assistant ${id} exists`);
      throw error;
    }
  }

  async delete(accountId: number, id: string): Promise<boolean> {
    return this.db.prepare('DELETE FROM assistants WHERE account_id = ? AND id = ?').run(accountId, id).changes > 0;
  }

  async usageSince(assistant: AssistantRecord, sinceIso: string): Promise<AssistantUsageTotals> {
    // The log names the id only: another account's request was this assistant's when it was
    // public and that account had no own assistant of the same id.
    const row = this.db
      .prepare(
        `SELECT COUNT(*) AS requests, COALESCE(SUM(prompt_tokens), 0) AS prompt, COALESCE(SUM(completion_tokens), 0) AS completion,
           COALESCE(SUM(cache_read_tokens), 0) AS cacheRead, COALESCE(SUM(cache_write_tokens), 0) AS cacheWrite
         FROM usage_log u WHERE u.assistant_id = :id AND u.created_at >= :since AND (u.account_id = :owner
           OR (:public = 1 AND NOT EXISTS (SELECT 1 FROM assistants o WHERE o.id = :id AND o.account_id = u.account_id)))`,
      )
      .get({
        id: assistant.id,
        since: sinceIso,
        owner: assistant.accountId,
        public: assistant.visibility === 'public' ? 1 : 0,
      }) as { requests: number; prompt: number; completion: number; cacheRead: number; cacheWrite: number };
    return {
      requests: row.requests,
      promptTokens: row.prompt,
      completionTokens: row.completion,
      cacheReadTokens: row.cacheRead,
      cacheWriteTokens: row.cacheWrite,
    };
  }
}
