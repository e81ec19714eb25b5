import { z } from 'zod';
import { pageOf, PageQuerySchema, TimestampSchema } from './common.schema';
import { UsageEndpointSchema } from './endpoint.schema';
import { UsdStringSchema } from './money.schema';

/** One relayed request (SPEC §8). Prompts and answers are never stored. */
export const LogEntrySchema = z.object({
  id: z.number().int(),
  created_at: TimestampSchema,
  request_id: z.string(),
  token_id: z.number().int().nullable(),
  account_id: z.number().int().nullable(),
  requested_model: z.string().nullable(),
  upstream_model: z.string().nullable(),
  channel_id: z.number().int().nullable(),
  assistant_id: z.string().nullable(),
  stream: z.boolean(),
  status: z.number().int(),
  error_code: z.string().nullable(),
  prompt_tokens: z.number().int(),
  completion_tokens: z.number().int(),
  /** Of `prompt_tokens`, those read from the provider's prompt cache (priced at `cache_read`). */
  cache_read_tokens: z.number().int(),
  /** Of `prompt_tokens`, those written to the provider's prompt cache (priced at `cache_write`). */
  cache_write_tokens: z.number().int(),
  /** What was asked: chat (any chat dialect), embeddings, images…; count_tokens for a token count (no model call). */
  endpoint: UsageEndpointSchema,
  /**
   * The endpoint's own unit besides tokens: images, rerank search units, speech input characters,
   * seconds of audio transcribed; for chat, the hosted tool calls a passthrough answer ran (web
   * searches, code runs …), each charged at its price per call.
   */
  units: z.number().nonnegative(),
  usage_estimated: z.boolean(),
  cost: z.number().int(),
  cost_usd: UsdStringSchema,
  latency_ms: z.number().int(),
  ttfb_ms: z.number().int().nullable(),
  client_ip: z.string().nullable(),
  attempts: z.number().int(),
  /**
   * Which price charged it, of the upstream model that served: `gpt-4o* (table)` (the price
   * table's entry), `gpt-4o (catalogue)` (the model catalogue's list price), `… (free)` (an entry
   * or the install marks it free on purpose); null when nothing was priced (refused before).
   */
  priced_by: z.string().nullable(),
  /** The models a fallback chain tried, the served one last (`claude-x>gpt-y`); null when the requested model served (issue 32). */
  fallback_path: z.string().nullable(),
});
export type LogEntry = z.infer<typeof LogEntrySchema>;

export const LogQuerySchema = PageQuerySchema.extend({
  token_id: z.coerce.number().int().min(1).optional(),
  account_id: z.coerce.number().int().min(1).optional(),
  model: z.string().trim().min(1).max(200).optional(),
  status: z.coerce.number().int().min(100).max(599).optional(),
  endpoint: UsageEndpointSchema.optional(),
  from: TimestampSchema.optional(),
  to: TimestampSchema.optional(),
}).strict();
export type LogQuery = z.infer<typeof LogQuerySchema>;

export const LogPageSchema = pageOf(LogEntrySchema);

/** `GET /api/logs/export`: the same filters as the listing, every matching row (no paging). */
export const LogExportQuerySchema = LogQuerySchema.omit({ page: true, per_page: true }).strict();
export type LogExportQuery = z.infer<typeof LogExportQuerySchema>;

/** The CSV header of `GET /api/logs/export`, in column order: every field of a log entry. */
export const LOG_CSV_COLUMNS = Object.keys(LogEntrySchema.shape) as ReadonlyArray<keyof LogEntry>;
