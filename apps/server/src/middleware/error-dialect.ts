import type { Request } from 'express';
import { routeMetadata } from './route-metadata';

/** Which error shape a request is answered in. */
export type ErrorDialect = 'openai' | 'anthropic';

/**
 * The route's dialect (contract metadata); a route both dialects share (the model list) answers
 * in Anthropic's shape when the request carries `anthropic-version`, as Anthropic's SDKs send it.
 * Unknown routes answer in OpenAI's shape.
 */
export function errorDialectOf(req: Request): ErrorDialect {
  const metadata = routeMetadata(req);
  if (metadata?.dialect === 'anthropic') return 'anthropic';
  if (metadata?.dialect === 'negotiated' && req.headers['anthropic-version'] !== undefined) return 'anthropic';
  return 'openai';
}
