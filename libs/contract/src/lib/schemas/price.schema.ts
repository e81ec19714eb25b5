import { z } from 'zod';

const perMillionTokens = z.number().int().nonnegative().max(1_000_000_000_000);

/**
 * A price for a model name or glob, in micro-USD per million tokens (SPEC §8). Prompt tokens
 * read from or written to the provider's prompt cache have prices of their own (Anthropic bills
 * a 5-minute cache write at 1.25 × input and a read at 0.1 ×; OpenAI and Gemini a cached read
 * at a fraction of input); `null` or absent, they cost what `input` costs.
 */
export const PriceSchema = z
  .object({
    model: z.string().trim().min(1).max(200),
    input: perMillionTokens,
    output: perMillionTokens,
    cache_read: perMillionTokens.nullable().optional(),
    cache_write: perMillionTokens.nullable().optional(),
  })
  .strict();
export type Price = z.infer<typeof PriceSchema>;

/** The whole table; the first entry whose name or glob matches a model prices it. */
export const PriceTableSchema = z
  .object({ data: z.array(PriceSchema).max(10_000) })
  .strict()
  .refine((table) => new Set(table.data.map((price) => price.model)).size === table.data.length, {
    message: 'each model may appear once',
    path: ['data'],
  });
export type PriceTable = z.infer<typeof PriceTableSchema>;
