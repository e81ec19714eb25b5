import { z } from 'zod';

export const UsageSchema = z
  .object({
    prompt_tokens: z.number().int().nonnegative(),
    completion_tokens: z.number().int().nonnegative(),
    total_tokens: z.number().int().nonnegative(),
    prompt_tokens_details: z.record(z.unknown()).nullable().optional(),
    completion_tokens_details: z.record(z.unknown()).nullable().optional(),
  })
  .passthrough();
export type Usage = z.infer<typeof UsageSchema>;
