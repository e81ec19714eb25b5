import type { RequestHandler } from 'express';
import { authenticationError, permissionError, RelayError } from '../errors/relay-error';
import { digestKey } from '../security/keys';
import type { AccountStore, TokenStore } from '../storage/types';
import { routeMetadata } from './route-metadata';

const BEARER = /^Bearer[ \t]+(\S+)[ \t]*$/i;

export interface AuthDeps {
  tokens: TokenStore;
  accounts: AccountStore;
}

/**
 * Checks `Authorization: Bearer <key>` against what the route's contract metadata asks for
 * (SPEC §4). The key is read from the header only, hashed, and never logged or echoed.
 */
export function bearerAuth(deps: AuthDeps): RequestHandler {
  return (req, res, next) => {
    const required = routeMetadata(req)?.auth ?? 'admin';
    if (required === 'none') return next();
    const match = BEARER.exec(req.headers.authorization ?? '');
    if (!match?.[1]) {
      return next(
        authenticationError(
          'invalid_api_key',
          "You didn't provide an API key. Send it in an Authorization header using Bearer auth (Authorization: Bearer YOUR_KEY).",
        ),
      );
    }
    const digest = digestKey(match[1]);
    const check = required === 'token' ? authenticateToken(deps, digest) : authenticateAdmin(deps, digest);
    check.then(
      (caller) => {
        res.locals.caller = caller;
        next();
      },
      (error: unknown) => next(error),
    );
  };
}

const incorrectKey = () => authenticationError('invalid_api_key', 'Incorrect API key provided.');

async function authenticateToken(deps: AuthDeps, digest: string) {
  const token = await deps.tokens.findByKeyDigest(digest);
  if (!token) throw incorrectKey();
  if (token.status === 'disabled') throw authenticationError('token_disabled', 'This API key has been disabled.');
  if (token.expiresAt !== null && token.expiresAt <= new Date().toISOString()) {
    throw authenticationError('token_expired', 'This API key has expired.');
  }
  if (token.status === 'exhausted') {
    throw new RelayError({
      status: 429,
      type: 'insufficient_quota',
      code: 'insufficient_quota',
      message: 'This API key has no quota left.',
    });
  }
  return { kind: 'token' as const, token };
}

async function authenticateAdmin(deps: AuthDeps, digest: string) {
  const account = await deps.accounts.findByKeyDigest(digest);
  if (account?.role === 'admin' && account.status === 'active') return { kind: 'admin' as const, account };
  if (account || (await deps.tokens.findByKeyDigest(digest))) {
    throw permissionError('admin_key_required', 'This route needs the admin key.');
  }
  throw incorrectKey();
}
