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

/** The least a completion must have for the relay to account for it and rewrite its model. */
export const OpenAiCompletionEnvelopeSchema = z
  .object({
    choices: z.array(z.unknown()),
    model: z.string().optional(),
    usage: z
      .object({ prompt_tokens: z.number(), completion_tokens: z.number() })
      .passthrough()
      .nullable()
      .optional(),
  })
  .passthrough();
export type OpenAiCompletionEnvelope = z.infer<typeof OpenAiCompletionEnvelopeSchema>;

/** A streamed event: a chunk, or an error object sent inside the stream. */
export const OpenAiStreamEventSchema = z
  .object({
    choices: z
      .array(
        z
          .object({
            index: z.number().optional(),
            delta: z
              .object({
                content: z.string().nullable().optional(),
                tool_calls: z
                  .array(z.object({ function: z.object({ arguments: z.string().optional() }).passthrough().optional() }).passthrough())
                  .nullable()
                  .optional(),
              })
              .passthrough()
              .optional(),
            finish_reason: z.string().nullable().optional(),
          })
          .passthrough(),
      )
      .optional(),
    usage: OpenAiCompletionEnvelopeSchema.shape.usage,
    error: OpenAiErrorBodySchema.shape.error.optional(),
  })
  .passthrough();
export type OpenAiStreamEvent = z.infer<typeof OpenAiStreamEventSchema>;
