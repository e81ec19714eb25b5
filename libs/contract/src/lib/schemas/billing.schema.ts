import { z } from 'zod';
import { AccountSchema } from './account.schema';
import { TokenSchema } from './token.schema';

/** `GET /api/account`: the caller's account, and its token when an API token asks. */
export const AccountInfoSchema = z.object({
  account: AccountSchema,
  token: TokenSchema.nullable(),
  /** What the caller may still spend (micro-USD): the smaller of token and account; null = unlimited. */
  quota_remaining: z.number().int().nullable(),
});
export type AccountInfo = z.infer<typeof AccountInfoSchema>;

/** The legacy shape chat UIs read to show a balance (`GET /v1/dashboard/billing/subscription`). */
export const BillingSubscriptionSchema = z.object({
  object: z.literal('billing_subscription'),
  has_payment_method: z.boolean(),
  soft_limit_usd: z.number(),
  hard_limit_usd: z.number(),
  system_hard_limit_usd: z.number(),
  access_until: z.number().int(),
});

/** `GET /v1/dashboard/billing/usage`: `total_usage` in US cents, as OpenAI's legacy API had it. */
export const BillingUsageSchema = z.object({ object: z.literal('list'), total_usage: z.number() });

export const BillingUsageQuerySchema = z
  .object({
    start_date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/).optional(),
    end_date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/).optional(),
  })
  .strict();
