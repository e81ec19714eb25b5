import type { RequestHandler } from 'express';
import { LimitMetricSchema, LimitPeriodSchema, MODELS_TRIED_HEADER, SERVED_MODEL_HEADER } from '@chat-relay/contract';
import { permissionError } from '@chat-relay/wire';
import type { CorsOrigins } from '../core/cors-origins';


export interface CorsPolicy {
  /** `/v1/*` (RELAY_CORS_ORIGINS, default any): the bearer token is the credential, no cookies. */
  v1: CorsOrigins;
  /** `/api/*` (RELAY_CORS_API_ORIGINS, default none): the management API stays same-origin. */
  api: CorsOrigins;
}

const ALLOWED_METHODS = 'GET, POST, PATCH, PUT, DELETE, OPTIONS';
/** A periodic window's refusal headers (issue 32): `x-ratelimit-{limit,remaining,reset}-<metric>-<period>`. */
const WINDOW_HEADERS = ['limit', 'remaining', 'reset'].flatMap((what) =>
  LimitMetricSchema.options.flatMap((metric) => LimitPeriodSchema.options.map((period) => `x-ratelimit-${what}-${metric}-${period}`)),
);
/**
 * What a browser client may read of an answer: request id, rate limits and periodic windows, retry
 * hints, a download's file name, what the relay adjusted, the model that served and those tried.
 */
const EXPOSED_HEADERS = [
  'x-request-id',
  'content-disposition',
  'retry-after',
  'x-ratelimit-limit-requests',
  'x-ratelimit-remaining-requests',
  'x-ratelimit-reset-requests',
  'x-ratelimit-limit-tokens',
  'x-ratelimit-remaining-tokens',
  'x-ratelimit-reset-tokens',
  'x-relay-adjusted',
  SERVED_MODEL_HEADER,
  MODELS_TRIED_HEADER,
  ...WINDOW_HEADERS,
].join(', ');
const PREFLIGHT_MAX_AGE_SECONDS = '7200';

function allows(origins: CorsOrigins, origin: string): boolean {
  return origins === '*' || origins.includes(origin);
}

/**
 * CORS for browser chat apps (SPEC §4): preflights for `/v1/*` are answered 204 with what the
 * browser asked for, and every answer (errors included, so a 401 is readable) carries
 * `Access-Control-Allow-Origin`. Never `Allow-Credentials`: keys travel in a header, not cookies.
 * Requests without an `Origin` header — every non-browser client — pass untouched.
 */
export function cors(policy: CorsPolicy): RequestHandler {
  return (req, res, next) => {
    const origin = req.headers.origin;
    if (origin === undefined) return next();
    // Google's `/v1beta` paths are the same API-token surface as `/v1`.
    const origins = req.path.startsWith('/v1/') || req.path.startsWith('/v1beta/') ? policy.v1 : req.path.startsWith('/api/') ? policy.api : [];
    const allowed = allows(origins, origin);
    if (allowed) {
      res.setHeader('access-control-allow-origin', origins === '*' ? '*' : origin);
      res.setHeader('access-control-expose-headers', EXPOSED_HEADERS);
    }
    if (origins !== '*') res.vary('Origin');
    const preflight = req.method === 'OPTIONS' && req.headers['access-control-request-method'] !== undefined;
    if (!preflight) return next();
    if (!allowed) {
      return next(permissionError('cors_origin_not_allowed', `Browser requests from ${origin} are not allowed here.`));
    }
    res.setHeader('access-control-allow-methods', ALLOWED_METHODS);
    // SDKs add their own headers (x-stainless-*, openai-beta, anthropic-version …): allow what is asked.
    const requested = req.headers['access-control-request-headers'];
    if (requested) res.setHeader('access-control-allow-headers', requested);
    res.vary('Access-Control-Request-Headers');
    res.setHeader('access-control-max-age', PREFLIGHT_MAX_AGE_SECONDS);
    res.status(204).end();
  };
}
