import { z } from 'zod';
import { pageOf, PageQuerySchema, TimestampSchema } from './common.schema';
import { IpRangeSchema } from './ip-range.schema';
import { limitFields, limitInputFields } from './limits.schema';
import { MicroUsdSchema, UsdStringSchema } from './money.schema';

export const TokenStatusSchema = z.enum(['active', 'disabled', 'expired', 'exhausted']);
export type TokenStatus = z.infer<typeof TokenStatusSchema>;

const rateLimitFields = {
  /** Requests per minute. */
  rpm: z.number().int().positive().max(1_000_000).nullable(),
  /** Tokens (prompt + completion) per minute. */
  tpm: z.number().int().positive().max(1_000_000_000).nullable(),
  /** Requests of this token in flight at once. */
  concurrency: z.number().int().positive().max(100_000).nullable(),
};

/** A token's rate limits as shown: every kind present, null = no limit of that kind. */
export const RateLimitSchema = z.object(rateLimitFields).strict();
export type RateLimit = z.infer<typeof RateLimitSchema>;

/**
 * Rate limits as set on create, PATCH or batch update: each kind is optional. On create an absent
 * kind is no limit; on update it keeps its current value, and null removes it.
 */
export const RateLimitInputSchema = z
  .object({
    rpm: rateLimitFields.rpm.optional(),
    tpm: rateLimitFields.tpm.optional(),
    concurrency: rateLimitFields.concurrency.optional(),
  })
  .strict();
export type RateLimitInput = z.infer<typeof RateLimitInputSchema>;

/** An API token as the system API shows it (SPEC §4); the key itself is shown once, on create. */
export const TokenSchema = z.object({
  id: z.number().int(),
  account_id: z.number().int(),
  name: z.string(),
  status: TokenStatusSchema,
  key_hint: z.string(),
  expires_at: TimestampSchema.nullable(),
  /** Micro-USD; null = unlimited. */
  quota_limit: z.number().int().nullable(),
  quota_used: z.number().int(),
  quota_limit_usd: UsdStringSchema.nullable(),
  quota_used_usd: UsdStringSchema,
  models: z.array(z.string()).nullable(),
  allowed_ips: z.array(z.string()).nullable(),
  rate_limit: RateLimitSchema.nullable(),
  ...limitFields,
  created_at: TimestampSchema,
  last_used_at: TimestampSchema.nullable(),
});
export type Token = z.infer<typeof TokenSchema>;

/** The policy fields a token carries (SPEC §4), as set on create or PATCH. */
const tokenPolicyFields = {
  name: z.string().trim().min(1).max(200),
  status: z.enum(['active', 'disabled']),
  expires_at: TimestampSchema.nullable(),
  quota_limit: MicroUsdSchema.nullable(),
  /** Model names or globs (`gpt-4o*`, `*-gizmo-*`); null = every model. */
  models: z.array(z.string().trim().min(1).max(200)).max(1000).nullable(),
  /** Client addresses or CIDR ranges, IPv4 or IPv6; null = any. */
  allowed_ips: z.array(IpRangeSchema).min(1).max(1000).nullable(),
  rate_limit: RateLimitInputSchema.nullable(),
  periodic_limits: limitInputFields.periodic_limits.unwrap(),
  time_zone: limitInputFields.time_zone.unwrap(),
  alert_thresholds: limitInputFields.alert_thresholds.unwrap(),
};

export const TokenCreateSchema = z
  .object({
    ...tokenPolicyFields,
    status: tokenPolicyFields.status.optional(),
    expires_at: tokenPolicyFields.expires_at.optional(),
    quota_limit: tokenPolicyFields.quota_limit.optional(),
    models: tokenPolicyFields.models.optional(),
    allowed_ips: tokenPolicyFields.allowed_ips.optional(),
    rate_limit: tokenPolicyFields.rate_limit.optional(),
    ...limitInputFields,
    /** The owner; only the admin key may name another account than its own. */
    account_id: z.number().int().positive().optional(),
  })
  .strict();
export type TokenCreate = z.infer<typeof TokenCreateSchema>;

export const TokenUpdateSchema = z
  .object({ ...tokenPolicyFields, quota_used: MicroUsdSchema })
  .partial()
  .strict()
  .refine((update) => Object.keys(update).length > 0, 'must change at least one field');
export type TokenUpdate = z.infer<typeof TokenUpdateSchema>;

export const TokenBatchSchema = z
  .object({
    ids: z.array(z.number().int().positive()).min(1).max(1000),
    action: z.enum(['enable', 'disable', 'delete', 'update']),
    update: TokenUpdateSchema.optional(),
  })
  .strict()
  .refine((batch) => (batch.action === 'update') === (batch.update !== undefined), {
    message: "'update' is required with action 'update' and not allowed otherwise",
    path: ['update'],
  });
export type TokenBatch = z.infer<typeof TokenBatchSchema>;

export const TokenBatchResultSchema = z.object({
  action: z.enum(['enable', 'disable', 'delete', 'update']),
  results: z.array(
    z.object({
      id: z.number().int(),
      status: z.enum(['ok', 'not_found']),
      /** The token after the change (absent when deleted or not found). */
      token: z.lazy(() => TokenSchema).optional(),
    }),
  ),
});

export const TokenSearchQuerySchema = PageQuerySchema.extend({ q: z.string().trim().min(1).max(200) }).strict();

export const TokenUsageQuerySchema = z
  .object({
    from: TimestampSchema.optional(),
    to: TimestampSchema.optional(),
    group_by: z.enum(['day', 'model']).default('day'),
  })
  .strict();

export const UsageBucketSchema = z.object({
  /** The day (`YYYY-MM-DD`, UTC) or the requested model name. */
  key: z.string(),
  requests: z.number().int(),
  prompt_tokens: z.number().int(),
  completion_tokens: z.number().int(),
  /** Of `prompt_tokens`, those read from and written to the provider's prompt cache. */
  cache_read_tokens: z.number().int(),
  cache_write_tokens: z.number().int(),
  cost: z.number().int(),
  cost_usd: UsdStringSchema,
});
export type UsageBucket = z.infer<typeof UsageBucketSchema>;

export const TokenUsageSchema = z.object({
  token_id: z.number().int(),
  from: TimestampSchema,
  to: TimestampSchema,
  group_by: z.enum(['day', 'model']),
  data: z.array(UsageBucketSchema),
  total: UsageBucketSchema.omit({ key: true }),
});

export const TokenCreatedSchema = TokenSchema.extend({
  /** `sk-` + 48 base62 characters. Only this response ever carries it. */
  key: z.string(),
});
export type TokenCreated = z.infer<typeof TokenCreatedSchema>;

export const TokenListQuerySchema = PageQuerySchema.extend({
  status: TokenStatusSchema.optional(),
  account_id: z.coerce.number().int().min(1).optional(),
}).strict();
export const TokenPageSchema = pageOf(TokenSchema);
