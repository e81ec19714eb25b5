import type { RouteMetadata } from '@chat-relay/contract';
import type { Request } from 'express';

/** The contract metadata of the route ts-rest matched (ts-rest sets `req.tsRestRoute`). */
export function routeMetadata(req: Request): RouteMetadata | undefined {
  const route = (req as Request & { tsRestRoute?: { metadata?: unknown } }).tsRestRoute;
  return route?.metadata as RouteMetadata | undefined;
}
