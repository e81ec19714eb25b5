import { z } from 'zod';
import { TimestampSchema } from './common.schema';
import { UsdStringSchema } from './money.schema';

/**
 * Periodic limits (issue 32): beside the lifetime quota, a token or an account may be limited per
 * calendar day, week (Monday first) or month, in a time zone, on cost (micro-USD), requests and
 * tokens (prompt + completion), several at once. A window starts empty by its key: no job resets it.
 */
export const LimitPeriodSchema = z.enum(['day', 'week', 'month']);
export type LimitPeriod = z.infer<typeof LimitPeriodSchema>;

export const LimitMetricSchema = z.enum(['cost', 'requests', 'tokens']);
export type LimitMetric = z.infer<typeof LimitMetricSchema>;

/** One periodic limit as set: `limit` is micro-USD for `cost`, a count for `requests` and `tokens`. */
export const PeriodicLimitSchema = z
  .object({
    period: LimitPeriodSchema,
    metric: LimitMetricSchema,
    limit: z.number().int().positive().max(Number.MAX_SAFE_INTEGER),
  })
  .strict();
export type PeriodicLimit = z.infer<typeof PeriodicLimitSchema>;

/** The periodic limits of a token or an account: at most one per period and metric; `[]` = none. */
export const PeriodicLimitsSchema = z
  .array(PeriodicLimitSchema)
  .max(9)
  .superRefine((limits, ctx) => {
    const seen = new Set<string>();
    limits.forEach((limit, index) => {
      const key = `${limit.period}/${limit.metric}`;
      if (seen.has(key)) ctx.addIssue({ code: z.ZodIssueCode.custom, path: [index], message: `a second ${limit.period} limit on ${limit.metric}` });
      seen.add(key);
    });
  });

/** Whether `zone` is an IANA time zone this Node knows (`Europe/Paris`, `UTC`). */
export function isTimeZone(zone: string): boolean {
  // The default, answered without ICU: asking Intl about any zone maps ~7 MB of its time zone
  // and locale data into the process, which a relay whose limits all count in UTC never needs.
  if (zone === 'UTC') return true;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** An IANA time zone name: where a day, week and month of the limits start. */
export const TimeZoneSchema = z
  .string()
  .trim()
  .min(1)
  .max(64)
  .refine(isTimeZone, { message: 'must be an IANA time zone, e.g. UTC or Europe/Paris' });

/** Alert thresholds, in percent of a limit (lifetime quota or window): 50, 80, 100. */
export const AlertThresholdsSchema = z.array(z.number().int().min(1).max(100)).max(10);

/** One periodic limit as read back: what its current window has used and when it resets. */
export const LimitWindowSchema = z.object({
  period: LimitPeriodSchema,
  metric: LimitMetricSchema,
  limit: z.number().int(),
  used: z.number().int(),
  remaining: z.number().int(),
  /** For `cost`: the same amounts in USD; null for the other metrics. */
  limit_usd: UsdStringSchema.nullable(),
  used_usd: UsdStringSchema.nullable(),
  /** The time zone the window is counted in (the owner's, else the relay's default). */
  time_zone: z.string(),
  /** The current window: [starts_at, resets_at). */
  starts_at: TimestampSchema,
  resets_at: TimestampSchema,
});
export type LimitWindow = z.infer<typeof LimitWindowSchema>;

/** The fields a token and an account carry for periodic limits and alerts, as shown. */
export const limitFields = {
  periodic_limits: z.array(PeriodicLimitSchema),
  /** null: the relay's default (RELAY_LIMITS_TIME_ZONE, UTC when unset). */
  time_zone: z.string().nullable(),
  /** null: the relay's default (RELAY_ALERT_THRESHOLDS). */
  alert_thresholds: z.array(z.number().int()).nullable(),
  /** The current window of each periodic limit. */
  windows: z.array(LimitWindowSchema),
};

/** The same fields as set on create, PATCH or a batch update (each optional). */
export const limitInputFields = {
  periodic_limits: PeriodicLimitsSchema.optional(),
  time_zone: TimeZoneSchema.nullable().optional(),
  alert_thresholds: AlertThresholdsSchema.nullable().optional(),
};
