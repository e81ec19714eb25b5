import { LocalChangeFeed, type ChangeFeed } from '../core/change-feed';
import type { AccountStore, Storage, TokenRecord, TokenStore } from './types';

export interface TokenKeyCacheOptions {
  /** Longest a looked-up token is trusted without asking the database again. */
  maxAgeMs?: number;
  /** Entries kept; the oldest go first. Unknown keys are never cached. */
  maxEntries?: number;
}

interface Entry {
  token: TokenRecord;
  expiresAt: number;
}

/**
 * Remembers tokens found by key digest, so that authenticating a request costs a map lookup and
 * no database read (SPEC §4 runs on every request). Any change to tokens or accounts made
 * through this storage empties the cache at once, and publishes `tokens` on the change feed so
 * that every other instance empties its own (issue 15); `maxAgeMs` bounds how long a change
 * whose message was lost can go unseen.
 */
class TokenKeyCache {
  private readonly entries = new Map<string, Entry>();
  /** Bumped by every change, so that a lookup racing a change does not cache the old row. */
  private generation = 0;

  constructor(
    private readonly lookup: (digest: string) => TokenRecord | undefined | Promise<TokenRecord | undefined>,
    private readonly maxAgeMs: number,
    private readonly maxEntries: number,
  ) {}

  /** A fresh hit at once, without a promise: every request of a key but its first in `maxAgeMs`. */
  find(digest: string): TokenRecord | undefined | Promise<TokenRecord | undefined> {
    const now = Date.now();
    const hit = this.entries.get(digest);
    if (hit && hit.expiresAt > now) return hit.token;
    if (hit) this.entries.delete(digest);
    return this.lookUp(digest, now);
  }

  private async lookUp(digest: string, now: number): Promise<TokenRecord | undefined> {
    const generation = this.generation;
    const token = await this.lookup(digest);
    if (token && generation === this.generation) {
      if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
      this.entries.set(digest, { token, expiresAt: now + this.maxAgeMs });
    }
    return token;
  }

  invalidate(): void {
    this.generation += 1;
    this.entries.clear();
  }
}

/** Runs `change`, then has every instance forget its cached tokens (also when it failed half-way). */
function invalidating<Args extends unknown[], Result>(
  changes: ChangeFeed,
  change: (...args: Args) => Promise<Result>,
): (...args: Args) => Promise<Result> {
  return (...args) => change(...args).finally(() => changes.publish('tokens'));
}

function cachedTokens(tokens: TokenStore, cache: TokenKeyCache, changes: ChangeFeed): TokenStore {
  return {
    create: invalidating(changes, (input) => tokens.create(input)),
    get: (id) => tokens.get(id),
    findByKeyDigest: (digest) => cache.find(digest),
    list: (request) => tokens.list(request),
    search: (request) => tokens.search(request),
    update: invalidating(changes, (id, patch) => tokens.update(id, patch)),
    batch: invalidating(changes, (ids, action, patch, accountId) => tokens.batch(ids, action, patch, accountId)),
    delete: invalidating(changes, (id) => tokens.delete(id)),
    // Only `lastUsedAt` changes, which authentication does not read.
    touchLastUsed: (lastUsed) => tokens.touchLastUsed(lastUsed),
  };
}

/** A token carries its account's status and quota limit, so account changes count too. */
function accountsInvalidating(accounts: AccountStore, changes: ChangeFeed): AccountStore {
  return {
    createUser: (name) => accounts.createUser(name),
    create: (input) => accounts.create(input),
    get: (id) => accounts.get(id),
    list: (request) => accounts.list(request),
    update: invalidating(changes, (id, patch) => accounts.update(id, patch)),
    delete: invalidating(changes, (id) => accounts.delete(id)),
    findByKeyDigest: (digest) => accounts.findByKeyDigest(digest),
    findAdmin: () => accounts.findAdmin(),
    createAdmin: (digest) => accounts.createAdmin(digest),
    setKeyDigest: invalidating(changes, (accountId, digest) => accounts.setKeyDigest(accountId, digest)),
    findAdminKeyHash: () => accounts.findAdminKeyHash(),
    replaceKeyHash: invalidating(changes, (accountId, expected, next) => accounts.replaceKeyHash(accountId, expected, next)),
    setAdminKey: invalidating(changes, (digest) => accounts.setAdminKey(digest)),
  };
}

/**
 * `storage` with token lookups by key served from memory (see TokenKeyCache), emptied when
 * `changes` carries `tokens` — from this instance's writes or another's.
 */
export function withTokenKeyCache(storage: Storage, options: TokenKeyCacheOptions = {}, changes: ChangeFeed = new LocalChangeFeed()): Storage {
  const cache = new TokenKeyCache(
    (digest) => storage.tokens.findByKeyDigest(digest),
    options.maxAgeMs ?? 10_000,
    options.maxEntries ?? 50_000,
  );
  const unsubscribe = changes.subscribe('tokens', () => cache.invalidate());
  return {
    ...storage,
    tokens: cachedTokens(storage.tokens, cache, changes),
    accounts: accountsInvalidating(storage.accounts, changes),
    close: async () => {
      unsubscribe();
      await storage.close();
    },
  };
}
