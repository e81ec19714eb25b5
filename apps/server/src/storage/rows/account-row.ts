import type { AccountRecord } from '../types';

/** An `accounts` row as both backends read it. */
export interface AccountRow {
  id: number;
  name: string;
  role: AccountRecord['role'];
  status: AccountRecord['status'];
  quota_limit: number | null;
  quota_used: number;
  key_hint: string | null;
  created_at: string;
}

/** Never the key digest: it is only ever compared, in SQL (`findAdminKeyHash` asks for it by name). */
export const ACCOUNT_COLUMNS = 'id, name, role, status, quota_limit, quota_used, key_hint, created_at';

export const accountRecordOf = (row: AccountRow): AccountRecord => ({
  id: row.id,
  name: row.name,
  role: row.role,
  status: row.status,
  quotaLimit: row.quota_limit,
  quotaUsed: row.quota_used,
  keyHint: row.key_hint,
  createdAt: row.created_at,
});
