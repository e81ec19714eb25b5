import type Database from 'better-sqlite3';
import type { AccountPatch, AccountRecord, StoredAccountStore, NewAccount, Page, PageRequest } from '../types';
import { ACCOUNT_COLUMNS as COLUMNS, accountRecordOf, accountUpdateValues, type AccountRow } from '../rows/account-row';
import { SQLITE_CODEC } from '../rows/codec';
import { ownerLimitValues } from '../rows/owner-limits-row';

const toRecord = (row: AccountRow): AccountRecord => accountRecordOf(row, SQLITE_CODEC);

export class SqliteAccountStore implements StoredAccountStore {
  private readonly byDigest: Database.Statement<[string], AccountRow>;

  constructor(private readonly db: Database.Database) {
    this.byDigest = db.prepare(`SELECT ${COLUMNS} FROM accounts WHERE access_key_digest = ?`);
  }

  async findByKeyDigest(digest: string): Promise<AccountRecord | undefined> {
    const row = this.byDigest.get(digest);
    return row ? toRecord(row) : undefined;
  }

  async createUser(name: string): Promise<AccountRecord> {
    const row = this.db
      .prepare(`INSERT INTO accounts (name, role, created_at) VALUES (?, 'user', ?) RETURNING ${COLUMNS}`)
      .get(name, new Date().toISOString()) as AccountRow;
    return toRecord(row);
  }

  async create(input: NewAccount): Promise<AccountRecord> {
    const row = this.db
      .prepare(
        `INSERT INTO accounts (name, role, status, quota_limit, access_key_digest, key_hint, created_at, periodic_limits, time_zone,
           alert_thresholds)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING ${COLUMNS}`,
      )
      .get(
        input.name,
        input.role,
        input.status,
        input.quotaLimit,
        input.keyDigest,
        input.keyHint,
        new Date().toISOString(),
        ...ownerLimitValues(input.limits ?? {}),
      ) as AccountRow;
    return toRecord(row);
  }

  async get(id: number): Promise<AccountRecord | undefined> {
    const row = this.db.prepare(`SELECT ${COLUMNS} FROM accounts WHERE id = ?`).get(id) as AccountRow | undefined;
    return row ? toRecord(row) : undefined;
  }

  async list(request: PageRequest): Promise<Page<AccountRecord>> {
    const total = (this.db.prepare('SELECT COUNT(*) AS n FROM accounts').get() as { n: number }).n;
    const rows = this.db
      .prepare(`SELECT ${COLUMNS} FROM accounts ORDER BY id LIMIT ? OFFSET ?`)
      .all(request.perPage, (request.page - 1) * request.perPage) as AccountRow[];
    return { rows: rows.map(toRecord), total };
  }

  async update(id: number, patch: AccountPatch): Promise<AccountRecord | undefined> {
    return this.db.transaction(() => {
      const current = this.db.prepare(`SELECT ${COLUMNS} FROM accounts WHERE id = ?`).get(id) as AccountRow | undefined;
      if (!current) return undefined;
      const row = this.db
        .prepare(
          `UPDATE accounts SET name = ?, role = ?, status = ?, quota_limit = ?, quota_used = ?, periodic_limits = ?, time_zone = ?,
             alert_thresholds = ?
           WHERE id = ? RETURNING ${COLUMNS}`,
        )
        .get(...accountUpdateValues(toRecord(current), patch), id) as AccountRow;
      return toRecord(row);
    })();
  }

  /** Stored responses, tasks and the reservations those hold go by ON DELETE CASCADE (foreign keys are on). */
  async delete(id: number): Promise<boolean> {
    return this.db.transaction(() => {
      this.db.prepare('DELETE FROM assistants WHERE account_id = ?').run(id);
      this.db.prepare('DELETE FROM tokens WHERE account_id = ?').run(id);
      return this.db.prepare('DELETE FROM accounts WHERE id = ?').run(id).changes > 0;
    })();
  }

  async findAdmin(): Promise<AccountRecord | undefined> {
    const row = this.db.prepare(`SELECT ${COLUMNS} FROM accounts WHERE role = 'admin' ORDER BY id LIMIT 1`).get() as
      | AccountRow
      | undefined;
    return row ? toRecord(row) : undefined;
  }

  async createAdmin(keyDigest: string): Promise<AccountRecord> {
    const row = this.db
      .prepare(
        `INSERT INTO accounts (name, role, access_key_digest, created_at) VALUES ('admin', 'admin', ?, ?) RETURNING ${COLUMNS}`,
      )
      .get(keyDigest, new Date().toISOString()) as AccountRow;
    return toRecord(row);
  }

  async setKeyDigest(accountId: number, keyDigest: string): Promise<void> {
    this.db.prepare('UPDATE accounts SET access_key_digest = ? WHERE id = ?').run(keyDigest, accountId);
  }

  async findAdminKeyHash(): Promise<{ account: AccountRecord; keyHash: string } | undefined> {
    const row = this.db.prepare(`SELECT ${COLUMNS}, access_key_digest FROM accounts WHERE role = 'admin' ORDER BY id LIMIT 1`).get() as (AccountRow & { access_key_digest: string | null }) | undefined;
    return row && row.access_key_digest !== null ? { account: toRecord(row), keyHash: row.access_key_digest } : undefined;
  }

  async replaceKeyHash(accountId: number, expected: string, next: string): Promise<boolean> {
    return this.db.prepare('UPDATE accounts SET access_key_digest = ? WHERE id = ? AND access_key_digest = ?').run(next, accountId, expected).changes > 0;
  }
}
