import { z } from 'zod';
import { pageOf, TimestampSchema } from './common.schema';
import { limitFields, limitInputFields } from './limits.schema';
import { MicroUsdSchema, UsdStringSchema } from './money.schema';

export const AccountRoleSchema = z.enum(['admin', 'user']);
export const AccountStatusSchema = z.enum(['active', 'disabled']);

/**
 * What an account keeps of the Responses API (`store`): its unexpired responses and the bytes of
 * their JSON, with the bounds the relay keeps it within (RELAY_RESPONSES_MAX_PER_ACCOUNT,
 * RELAY_RESPONSES_MAX_BYTES_PER_ACCOUNT) — storing past either removes its oldest first.
 */
export const StoredResponsesUsageSchema = z.object({
  count: z.number().int(),
  bytes: z.number().int(),
  max_count: z.number().int(),
  max_bytes: z.number().int(),
});
export type StoredResponsesUsage = z.infer<typeof StoredResponsesUsageSchema>;

export const AccountSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  role: AccountRoleSchema,
  status: AccountStatusSchema,
  /** Micro-USD; null = unlimited. */
  quota_limit: MicroUsdSchema.nullable(),
  quota_used: z.number().int(),
  quota_limit_usd: UsdStringSchema.nullable(),
  quota_used_usd: UsdStringSchema,
  ...limitFields,
  /** Last characters of the account's access key for `/api/*`. */
  key_hint: z.string().nullable(),
  stored_responses: StoredResponsesUsageSchema,
  created_at: TimestampSchema,
});
export type Account = z.infer<typeof AccountSchema>;

export const AccountCreateSchema = z
  .object({
    name: z.string().trim().min(1).max(200),
    role: AccountRoleSchema.optional(),
    status: AccountStatusSchema.optional(),
    quota_limit: MicroUsdSchema.nullable().optional(),
    ...limitInputFields,
  })
  .strict();
export type AccountCreate = z.infer<typeof AccountCreateSchema>;

/** The new account and its access key, shown this once. */
export const AccountCreatedSchema = AccountSchema.extend({ access_key: z.string() });

export const AccountUpdateSchema = z
  .object({
    name: z.string().trim().min(1).max(200),
    role: AccountRoleSchema,
    status: AccountStatusSchema,
    quota_limit: MicroUsdSchema.nullable(),
    /** Reset what was spent (e.g. a new billing period). */
    quota_used: MicroUsdSchema,
    periodic_limits: limitInputFields.periodic_limits.unwrap(),
    time_zone: limitInputFields.time_zone.unwrap(),
    alert_thresholds: limitInputFields.alert_thresholds.unwrap(),
  })
  .partial()
  .strict()
  .refine((update) => Object.keys(update).length > 0, 'must change at least one field');
export type AccountUpdate = z.infer<typeof AccountUpdateSchema>;

export const AccountPageSchema = pageOf(AccountSchema);
