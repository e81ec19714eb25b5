import { mergeRateLimits, normaliseRateLimits, type RateLimits } from '../../core/rate-limits';
import type { NewToken, TokenPatch, TokenRecord } from '../types';
import { jsonColumn, type JsonColumn, type RowCodec } from './codec';
import { definedOnly, OWNER_LIMIT_COLUMN_NAMES, ownerLimitsOf, ownerLimitValues, type OwnerLimitColumns } from './owner-limits-row';

/** A `tokens` row as both backends read it (never the key digest: it is only compared, in SQL). */
export interface TokenRow extends OwnerLimitColumns {
  id: number;
  account_id: number;
  name: string;
  key_hint: string;
  status: TokenRecord['status'];
  expires_at: string | null;
  quota_limit: number | null;
  quota_used: number;
  models: JsonColumn<string[]> | null;
  allowed_ips: JsonColumn<string[]> | null;
  rate_limit: JsonColumn<Partial<RateLimits>> | null;
  created_at: string;
  last_used_at: string | null;
}

/** What the auth path reads of a token's account with it, by these names. */
export interface TokenAccountColumns {
  account_status: 'active' | 'disabled';
  account_quota_limit: number | null;
  account_periodic_limits: OwnerLimitColumns['periodic_limits'];
  account_time_zone: string | null;
}

/** Those columns as the auth path's join selects them from the account `alias`. */
export const tokenAccountColumnsOf = (alias: string): string =>
  `${alias}.status AS account_status, ${alias}.quota_limit AS account_quota_limit, ` +
  `${alias}.periodic_limits AS account_periodic_limits, ${alias}.time_zone AS account_time_zone`;

/** The token of an auth-path row with what it carries of its account. */
export function tokenWithAccountOf(row: TokenRow & TokenAccountColumns, codec: RowCodec): TokenRecord {
  const { periodicLimits, timeZone } = ownerLimitsOf(
    { periodic_limits: row.account_periodic_limits, time_zone: row.account_time_zone, alert_thresholds: null },
    codec,
  );
  return { ...tokenRecordOf(row, codec), account: { status: row.account_status, quotaLimit: row.account_quota_limit, periodicLimits, timeZone } };
}

export const TOKEN_COLUMN_NAMES: readonly string[] = [
  'id',
  'account_id',
  'name',
  'key_hint',
  'status',
  'expires_at',
  'quota_limit',
  'quota_used',
  'models',
  'allowed_ips',
  'rate_limit',
  'created_at',
  'last_used_at',
  ...OWNER_LIMIT_COLUMN_NAMES,
];
export const TOKEN_COLUMNS = TOKEN_COLUMN_NAMES.join(', ');

export const tokenRecordOf = (row: TokenRow, codec: RowCodec): TokenRecord => ({
  id: row.id,
  accountId: row.account_id,
  name: row.name,
  keyHint: row.key_hint,
  status: row.status,
  expiresAt: row.expires_at,
  quotaLimit: row.quota_limit,
  quotaUsed: row.quota_used,
  models: codec.json(row.models),
  allowedIps: codec.json(row.allowed_ips),
  rateLimit: normaliseRateLimits(codec.json(row.rate_limit)),
  createdAt: row.created_at,
  lastUsedAt: row.last_used_at,
  ...ownerLimitsOf(row, codec),
});

/** The columns of a query joining `tokens` as `alias` (the auth path's one read). */
export const tokenColumnsOf = (alias: string): string => TOKEN_COLUMN_NAMES.map((column) => `${alias}.${column}`).join(', ');

/**
 * A new token's values, for `INSERT INTO tokens (account_id, name, key_digest, key_hint, status,
 * expires_at, quota_limit, models, allowed_ips, rate_limit, created_at, periodic_limits, time_zone,
 * alert_thresholds)`; JSON as text.
 */
export const tokenInsertValues = (input: NewToken, createdAt: string): Array<string | number | null> => [
  input.accountId,
  input.name,
  input.keyDigest,
  input.keyHint,
  input.status ?? 'active',
  input.expiresAt ?? null,
  input.quotaLimit ?? null,
  jsonColumn(input.models),
  jsonColumn(input.allowedIps),
  jsonColumn(mergeRateLimits(null, input.rateLimit)),
  createdAt,
  ...ownerLimitValues(input),
];

/**
 * `patch` merged into the token (rate limits kind by kind), as the values of `UPDATE tokens SET
 * name, status, expires_at, quota_limit, quota_used, models, allowed_ips, rate_limit, periodic_limits,
 * time_zone, alert_thresholds`.
 */
export function tokenUpdateValues(record: TokenRecord, patch: TokenPatch): Array<string | number | null> {
  const merged = { ...record, ...definedOnly(patch), rateLimit: mergeRateLimits(record.rateLimit, patch.rateLimit) };
  return [
    merged.name,
    merged.status,
    merged.expiresAt,
    merged.quotaLimit,
    merged.quotaUsed,
    jsonColumn(merged.models),
    jsonColumn(merged.allowedIps),
    jsonColumn(merged.rateLimit),
    ...ownerLimitValues(merged),
  ];
}
