import type Database from 'better-sqlite3';
import type { TokenStatus } from '@chat-relay/contract';
import type {
  NewToken,
  Page,
  PageRequest,
  TokenBatchAction,
  TokenBatchOutcome,
  TokenListRequest,
  TokenPatch,
  TokenRecord,
  TokenStore,
} from '../types';
import { SQLITE_CODEC } from '../rows/codec';
import {
  TOKEN_COLUMNS as COLUMNS,
  tokenAccountColumnsOf,
  tokenColumnsOf,
  tokenInsertValues,
  tokenRecordOf,
  tokenUpdateValues,
  tokenWithAccountOf,
  type TokenAccountColumns as AccountColumns,
  type TokenRow,
} from '../rows/token-row';

const toRecord = (row: TokenRow): TokenRecord => tokenRecordOf(row, SQLITE_CODEC);

/**
 * SQL for "shows as status X at time :now". Shown status: disabled (an admin's word) first, then
 * expired, then exhausted (quota used up), else active — as `tokenView` computes it.
 */
function statusFilter(status: TokenStatus | undefined): string {
  const live = '(expires_at IS NULL OR expires_at > :now)';
  const exhausted = '(quota_limit IS NOT NULL AND quota_used >= quota_limit)';
  switch (status) {
    case undefined:
      return '1 = 1';
    case 'disabled':
      return "status = 'disabled'";
    case 'expired':
      return `status != 'disabled' AND NOT ${live}`;
    case 'exhausted':
      return `status != 'disabled' AND ${live} AND ${exhausted}`;
    case 'active':
      return `status != 'disabled' AND ${live} AND NOT ${exhausted}`;
    default: {
      const exhaustive: never = status;
      return exhaustive;
    }
  }
}

export class SqliteTokenStore implements TokenStore {
  private readonly byDigest: Database.Statement<[string], TokenRow & AccountColumns>;
  private readonly byId: Database.Statement<[number], TokenRow>;

  constructor(private readonly db: Database.Database) {
    // One read on the auth path: the token and what policy needs of its account.
    this.byDigest = db.prepare(
      `SELECT ${tokenColumnsOf('t')},
         ${tokenAccountColumnsOf('a')}
       FROM tokens t JOIN accounts a ON a.id = t.account_id WHERE t.key_digest = ?`,
    );
    this.byId = db.prepare(`SELECT ${COLUMNS} FROM tokens WHERE id = ?`);
  }

  async create(input: NewToken): Promise<TokenRecord> {
    const row = this.db
      .prepare(
        `INSERT INTO tokens (account_id, name, key_digest, key_hint, status, expires_at, quota_limit, models,
           allowed_ips, rate_limit, created_at, periodic_limits, time_zone, alert_thresholds)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING ${COLUMNS}`,
      )
      .get(...tokenInsertValues(input, new Date().toISOString())) as TokenRow;
    return toRecord(row);
  }

  async update(id: number, patch: TokenPatch): Promise<TokenRecord | undefined> {
    return this.db.transaction(() => this.updateNow(id, patch))();
  }

  async search(request: PageRequest & { q: string; accountId?: number }): Promise<Page<TokenRecord>> {
    const where = `(instr(lower(name), lower(:q)) > 0 OR instr(lower(key_hint), lower(:q)) > 0)${
      request.accountId === undefined ? '' : ' AND account_id = :account'
    }`;
    const params = { q: request.q, account: request.accountId ?? null };
    return this.page(where, params, request);
  }

  async batch(
    ids: readonly number[],
    action: TokenBatchAction,
    patch: TokenPatch | undefined,
    accountId?: number,
  ): Promise<TokenBatchOutcome[]> {
    return this.db.transaction(() =>
      [...new Set(ids)].map((id): TokenBatchOutcome => {
        const current = this.byId.get(id);
        if (!current || (accountId !== undefined && current.account_id !== accountId)) return { id, status: 'not_found' };
        if (action === 'delete') {
          this.db.prepare('DELETE FROM tokens WHERE id = ?').run(id);
          return { id, status: 'ok' };
        }
        const change: TokenPatch =
          action === 'enable' ? { status: 'active' } : action === 'disable' ? { status: 'disabled' } : (patch ?? {});
        return { id, status: 'ok', token: this.updateNow(id, change) };
      }),
    )();
  }

  /** Inside a transaction: merge the patch into the row and write it back. */
  private updateNow(id: number, patch: TokenPatch): TokenRecord | undefined {
    const current = this.byId.get(id);
    if (!current) return undefined;
    const row = this.db
      .prepare(
        `UPDATE tokens SET name = ?, status = ?, expires_at = ?, quota_limit = ?, quota_used = ?, models = ?,
           allowed_ips = ?, rate_limit = ?, periodic_limits = ?, time_zone = ?, alert_thresholds = ?
         WHERE id = ? RETURNING ${COLUMNS}`,
      )
      .get(...tokenUpdateValues(toRecord(current), patch), id) as TokenRow;
    return toRecord(row);
  }

  private page(where: string, params: Record<string, unknown>, request: PageRequest): Page<TokenRecord> {
    const total = (this.db.prepare(`SELECT COUNT(*) AS n FROM tokens WHERE ${where}`).get(params) as { n: number }).n;
    const rows = this.db
      .prepare(`SELECT ${COLUMNS} FROM tokens WHERE ${where} ORDER BY id LIMIT :limit OFFSET :offset`)
      .all({ ...params, limit: request.perPage, offset: (request.page - 1) * request.perPage }) as TokenRow[];
    return { rows: rows.map(toRecord), total };
  }

  async get(id: number): Promise<TokenRecord | undefined> {
    const row = this.byId.get(id);
    return row ? toRecord(row) : undefined;
  }

  async findByKeyDigest(digest: string): Promise<TokenRecord | undefined> {
    const row = this.byDigest.get(digest);
    return row ? tokenWithAccountOf(row, SQLITE_CODEC) : undefined;
  }

  async list(request: TokenListRequest): Promise<Page<TokenRecord>> {
    const where = `${statusFilter(request.status)}${request.accountId === undefined ? '' : ' AND account_id = :account'}`;
    const params = { now: request.now, status: request.status ?? null, account: request.accountId ?? null };
    return this.page(where, params, request);
  }

  async delete(id: number): Promise<boolean> {
    return this.db.prepare('DELETE FROM tokens WHERE id = ?').run(id).changes > 0;
  }

  async touchLastUsed(lastUsed: ReadonlyMap<number, string>): Promise<void> {
    const update = this.db.prepare(
      'UPDATE tokens SET last_used_at = ? WHERE id = ? AND (last_used_at IS NULL OR last_used_at < ?)',
    );
    this.db.transaction(() => {
      for (const [id, at] of lastUsed) update.run(at, id, at);
    })();
  }
}
