import type pg from 'pg';
import type { AccountPatch, AccountRecord, StoredAccountStore, NewAccount, Page, PageRequest } from '../types';
import { inTransaction } from './pg-pool';
import { idParam, pageOf, Params } from './pg-rows';
import { ACCOUNT_COLUMNS as COLUMNS, accountRecordOf, accountUpdateValues, type AccountRow } from '../rows/account-row';
import { PG_CODEC } from '../rows/codec';
import { ownerLimitValues } from '../rows/owner-limits-row';

const toRecord = (row: AccountRow): AccountRecord => accountRecordOf(row, PG_CODEC);

/** Accounts in PostgreSQL, behaving as SqliteAccountStore does. */
export class PgAccountStore implements StoredAccountStore {
  constructor(private readonly pool: pg.Pool) {}

  private async one(sql: string, values: unknown[]): Promise<AccountRecord | undefined> {
    const { rows } = await this.pool.query<AccountRow>(sql, values);
    return rows[0] ? toRecord(rows[0]) : undefined;
  }

  private async inserted(sql: string, values: unknown[]): Promise<AccountRecord> {
    const record = await this.one(sql, values);
    if (!record) throw new Error('INSERT … RETURNING gave no row');
    return record;
  }

  async findByKeyDigest(digest: string): Promise<AccountRecord | undefined> {
    return this.one(`SELECT ${COLUMNS} FROM accounts WHERE access_key_digest = $1`, [digest]);
  }

  async createUser(name: string): Promise<AccountRecord> {
    return this.inserted(`INSERT INTO accounts (name, role, created_at) VALUES ($1, 'user', $2) RETURNING ${COLUMNS}`, [
      name,
      new Date().toISOString(),
    ]);
  }

  async create(input: NewAccount): Promise<AccountRecord> {
    return this.inserted(
      `INSERT INTO accounts (name, role, status, quota_limit, access_key_digest, key_hint, created_at, periodic_limits, time_zone,
         alert_thresholds)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8::jsonb, $9, $10::jsonb) RETURNING ${COLUMNS}`,
      [
        input.name,
        input.role,
        input.status,
        input.quotaLimit,
        input.keyDigest,
        input.keyHint,
        new Date().toISOString(),
        ...ownerLimitValues(input.limits ?? {}),
      ],
    );
  }

  async get(id: number): Promise<AccountRecord | undefined> {
    return this.one(`SELECT ${COLUMNS} FROM accounts WHERE id = $1::bigint`, [idParam(id)]);
  }

  async list(request: PageRequest): Promise<Page<AccountRecord>> {
    return pageOf(this.pool, { columns: COLUMNS, table: 'accounts', where: 'TRUE', orderBy: 'id', params: new Params() }, request, toRecord);
  }

  async update(id: number, patch: AccountPatch): Promise<AccountRecord | undefined> {
    return inTransaction(this.pool, async (client) => {
      // Locked until the write: a quota reservation landing meanwhile is not overwritten.
      const current = await client.query<AccountRow>(`SELECT ${COLUMNS} FROM accounts WHERE id = $1::bigint FOR UPDATE`, [idParam(id)]);
      if (!current.rows[0]) return undefined;
      const { rows } = await client.query<AccountRow>(
        `UPDATE accounts SET name = $1, role = $2, status = $3, quota_limit = $4, quota_used = $5, periodic_limits = $6::jsonb,
           time_zone = $7, alert_thresholds = $8::jsonb
         WHERE id = $9 RETURNING ${COLUMNS}`,
        [...accountUpdateValues(toRecord(current.rows[0]), patch), id],
      );
      return rows[0] ? toRecord(rows[0]) : undefined;
    });
  }

  /** Its tokens, assistants, stored responses, tasks and their reservations go with it (ON DELETE CASCADE), as on SQLite. */
  async delete(id: number): Promise<boolean> {
    const { rowCount } = await this.pool.query('DELETE FROM accounts WHERE id = $1::bigint', [idParam(id)]);
    return (rowCount ?? 0) > 0;
  }

  async findAdmin(): Promise<AccountRecord | undefined> {
    return this.one(`SELECT ${COLUMNS} FROM accounts WHERE role = 'admin' ORDER BY id LIMIT 1`, []);
  }

  async createAdmin(keyDigest: string): Promise<AccountRecord> {
    return this.inserted(
      `INSERT INTO accounts (name, role, access_key_digest, created_at) VALUES ('admin', 'admin', $1, $2) RETURNING ${COLUMNS}`,
      [keyDigest, new Date().toISOString()],
    );
  }

  async setKeyDigest(accountId: number, keyDigest: string): Promise<void> {
    await this.pool.query('UPDATE accounts SET access_key_digest = $1 WHERE id = $2::bigint', [keyDigest, idParam(accountId)]);
  }

  async findAdminKeyHash(): Promise<{ account: AccountRecord; keyHash: string } | undefined> {
    const { rows } = await this.pool.query<AccountRow & { access_key_digest: string | null }>(
      `SELECT ${COLUMNS}, access_key_digest FROM accounts WHERE role = 'admin' ORDER BY id LIMIT 1`,
    );
    const row = rows[0];
    return row && row.access_key_digest !== null ? { account: toRecord(row), keyHash: row.access_key_digest } : undefined;
  }

  async replaceKeyHash(accountId: number, expected: string, next: string): Promise<boolean> {
    const { rowCount } = await this.pool.query('UPDATE accounts SET access_key_digest = $1 WHERE id = $2::bigint AND access_key_digest = $3', [
      next,
      idParam(accountId),
      expected,
    ]);
    return (rowCount ?? 0) > 0;
  }
}
