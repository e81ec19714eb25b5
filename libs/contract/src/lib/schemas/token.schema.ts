import { z } from 'zod';
import { pageOf, PageQuerySchema, TimestampSchema } from './common.schema';

export const TokenStatusSchema = z.enum(['active', 'disabled', 'expired', 'exhausted']);
export type TokenStatus = z.infer<typeof TokenStatusSchema>;

export const RateLimitSchema = z.object({
  rpm: z.number().int().positive().nullable(),
  tpm: z.number().int().positive().nullable(),
});

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
  models: z.array(z.string()).nullable(),
  allowed_ips: z.array(z.string()).nullable(),
  rate_limit: RateLimitSchema.nullable(),
  created_at: TimestampSchema,
  last_used_at: TimestampSchema.nullable(),
});
export type Token = z.infer<typeof TokenSchema>;

export const TokenCreateSchema = z.object({ name: z.string().trim().min(1).max(200) }).strict();
export type TokenCreate = z.infer<typeof TokenCreateSchema>;

export const TokenCreatedSchema = TokenSchema.extend({
  /** `sk-` + 48 base62 characters. Only this response ever carries it. */
  key: z.string(),
});
export type TokenCreated = z.infer<typeof TokenCreatedSchema>;

export const TokenListQuerySchema = PageQuerySchema.extend({ status: TokenStatusSchema.optional() }).strict();
export const TokenPageSchema = pageOf(TokenSchema);
