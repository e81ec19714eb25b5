import type { RouteMetadata } from '@chat-relay/contract';
import { invalidRequest } from '@chat-relay/wire';
import type { Request, RequestHandler, Response } from 'express';
import { assertQuotaLeft, assertModelServed } from '../channels/admit-model';
import { assertIpAllowed, assertModelAllowed, enforceRateLimits, type InFlightSlot } from '../policy/enforce-token-policy';
import type { RateLimiter } from '../policy/rate-limiter';
import type { ChannelRegistry } from '../channels/channel-registry';
import type { AccountStore, TokenRecord } from '../storage/types';
import type { BodyReader } from './json-body';
import { requestedModel } from './requested-model';
import { matchedRoute, metadataOf } from './route-metadata';

export interface TokenAdmissionDeps {
  rateLimiter: RateLimiter;
  registry: ChannelRegistry;
  accounts: AccountStore;
  /** Reads (never parses) the body: the model a JSON body names is found by its scan. */
  readBody: BodyReader;
}

/** Routes whose requests are never charged (a count of tokens): no quota needs to be left for them. */
const NEVER_CHARGED = new Set(['/v1/messages/count_tokens']);

/**
 * The one place an API token's policy is decided, for every route of the contract it may call
 * (`auth: 'token'` or `'self'`) — relayed or not, stored-object reads and deletes included — right
 * after authentication (which refused expired and disabled keys) and before the body is parsed:
 *
 * 1. the client address against the token's allow-list (before the body is even read);
 * 2. the model the request names (read from the body's scan, the URL or the route's default)
 *    against the token's model allow-list;
 * 3. `concurrency` — a slot held until the response closes — then `rpm` and `tpm`; refusals by
 *    the allow-lists above have not used any up;
 * 4. for a large JSON body, read but not parsed yet, the model's admission: some channel serves
 *    it, and the token and its account have quota left at all — so that such a body costs little
 *    when it is refused (a small one is parsed already; routing and the reservation check both).
 *
 * The pipeline re-checks only the model allow-list, against the parsed body.
 */
export function admitToken(deps: TokenAdmissionDeps): RequestHandler {
  return (req, res, next) => {
    const route = matchedRoute(req);
    const metadata = metadataOf(route);
    const caller = res.locals.caller;
    if (caller?.kind !== 'token' || !metadata || (metadata.auth !== 'token' && metadata.auth !== 'self')) return next();
    admit(deps, req, res, caller.token, metadata, route?.path ?? '').then(() => next(), next);
  };
}

async function admit(deps: TokenAdmissionDeps, req: Request, res: Response, token: TokenRecord, metadata: RouteMetadata, path: string): Promise<void> {
  const trace = res.locals.trace;
  // Read once: Express works `req.ip` out again (trust-proxy walk) on every read.
  const clientIp = req.ip;
  if (trace) trace.clientIp = clientIp ?? null;
  assertIpAllowed(token, clientIp);
  await deps.readBody(req, res);
  const model = requestedModel(req, res, metadata);
  // No model has one, and PostgreSQL's text cannot hold it: refused before it reaches a usage row.
  if (model?.includes('\u0000')) throw invalidRequest("'model' must not contain the NUL character (U+0000).", 'model', 'invalid_value');
  if (trace && model !== undefined) trace.requestedModel = model;
  if (model !== undefined) assertModelAllowed(token, model);
  const slot: InFlightSlot = { releaseSlot: null };
  const state = token.rateLimit?.concurrency != null ? watchClose(res) : undefined;
  const limiting = enforceRateLimits(deps.rateLimiter, token, state && slot);
  res.set(limiting instanceof Promise ? await limiting : limiting);
  if (state) releaseOnClose(res, state, slot);
  // A large body not parsed yet is worth refusing first; a small one was parsed already, and the
  // pipeline's routing and reservation say the same a moment later without this extra work.
  if (model === undefined || !res.locals.jsonScan) return;
  await assertModelServed(deps.registry, model, metadata.endpoint ?? 'chat');
  if (!NEVER_CHARGED.has(path)) await assertQuotaLeft(deps.accounts, token);
}

/** Whether the response has closed, watched from now on. */
function watchClose(res: Response): { closed: boolean } {
  // A caller that left while the body was read: its socket is gone already.
  const state = { closed: res.destroyed || res.req.socket.destroyed };
  res.once('close', () => (state.closed = true));
  return state;
}

/**
 * Gives a concurrency slot back once: as the answer's last bytes are handed over ('prefinish'; they
 * leave on the next tick, so the caller cannot see the end and send its next request before the
 * slot is back), or when the response closes without finishing — at once if it already has (the
 * caller left during the checks).
 */
function releaseOnClose(res: Response, state: { closed: boolean }, slot: InFlightSlot): void {
  const release = slot.releaseSlot;
  if (!release) return;
  if (state.closed) return release();
  let released = false;
  const once = () => {
    if (released) return;
    released = true;
    release();
  };
  res.once('prefinish', once);
  res.once('close', once);
}
