import type Database from 'better-sqlite3';
import type { TokenStatus } from '@chat-relay/contract';
import type { NewToken, Page, PageRequest, TokenRecord, TokenStore } from '../types';
import { fromJsonColumn } from './json-column';

interface TokenRow {
  id: number;
  account_id: number;
  name: string;
  key_hint: string;
  status: TokenRecord['status'];
  expires_at: string | null;
  quota_limit: number | null;
  quota_used: number;
  models: string | null;
  allowed_ips: string | null;
  rate_limit: string | null;
  created_at: string;
  last_used_at: string | null;
}

const COLUMNS =
  'id, account_id, name, key_hint, status, expires_at, quota_limit, quota_used, models, allowed_ips, rate_limit, created_at, last_used_at';

const toRecord = (row: TokenRow): TokenRecord => ({
  id: row.id,
  accountId: row.account_id,
  name: row.name,
  keyHint: row.key_hint,
  status: row.status,
  expiresAt: row.expires_at,
  quotaLimit: row.quota_limit,
  quotaUsed: row.quota_used,
  models: fromJsonColumn<string[]>(row.models),
  allowedIps: fromJsonColumn<string[]>(row.allowed_ips),
  rateLimit: fromJsonColumn<TokenRecord['rateLimit']>(row.rate_limit),
  createdAt: row.created_at,
  lastUsedAt: row.last_used_at,
});

/** SQL for "shows as status X at time :now" — `expired` is derived from `expires_at`. */
function statusFilter(status: TokenStatus | undefined): string {
  const live = '(expires_at IS NULL OR expires_at > :now)';
  switch (status) {
    case undefined:
      return '1 = 1';
    case 'expired':
      return 'NOT ' + live;
    case 'active':
    case 'disabled':
    case 'exhausted':
      return `status = :status AND ${live}`;
    default: {
      const exhaustive: never = status;
      return exhaustive;
    }
  }
}

export class SqliteTokenStore implements TokenStore {
  private readonly byDigest: Database.Statement<[string], TokenRow>;
  private readonly byId: Database.Statement<[number], TokenRow>;

  constructor(private readonly db: Database.Database) {
    this.byDigest = db.prepare(`SELECT ${COLUMNS} FROM tokens WHERE key_digest = ?`);
    this.byId = db.prepare(`SELECT ${COLUMNS} FROM tokens WHERE id = ?`);
  }

  async create(input: NewToken): Promise<TokenRecord> {
    const row = this.db
      .prepare(
        `INSERT INTO tokens (account_id, name, key_digest, key_hint, created_at)
         VALUES (?, ?, ?, ?, ?) RETURNING ${COLUMNS}`,
      )
      .get(input.accountId, input.name, input.keyDigest, input.keyHint, new Date().toISOString()) as TokenRow;
    return toRecord(row);
  }

  async get(id: number): Promise<TokenRecord | undefined> {
    const row = this.byId.get(id);
    return row ? toRecord(row) : undefined;
  }

  async findByKeyDigest(digest: string): Promise<TokenRecord | undefined> {
    const row = this.byDigest.get(digest);
    return row ? toRecord(row) : undefined;
  }

  async list(request: PageRequest & { status?: TokenStatus; now: string }): Promise<Page<TokenRecord>> {
    const where = statusFilter(request.status);
    const params = { now: request.now, status: request.status ?? null };
    const total = (this.db.prepare(`SELECT COUNT(*) AS n FROM tokens WHERE ${where}`).get(params) as { n: number }).n;
    const rows = this.db
      .prepare(`SELECT ${COLUMNS} FROM tokens WHERE ${where} ORDER BY id LIMIT :limit OFFSET :offset`)
      .all({ ...params, limit: request.perPage, offset: (request.page - 1) * request.perPage }) as TokenRow[];
    return { rows: rows.map(toRecord), total };
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
