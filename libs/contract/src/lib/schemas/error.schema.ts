import { z } from 'zod';

/** The OpenAI error body: every non-2xx answer of the relay has this shape (SPEC §9). */
export const ErrorBodySchema = z
  .object({
    message: z.string(),
    type: z.string(),
    param: z.string().nullable(),
    code: z.string().nullable(),
  })
  .passthrough();
export type ErrorBody = z.infer<typeof ErrorBodySchema>;

export const ErrorResponseSchema = z.object({ error: ErrorBodySchema }).passthrough();
export type ErrorResponse = z.infer<typeof ErrorResponseSchema>;
