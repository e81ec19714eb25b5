import type { RouteMetadata } from '@chat-relay/contract';
import type { Request } from 'express';
import type { MatchedRoute } from '../core/matched-route';

export type { MatchedRoute };

/** The route ts-rest matched (ts-rest sets `req.tsRestRoute`); undefined for paths no route has. */
export function matchedRoute(req: Request): MatchedRoute | undefined {
  return (req as Request & { tsRestRoute?: MatchedRoute }).tsRestRoute;
}

/** A matched route's contract metadata. */
export const metadataOf = (route: MatchedRoute | undefined): RouteMetadata | undefined => route?.metadata as RouteMetadata | undefined;

/** The contract metadata of the route ts-rest matched. */
export function routeMetadata(req: Request): RouteMetadata | undefined {
  return metadataOf(matchedRoute(req));
}
