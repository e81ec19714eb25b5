import { z } from 'zod';

/** Numeric resource id in a path (`/api/tokens/:id`). */
export const IdParamSchema = z.object({
  // Only plain decimal digits: `Number()` alone would also take '0x10' or '1e3'.
  id: z.preprocess(
    (value) => (typeof value === 'string' && /^[0-9]{1,15}$/.test(value) ? Number(value) : value),
    z.number({ invalid_type_error: 'must be a positive whole number' }).int().min(1),
  ),
});

export const PageQuerySchema = z
  .object({
    // Bounded: the offset it makes must stay a safe integer for the database (1e300 passed and gave a 500).
    page: z.coerce.number().int().min(1).max(1_000_000).default(1),
    per_page: z.coerce.number().int().min(1).max(100).default(20),
  })
  .strict();

export const pageOf = <T extends z.ZodTypeAny>(item: T) =>
  z.object({
    data: z.array(item),
    total: z.number().int().nonnegative(),
    page: z.number().int().positive(),
    per_page: z.number().int().positive(),
  });

/** Timestamps are ISO 8601 strings in UTC. */
export const TimestampSchema = z.string().datetime();

/** Whether the database answered, and how fast. */
export const DatabaseHealthSchema = z.object({
  kind: z.enum(['sqlite', 'postgres']),
  status: z.enum(['ok', 'unavailable']),
  latency_ms: z.number().nullable(),
});
/** Whether Redis answered; `not_configured` for one instance on its own (no REDIS_URL). */
export const RedisHealthSchema = z.object({
  status: z.enum(['ok', 'unavailable', 'not_configured']),
  latency_ms: z.number().nullable(),
  /** What limits do while Redis is away (RELAY_REDIS_FAILURE_MODE); null without Redis. */
  failure_mode: z.enum(['open', 'closed']).nullable(),
});
/**
 * `ok`: everything answers; `degraded`: the database answers, Redis does not (limits follow the
 * failure mode, caches refresh on their timer); `unavailable`: the database does not answer.
 */
export const HealthSchema = z.object({
  status: z.enum(['ok', 'degraded', 'unavailable']),
  version: z.string(),
  uptime_s: z.number(),
  database: DatabaseHealthSchema,
  redis: RedisHealthSchema,
});
export type Health = z.infer<typeof HealthSchema>;
/** Health, and whether a load balancer should send this instance requests now (and why not). */
export const ReadinessSchema = HealthSchema.extend({
  ready: z.boolean(),
  reasons: z.array(z.string()),
});
export type Readiness = z.infer<typeof ReadinessSchema>;
