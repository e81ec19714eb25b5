import { z } from 'zod';

/** A prompt-cache breakpoint, on a block, a tool, a system text block or the whole request. */
export const AnthropicCacheControlSchema = z
  .object({ type: z.literal('ephemeral'), ttl: z.enum(['5m', '1h']).optional() })
  .passthrough();
export type AnthropicCacheControl = z.infer<typeof AnthropicCacheControlSchema>;

/** How request objects carry it: optional, and `null` is accepted like an absent field. */
export const optionalCacheControl = () => AnthropicCacheControlSchema.nullable().optional();
