import { z } from 'zod';

/** The error body OpenAI-compatible servers send; lenient, since not all fill every field. */
export const OpenAiErrorBodySchema = z.object({
  error: z.union([
    z
      .object({
        message: z.string().optional(),
        type: z.string().nullable().optional(),
        code: z.union([z.string(), z.number()]).nullable().optional(),
        param: z.string().nullable().optional(),
      })
      .passthrough(),
    z.string(),
  ]),
});
export type OpenAiErrorBody = z.infer<typeof OpenAiErrorBodySchema>;
