import type { AccountPatch, AccountRecord } from '../types';
import type { RowCodec } from './codec';
import { definedOnly, ownerLimitsOf, ownerLimitValues, type OwnerLimitColumns } from './owner-limits-row';

/** An `accounts` row as both backends read it. */
export interface AccountRow extends OwnerLimitColumns {
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
export const ACCOUNT_COLUMNS = 'id, name, role, status, quota_limit, quota_used, key_hint, created_at, periodic_limits, time_zone, alert_thresholds';

export const accountRecordOf = (row: AccountRow, codec: RowCodec): AccountRecord => ({
  id: row.id,
  name: row.name,
  role: row.role,
  status: row.status,
  quotaLimit: row.quota_limit,
  quotaUsed: row.quota_used,
  keyHint: row.key_hint,
  createdAt: row.created_at,
  ...ownerLimitsOf(row, codec),
});

/**
 * `patch` merged into the account, as the values of `UPDATE accounts SET name, role, status,
 * quota_limit, quota_used, periodic_limits, time_zone, alert_thresholds`.
 */
export function accountUpdateValues(record: AccountRecord, patch: AccountPatch): Array<string | number | null> {
  const merged = { ...record, ...definedOnly(patch) };
  return [merged.name, merged.role, merged.status, merged.quotaLimit, merged.quotaUsed, ...ownerLimitValues(merged)];
}
