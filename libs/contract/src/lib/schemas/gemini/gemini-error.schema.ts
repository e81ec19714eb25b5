import { z } from 'zod';

/**
 * The canonical google.rpc codes Gemini answers with, and the HTTP status each comes with
 * (https://cloud.google.com/apis/design/errors#handling_errors).
 */
export const GEMINI_ERROR_STATUS = {
  INVALID_ARGUMENT: 400,
  FAILED_PRECONDITION: 400,
  OUT_OF_RANGE: 400,
  UNAUTHENTICATED: 401,
  PERMISSION_DENIED: 403,
  NOT_FOUND: 404,
  ABORTED: 409,
  ALREADY_EXISTS: 409,
  RESOURCE_EXHAUSTED: 429,
  CANCELLED: 499,
  INTERNAL: 500,
  UNKNOWN: 500,
  DATA_LOSS: 500,
  UNIMPLEMENTED: 501,
  UNAVAILABLE: 503,
  DEADLINE_EXCEEDED: 504,
} as const;
export type GeminiErrorStatus = keyof typeof GEMINI_ERROR_STATUS;

/** `{code, message, status, details}`: a google.rpc.Status, also sent as a `data:` event inside a stream. */
export const GeminiErrorObjectSchema = z
  .object({
    code: z.number().int(),
    message: z.string(),
    status: z.string(),
    details: z.array(z.record(z.unknown())).optional(),
  })
  .passthrough();
export type GeminiErrorObject = z.infer<typeof GeminiErrorObjectSchema>;

/** Every non-2xx answer of a Gemini-dialect route. */
export const GeminiErrorResponseSchema = z.object({ error: GeminiErrorObjectSchema }).passthrough();
export type GeminiErrorResponse = z.infer<typeof GeminiErrorResponseSchema>;
