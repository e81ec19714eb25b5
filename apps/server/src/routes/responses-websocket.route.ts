import type { RequestHandler } from 'express';
import { pendingUpgradeOf } from '../dialects/responses/websocket/responses-websockets';
import { bearerAuth, type AuthDeps } from '../middleware/bearer-auth';
import { serverShuttingDown } from '../pipeline/stream/open-streams';
import { assertIpAllowed } from '../policy/enforce-token-policy';

/**
 * The app's side of a Responses WebSocket upgrade, on `GET /v1/responses` (issue 29): a request
 * that is not a pending upgrade passes on (to the usual 404); one is authenticated as an API
 * token like the POST, its address checked against the token's allow-list, then upgraded. Rate
 * limits, concurrency and the model's policy are decided per `response.create`, each an ordinary
 * request.
 */
export function acceptResponsesWebSocket(auth: AuthDeps, draining: () => boolean): RequestHandler {
  const authenticate = bearerAuth(auth, 'token');
  return (req, res, next) => {
    const upgrade = pendingUpgradeOf(req);
    if (!upgrade) return next();
    if (draining()) return next(serverShuttingDown());
    authenticate(req, res, (error?: unknown) => {
      if (error !== undefined) return next(error);
      const caller = res.locals.caller;
      try {
        if (caller?.kind === 'token') assertIpAllowed(caller.token, req.ip);
      } catch (refused) {
        return next(refused);
      }
      upgrade();
    });
  };
}
