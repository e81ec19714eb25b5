import type { Endpoint } from './schemas/endpoint.schema';
import { AnthropicErrorResponseSchema } from './schemas/anthropic/anthropic-error.schema';
import { GeminiErrorResponseSchema } from './schemas/gemini/gemini-error.schema';
import { ErrorResponseSchema } from './schemas/error.schema';
import { SunoErrorResponseSchema } from './schemas/tasks/suno.schema';

/** Every route may answer with the OpenAI error shape (SPEC §9). */
export const commonResponses = {
  400: ErrorResponseSchema,
  401: ErrorResponseSchema,
  403: ErrorResponseSchema,
  404: ErrorResponseSchema,
  409: ErrorResponseSchema,
  413: ErrorResponseSchema,
  429: ErrorResponseSchema,
  500: ErrorResponseSchema,
  502: ErrorResponseSchema,
  503: ErrorResponseSchema,
  504: ErrorResponseSchema,
} as const;

/**
 * The error answers of the Anthropic-dialect routes, in Anthropic's shape: the statuses above,
 * plus 402 (`billing_error`) and 529 (`overloaded_error`), which Anthropic clients know.
 */
export const anthropicCommonResponses = {
  400: AnthropicErrorResponseSchema,
  401: AnthropicErrorResponseSchema,
  402: AnthropicErrorResponseSchema,
  403: AnthropicErrorResponseSchema,
  404: AnthropicErrorResponseSchema,
  409: AnthropicErrorResponseSchema,
  413: AnthropicErrorResponseSchema,
  429: AnthropicErrorResponseSchema,
  500: AnthropicErrorResponseSchema,
  502: AnthropicErrorResponseSchema,
  503: AnthropicErrorResponseSchema,
  504: AnthropicErrorResponseSchema,
  529: AnthropicErrorResponseSchema,
} as const;

/** The error answers of the Gemini-dialect routes, in Google's shape (`{error:{code,message,status}}`). */
export const geminiCommonResponses = {
  400: GeminiErrorResponseSchema,
  401: GeminiErrorResponseSchema,
  403: GeminiErrorResponseSchema,
  404: GeminiErrorResponseSchema,
  409: GeminiErrorResponseSchema,
  413: GeminiErrorResponseSchema,
  429: GeminiErrorResponseSchema,
  500: GeminiErrorResponseSchema,
  502: GeminiErrorResponseSchema,
  503: GeminiErrorResponseSchema,
  504: GeminiErrorResponseSchema,
} as const;

/** The error answers of the Suno-style task routes, in new-api's TaskError shape (`{code,message,data:null}`). */
export const sunoCommonResponses = {
  400: SunoErrorResponseSchema,
  401: SunoErrorResponseSchema,
  403: SunoErrorResponseSchema,
  404: SunoErrorResponseSchema,
  409: SunoErrorResponseSchema,
  413: SunoErrorResponseSchema,
  429: SunoErrorResponseSchema,
  500: SunoErrorResponseSchema,
  502: SunoErrorResponseSchema,
  503: SunoErrorResponseSchema,
  504: SunoErrorResponseSchema,
} as const;

/**
 * Who may call a route; read by the server's auth middleware from the route's metadata.
 * - `token`: an API token (`/v1/*`);
 * - `self`: an API token or a management key, about the caller itself (account, models, billing);
 * - `management`: the admin key (everything) or an account's access key (its own records);
 * - `admin`: the admin key only;
 * - `metrics`: the admin key, or RELAY_METRICS_TOKEN when it is set (a scraper needs no admin key).
 */
export type RouteAuth = 'none' | 'token' | 'self' | 'management' | 'admin' | 'metrics';

/**
 * The API dialect a route speaks, which decides its error shape and the auth headers it reads:
 * - `openai`: `{error:{message,type,param,code}}`, `Authorization: Bearer`;
 * - `anthropic`: `{type:"error",error:{type,message}}`, `x-api-key` (or `Authorization: Bearer`);
 * - `negotiated`: a route both dialects share (the model list), answered in Anthropic's shapes
 *   when the request carries `anthropic-version`, as Anthropic's SDKs send it, else OpenAI's;
 * - `gemini`: `{error:{code,message,status}}`, `x-goog-api-key`, `?key=` (or `Authorization: Bearer`);
 * - `suno`: new-api's task errors `{code,message,data:null}`, `Authorization: Bearer`;
 * - `bedrock`: Amazon Bedrock's errors `{message}` with `x-amzn-errortype`, `Authorization: Bearer`
 *   (a Bedrock API key) or `x-api-key`.
 */
export type RouteDialect = 'openai' | 'anthropic' | 'negotiated' | 'gemini' | 'suno' | 'bedrock';

export interface RouteMetadata {
  auth: RouteAuth;
  /**
   * The route may answer with `text/event-stream` (when the request asks for it). The server
   * also opens a usage-log row for exactly these routes: every relayed request has one.
   */
  streaming?: boolean;
  /** Which error shape and auth headers the route speaks; `openai` when absent. */
  dialect?: RouteDialect;
  /** What the route asks a model for (routing, pricing, the usage row); `chat` when absent. */
  endpoint?: Endpoint;
  /**
   * A JSON route that also takes the same fields as multipart/form-data (with files), as
   * `POST /v1/videos` does: the body is read by the request's own content type.
   */
  multipartToo?: boolean;
  /**
   * The Gemini methods (`{model}:{method}`, the path's last segment) a route serves; the routes
   * of one path share it, each taking its own methods (see the server's gemini-method-route).
   */
  geminiMethods?: readonly string[];
}
export const meta = (metadata: RouteMetadata): RouteMetadata => metadata;
