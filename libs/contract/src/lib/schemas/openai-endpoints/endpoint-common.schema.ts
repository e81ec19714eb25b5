import { z } from 'zod';

export const nullish = <T extends z.ZodTypeAny>(schema: T) => schema.nullable().optional();

/** A model name as every endpoint takes it. */
export const EndpointModelSchema = z.string().min(1).max(256);

/** Token ids, as the tokenizer of the model numbers them. */
export const TokenIdsSchema = z.array(z.number().int().nonnegative()).min(1);

/**
 * A file part of a multipart request as the server shows it to validation: the relay keeps the
 * bytes themselves (streamed to disk as they arrive) and sends them on.
 */
export const UploadedFilePartSchema = z
  .object({ filename: z.string(), content_type: z.string(), size: z.number().int().nonnegative() })
  .strict();
export type UploadedFilePart = z.infer<typeof UploadedFilePartSchema>;

/** A multipart number field: the form sends text. */
export const formNumber = (schema: z.ZodNumber) =>
  z.preprocess((value) => (typeof value === 'string' && value.trim() !== '' ? Number(value) : value), schema);

/** A multipart boolean field (`true`/`false`). */
export const formBoolean = z.preprocess((value) => (value === 'true' ? true : value === 'false' ? false : value), z.boolean());

/** `usage` as OpenAI's token-counting endpoints report it. */
export const PromptUsageSchema = z
  .object({ prompt_tokens: z.number().int(), total_tokens: z.number().int() })
  .passthrough();
