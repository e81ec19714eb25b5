import { ErrorResponseSchema } from './schemas/error.schema';

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
 * Who may call a route; read by the server's auth middleware from the route's metadata.
 * - `token`: an API token (`/v1/*`);
 * - `self`: an API token or a management key, about the caller itself (account, models, billing);
 * - `management`: the admin key (everything) or an account's access key (its own records);
 * - `admin`: the admin key only.
 */
export type RouteAuth = 'none' | 'token' | 'self' | 'management' | 'admin';
export interface RouteMetadata {
  auth: RouteAuth;
  /** The route may answer with `text/event-stream` (when the request asks for it). */
  streaming?: boolean;
}
export const meta = (metadata: RouteMetadata): RouteMetadata => metadata;
