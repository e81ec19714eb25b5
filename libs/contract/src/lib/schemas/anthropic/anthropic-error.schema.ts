import { z } from 'zod';

/**
 * Anthropic's error types and the HTTP status each comes with (docs: "HTTP errors"; the SDK adds
 * `billing_error`, `timeout_error` and `conflict_error`). An error body may carry a type not
 * listed here: Anthropic says the list grows.
 */
export const ANTHROPIC_ERROR_STATUS = {
  invalid_request_error: 400,
  authentication_error: 401,
  billing_error: 402,
  permission_error: 403,
  not_found_error: 404,
  conflict_error: 409,
  request_too_large: 413,
  rate_limit_error: 429,
  api_error: 500,
  timeout_error: 504,
  overloaded_error: 529,
} as const;
export type AnthropicErrorType = keyof typeof ANTHROPIC_ERROR_STATUS;

export const AnthropicErrorObjectSchema = z.object({ type: z.string(), message: z.string() }).passthrough();
export type AnthropicErrorObject = z.infer<typeof AnthropicErrorObjectSchema>;

/** Every non-2xx answer of an Anthropic-dialect route: `{type:"error", error:{type, message}, request_id}`. */
export const AnthropicErrorResponseSchema = z
  .object({
    type: z.literal('error'),
    error: AnthropicErrorObjectSchema,
    request_id: z.string().nullable().optional(),
  })
  .passthrough();
export type AnthropicErrorResponse = z.infer<typeof AnthropicErrorResponseSchema>;
