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
 * through this storage empties the cache at once; `maxAgeMs` bounds how long a change made
 * elsewhere (another process on the same database) can go unseen.
 */
class TokenKeyCache {
  private readonly entries = new Map<string, Entry>();
  /** Bumped by every change, so that a lookup racing a change does not cache the old row. */
  private generation = 0;

  constructor(
    private readonly lookup: (digest: string) => Promise<TokenRecord | undefined>,
    private readonly maxAgeMs: number,
    private readonly maxEntries: number,
  ) {}

  async find(digest: string): Promise<TokenRecord | undefined> {
    const now = Date.now();
    const hit = this.entries.get(digest);
    if (hit && hit.expiresAt > now) return hit.token;
    if (hit) this.entries.delete(digest);
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

/** Runs `change`, then forgets every cached token (also when it failed half-way). */
function invalidating<Args extends unknown[], Result>(
  cache: TokenKeyCache,
  change: (...args: Args) => Promise<Result>,
): (...args: Args) => Promise<Result> {
  return (...args) => change(...args).finally(() => cache.invalidate());
}

function cachedTokens(tokens: TokenStore, cache: TokenKeyCache): TokenStore {
  return {
    create: invalidating(cache, (input) => tokens.create(input)),
    get: (id) => tokens.get(id),
    findByKeyDigest: (digest) => cache.find(digest),
    list: (request) => tokens.list(request),
    search: (request) => tokens.search(request),
    update: invalidating(cache, (id, patch) => tokens.update(id, patch)),
    batch: invalidating(cache, (ids, action, patch, accountId) => tokens.batch(ids, action, patch, accountId)),
    delete: invalidating(cache, (id) => tokens.delete(id)),
    // Only `lastUsedAt` changes, which authentication does not read.
    touchLastUsed: (lastUsed) => tokens.touchLastUsed(lastUsed),
  };
}

/** A token carries its account's status and quota limit, so account changes count too. */
function accountsInvalidating(accounts: AccountStore, cache: TokenKeyCache): AccountStore {
  return {
    createUser: (name) => accounts.createUser(name),
    create: (input) => accounts.create(input),
    get: (id) => accounts.get(id),
    list: (request) => accounts.list(request),
    update: invalidating(cache, (id, patch) => accounts.update(id, patch)),
    delete: invalidating(cache, (id) => accounts.delete(id)),
    findByKeyDigest: (digest) => accounts.findByKeyDigest(digest),
    findAdmin: () => accounts.findAdmin(),
    createAdmin: (digest) => accounts.createAdmin(digest),
    setKeyDigest: invalidating(cache, (accountId, digest) => accounts.setKeyDigest(accountId, digest)),
  };
}

/** `storage` with token lookups by key served from memory (see TokenKeyCache). */
export function withTokenKeyCache(storage: Storage, options: TokenKeyCacheOptions = {}): Storage {
  const cache = new TokenKeyCache(
    (digest) => storage.tokens.findByKeyDigest(digest),
    options.maxAgeMs ?? 10_000,
    options.maxEntries ?? 50_000,
  );
  return {
    ...storage,
    tokens: cachedTokens(storage.tokens, cache),
    accounts: accountsInvalidating(storage.accounts, cache),
  };
}
