import { z } from 'zod';
import { TimestampSchema } from './common.schema';
import { UsdStringSchema } from './money.schema';

/** How long a series may run: 31 days of hours, 366 of days (a chart, not an export). */
export const USAGE_SERIES_MAX_BUCKETS = { hour: 31 * 24, day: 366 } as const;

/**
 * `GET /api/usage`: requests, tokens, cost and errors per hour or day, in total or per model,
 * channel or token — what the console's charts draw. An account's access key sees its own
 * account only (`account_id` of another is a 403 `account_forbidden`, as in the log listing).
 */
export const UsageSeriesQuerySchema = z
  .object({
    /** Default: 24 hours (`hour`) or 30 days (`day`) before `to`; rounded down to the bucket. */
    from: TimestampSchema.optional(),
    /** Default: now; the bucket holding it is included. */
    to: TimestampSchema.optional(),
    bucket: z.enum(['hour', 'day']).default('hour'),
    group_by: z.enum(['total', 'model', 'channel', 'token']).default('total'),
    token_id: z.coerce.number().int().min(1).optional(),
    account_id: z.coerce.number().int().min(1).optional(),
    channel_id: z.coerce.number().int().min(1).optional(),
    model: z.string().trim().min(1).max(200).optional(),
  })
  .strict();
export type UsageSeriesQuery = z.infer<typeof UsageSeriesQuerySchema>;

const usageTotalsFields = {
  requests: z.number().int(),
  /** Requests that ended with a status ≥ 400 (the error rate is `errors / requests`). */
  errors: z.number().int(),
  prompt_tokens: z.number().int(),
  completion_tokens: z.number().int(),
  cost: z.number().int(),
  cost_usd: UsdStringSchema,
};

/** One bucket of one group; buckets without requests are left out. */
export const UsagePointSchema = z.object({
  /** Start of the UTC hour or day. */
  time: TimestampSchema,
  /**
   * The group: the requested model name, the channel id or the token id (as a string); `null`
   * for `group_by=total`, and for requests that had no channel or token (refused before routing).
   */
  key: z.string().nullable(),
  ...usageTotalsFields,
});
export type UsagePoint = z.infer<typeof UsagePointSchema>;

export const UsageSeriesSchema = z.object({
  from: TimestampSchema,
  to: TimestampSchema,
  bucket: z.enum(['hour', 'day']),
  group_by: z.enum(['total', 'model', 'channel', 'token']),
  /** Ordered by `time`, then `key`. */
  data: z.array(UsagePointSchema),
  totals: z.object(usageTotalsFields),
});
export type UsageSeries = z.infer<typeof UsageSeriesSchema>;
