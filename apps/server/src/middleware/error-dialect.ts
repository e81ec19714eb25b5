import type { Request } from 'express';
import { routeMetadata } from './route-metadata';

/** Which error shape a request is answered in. */
export type ErrorDialect = 'openai' | 'anthropic' | 'gemini' | 'suno' | 'bedrock';

/** Anthropic's own paths, and the model list both dialects share (matched as Express matches routes). */
const ANTHROPIC_PATH = /^\/v1\/messages(?:\/|$)/i;
const SHARED_PATH = /^\/v1\/models(?:\/|$)/i;
/** Google's API version root: every path under it is the Gemini dialect's. */
const GEMINI_PATH = /^\/v1beta(?:\/|$)/i;
/** new-api's Suno-style task routes: every path under it answers in new-api's task error shape. */
const SUNO_PATH = /^\/suno(?:\/|$)/i;

/**
 * The route's dialect (contract metadata); a route both dialects share (the model list) answers
 * in Anthropic's shape when the request carries `anthropic-version`, as Anthropic's SDKs send it.
 * A request no route matched (another method, a path beside the routes, a path that does not
 * decode) is told by its path the same way: under `/v1/messages` Anthropic's, under `/v1/models`
 * Anthropic's with `anthropic-version`, under `/v1beta` Google's, under `/suno` new-api's; every
 * other unknown route answers in OpenAI's shape.
 */
export function errorDialectOf(req: Request): ErrorDialect {
  const metadata = routeMetadata(req);
  const versioned = req.headers['anthropic-version'] !== undefined;
  if (metadata?.dialect === 'gemini' || metadata?.dialect === 'suno' || metadata?.dialect === 'bedrock') return metadata.dialect;
  if (metadata) return metadata.dialect === 'anthropic' || (metadata.dialect === 'negotiated' && versioned) ? 'anthropic' : 'openai';
  // Under `app.use('/v1', …)` the path is relative to the mount point: put it back together.
  const path = `${req.baseUrl}${req.path}`;
  if (GEMINI_PATH.test(path)) return 'gemini';
  if (SUNO_PATH.test(path)) return 'suno';
  return ANTHROPIC_PATH.test(path) || (SHARED_PATH.test(path) && versioned) ? 'anthropic' : 'openai';
}
