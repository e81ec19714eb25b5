import type Database from 'better-sqlite3';
import type { AccountRecord, AccountStore } from '../types';

interface AccountRow {
  id: number;
  name: string;
  role: AccountRecord['role'];
  status: AccountRecord['status'];
  quota_limit: number | null;
  quota_used: number;
  created_at: string;
}

const toRecord = (row: AccountRow): AccountRecord => ({
  id: row.id,
  name: row.name,
  role: row.role,
  status: row.status,
  quotaLimit: row.quota_limit,
  quotaUsed: row.quota_used,
  createdAt: row.created_at,
});

export class SqliteAccountStore implements AccountStore {
  private readonly byDigest: Database.Statement<[string], AccountRow>;

  constructor(private readonly db: Database.Database) {
    this.byDigest = db.prepare('SELECT * FROM accounts WHERE access_key_digest = ?');
  }

  async findByKeyDigest(digest: string): Promise<AccountRecord | undefined> {
    const row = this.byDigest.get(digest);
    return row ? toRecord(row) : undefined;
  }

  async createUser(name: string): Promise<AccountRecord> {
    const row = this.db
      .prepare("INSERT INTO accounts (name, role, created_at) VALUES (?, 'user', ?) RETURNING *")
      .get(name, new Date().toISOString()) as AccountRow;
    return toRecord(row);
  }

  async findAdmin(): Promise<AccountRecord | undefined> {
    const row = this.db.prepare("SELECT * FROM accounts WHERE role = 'admin' ORDER BY id LIMIT 1").get() as
      | AccountRow
      | undefined;
    return row ? toRecord(row) : undefined;
  }

  async createAdmin(keyDigest: string): Promise<AccountRecord> {
    const row = this.db
      .prepare(
        "INSERT INTO accounts (name, role, access_key_digest, created_at) VALUES ('admin', 'admin', ?, ?) RETURNING *",
      )
      .get(keyDigest, new Date().toISOString()) as AccountRow;
    return toRecord(row);
  }

  async setKeyDigest(accountId: number, keyDigest: string): Promise<void> {
    this.db.prepare('UPDATE accounts SET access_key_digest = ? WHERE id = ?').run(keyDigest, accountId);
  }
}
