import type { RouteAuth } from '@chat-relay/contract';
import type { Request, RequestHandler } from 'express';
import { timingSafeEqual } from 'node:crypto';
import { authenticationError, permissionError, RelayError } from '@chat-relay/wire';
import { digestKey } from '../security/keys';
import type { AccountStore, TokenRecord, TokenStore } from '../storage/types';
import type { Caller } from '../auth/caller';
import type { AuthFailureLog } from './auth-failure-log';
import { errorDialectOf, type ErrorDialect } from './error-dialect';
import { routeMetadata } from './route-metadata';

const BEARER = /^Bearer[ \t]+(\S+)[ \t]*$/i;

export interface AuthDeps {
  tokens: TokenStore;
  accounts: AccountStore;
  /** Counts refusals (401) in place of usage rows. */
  failures?: AuthFailureLog;
  /** The digest of RELAY_METRICS_TOKEN: admits `metrics` routes besides the admin key. */
  metricsTokenDigest?: string;
}

/**
 * Checks the caller's key (`Authorization: Bearer <key>`, or `x-api-key` on API-token routes;
 * on Gemini's also `x-goog-api-key` or `?key=`) against what the route's contract metadata asks
 * for (SPEC §4), or against `fixed` where no contract route matched (unknown paths answer 401
 * before 404, so they do not tell a caller without a key which routes exist). The key is read
 * from the request only here, hashed, and never logged or echoed.
 */
export function bearerAuth(deps: AuthDeps, fixed?: Exclude<RouteAuth, 'none'>): RequestHandler {
  const digestOf = digestCache();
  return (req, res, next) => {
    const required = fixed ?? routeMetadata(req)?.auth ?? 'admin';
    if (required === 'none') return next();
    const refuse = (error: unknown) => {
      if (error instanceof RelayError && error.status === 401) deps.failures?.record(error.code ?? error.type, req.ip);
      next(error);
    };
    const dialect = errorDialectOf(req);
    const key = presentedKey(req, required, dialect);
    if (!key) return refuse(authenticationError('invalid_api_key', MISSING_KEY[dialect]));
    const digest = digestOf(key);
    // A scraper's token: no caller, nothing but the metrics route.
    if (required === 'metrics' && deps.metricsTokenDigest !== undefined && sameDigest(digest, deps.metricsTokenDigest)) return next();
    const accept = (caller: Caller) => {
      res.locals.caller = caller;
      next();
    };
    let authenticated: Caller | Promise<Caller>;
    try {
      authenticated = authenticate(deps, required, digest);
    } catch (error) {
      return refuse(error);
    }
    // An API token found in memory goes on at once (most requests); a lookup is awaited.
    if (authenticated instanceof Promise) authenticated.then(accept, refuse);
    else accept(authenticated);
  };
}

const MISSING_KEY: Readonly<Record<ErrorDialect, string>> = {
  openai: "You didn't provide an API key. Send it in an Authorization header using Bearer auth (Authorization: Bearer YOUR_KEY).",
  anthropic: "You didn't provide an API key. Send it in an x-api-key header, or as Authorization: Bearer YOUR_KEY.",
  gemini: "You didn't provide an API key. Send it in an x-goog-api-key header, as the key query parameter, or as Authorization: Bearer YOUR_KEY.",
  suno: "You didn't provide an API key. Send it in an Authorization header using Bearer auth (Authorization: Bearer YOUR_KEY).",
  bedrock: "You didn't provide an API key. Send it as Authorization: Bearer YOUR_KEY (Claude Code: AWS_BEARER_TOKEN_BEDROCK).",
};

const headerKey = (value: string | string[] | undefined): string | undefined =>
  typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;

/**
 * `Authorization: Bearer <key>`; on API-token routes also `x-api-key: <key>`, the header
 * Anthropic's SDKs and Claude Code send (`ANTHROPIC_API_KEY`) — but not on the Suno-style
 * routes, whose clients (written for new-api) send Bearer only; on the Gemini routes also
 * `x-goog-api-key` (Google's SDKs) and `?key=` (Google's examples) — a key in the URL is read
 * here and nowhere else, never logged.
 */
function presentedKey(req: Request, required: Exclude<RouteAuth, 'none'>, dialect: ErrorDialect): string | undefined {
  const bearer = BEARER.exec(req.headers.authorization ?? '')?.[1];
  if (bearer || required !== 'token' || dialect === 'suno') return bearer;
  const apiKey = headerKey(req.headers['x-api-key']);
  if (apiKey || dialect !== 'gemini') return apiKey;
  const query: unknown = req.query['key'];
  return headerKey(req.headers['x-goog-api-key']) ?? (typeof query === 'string' ? headerKey(query) : undefined);
}

/** The digests remembered; past this many the cache starts afresh (a flood of new keys costs a hash each, as before). */
const DIGESTS_KEPT = 1024;

/**
 * The digest of a key seen recently: a caller sends the same key on every request, and SHA-256
 * through node:crypto costs more than the lookup. The digest is a function of the key alone, so
 * a key disabled or deleted meanwhile is still refused by the store lookup that follows.
 */
function digestCache(): (key: string) => string {
  const digests = new Map<string, string>();
  return (key) => {
    let digest = digests.get(key);
    if (digest === undefined) {
      if (digests.size >= DIGESTS_KEPT) digests.clear();
      digest = digestKey(key);
      digests.set(key, digest);
    }
    return digest;
  };
}

/** Hex digests compared in constant time: the comparison tells nothing of how much matched. */
const sameDigest = (a: string, b: string): boolean => timingSafeEqual(Buffer.from(a, 'hex'), Buffer.from(b, 'hex'));

const incorrectKey = () => authenticationError('invalid_api_key', 'Incorrect API key provided.');

/** At once, without a promise, when the token is in memory (the key cache's hit). */
function authenticateToken(deps: AuthDeps, digest: string): Caller | Promise<Caller> {
  const found = deps.tokens.findByKeyDigest(digest);
  return found instanceof Promise ? found.then(tokenCaller) : tokenCaller(found);
}

function tokenCaller(token: TokenRecord | undefined): Caller {
  if (!token) throw incorrectKey();
  if (token.status === 'disabled') throw authenticationError('token_disabled', 'This API key has been disabled.');
  if (token.account?.status === 'disabled') {
    throw authenticationError('account_disabled', 'The account of this API key has been disabled.');
  }
  if (token.expiresAt !== null && token.expiresAt <= new Date().toISOString()) {
    throw authenticationError('token_expired', 'This API key has expired.');
  }
  return { kind: 'token', token };
}

function authenticate(deps: AuthDeps, required: Exclude<RouteAuth, 'none'>, digest: string): Caller | Promise<Caller> {
  switch (required) {
    case 'token':
      return authenticateToken(deps, digest);
    case 'self':
      // A management key, or else an API token asking about itself.
      return deps.accounts
        .findByKeyDigest(digest)
        .then((account) => (account ? authenticateManagement(deps, digest) : authenticateToken(deps, digest)));
    case 'management':
      return authenticateManagement(deps, digest);
    // RELAY_METRICS_TOKEN is checked before any lookup; otherwise only the admin key.
    case 'metrics':
    case 'admin':
      return authenticateManagement(deps, digest).then((caller) => {
        if (caller.kind !== 'admin') throw permissionError('admin_key_required', 'This route needs the admin key.');
        return caller;
      });
  }
}

/** The admin key, or an active account's access key (which reaches only its own records). */
async function authenticateManagement(deps: AuthDeps, digest: string): Promise<Caller> {
  const account = await deps.accounts.findByKeyDigest(digest);
  if (account) {
    if (account.status !== 'active') throw authenticationError('account_disabled', 'This account has been disabled.');
    return account.role === 'admin' ? { kind: 'admin', account } : { kind: 'account', account };
  }
  if (await deps.tokens.findByKeyDigest(digest)) {
    throw permissionError('management_key_required', 'This route needs a management key (admin or account key), not an API token.');
  }
  throw incorrectKey();
}
