import { z } from 'zod';

/** A price for a model name or glob, in micro-USD per million tokens (SPEC §8). */
export const PriceSchema = z
  .object({
    model: z.string().trim().min(1).max(200),
    input: z.number().int().nonnegative().max(1_000_000_000_000),
    output: z.number().int().nonnegative().max(1_000_000_000_000),
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
