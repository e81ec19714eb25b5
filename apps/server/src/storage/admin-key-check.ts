import { hashAdminKey, isAdminKeyHash, verifyAdminKey } from '../security/admin-key-hash';
import type { AccountRecord, AccountStore, StoredAccountStore } from './types';

/** Digests remembered as verified (or refused) against one stored hash; the oldest go first. */
const MAX_REMEMBERED = 1_000;

/** A bounded map of digest → the stored hash it was checked against. */
class Remembered {
  private readonly entries = new Map<string, string>();

  matches(digest: string, keyHash: string): boolean {
    return this.entries.get(digest) === keyHash;
  }

  add(digest: string, keyHash: string): void {
    this.entries.delete(digest);
    if (this.entries.size >= MAX_REMEMBERED) this.entries.delete(this.entries.keys().next().value as string);
    this.entries.set(digest, keyHash);
  }
}

/**
 * The accounts the server uses, over a backend's table, with the first admin's key kept as a
 * salted scrypt hash (issue 26). An account key is found by its SHA-256 digest, as before. A
 * digest that finds none may be the admin key: checked with scrypt once, then remembered with
 * the stored hash it matched (a changed admin key changes the hash, so nothing stale passes).
 * A digest known wrong, or an API token's, costs no scrypt; the ones that do run one at a time,
 * off the event loop, so keys guessed in a stream cost one core at most.
 */
export function withAdminKeyCheck(stored: StoredAccountStore, isTokenDigest: (digest: string) => Promise<boolean>): AccountStore {
  const verified = new Remembered();
  const refused = new Remembered();
  let scryptQueue: Promise<unknown> = Promise.resolve();
  const upgrading = new Set<number>();

  const oneAtATime = <T>(work: () => Promise<T>): Promise<T> => {
    const run = scryptQueue.then(work, work);
    scryptQueue = run.catch(() => undefined);
    return run;
  };

  /** An earlier version's SHA-256 digest of the admin key, replaced by a hash at its first use. */
  async function upgradeAtFirstUse(account: AccountRecord, digest: string): Promise<void> {
    const admin = await stored.findAdminKeyHash();
    if (!admin || admin.account.id !== account.id || admin.keyHash !== digest || upgrading.has(account.id)) return;
    upgrading.add(account.id);
    try {
      const keyHash = await oneAtATime(() => hashAdminKey(digest));
      if (await stored.replaceKeyHash(account.id, digest, keyHash)) verified.add(digest, keyHash);
    } finally {
      upgrading.delete(account.id);
    }
  }

  async function findByKeyDigest(digest: string): Promise<AccountRecord | undefined> {
    const account = await stored.findByKeyDigest(digest);
    if (account) {
      // Never fails the request it rides on: a failed upgrade is tried again at the next use.
      if (account.role === 'admin') void upgradeAtFirstUse(account, digest).catch(() => undefined);
      return account;
    }
    const admin = await stored.findAdminKeyHash();
    if (!admin || !isAdminKeyHash(admin.keyHash)) return undefined;
    if (verified.matches(digest, admin.keyHash)) return admin.account;
    if (refused.matches(digest, admin.keyHash) || (await isTokenDigest(digest))) return undefined;
    const matches = await oneAtATime(() => verifyAdminKey(digest, admin.keyHash));
    (matches ? verified : refused).add(digest, admin.keyHash);
    return matches ? admin.account : undefined;
  }

  return {
    createUser: (name) => stored.createUser(name),
    create: (input) => stored.create(input),
    get: (id) => stored.get(id),
    list: (request) => stored.list(request),
    update: (id, patch) => stored.update(id, patch),
    delete: (id) => stored.delete(id),
    findByKeyDigest,
    findAdmin: () => stored.findAdmin(),
    createAdmin: (keyDigest) => stored.createAdmin(keyDigest),
    setKeyDigest: (accountId, keyDigest) => stored.setKeyDigest(accountId, keyDigest),
    findAdminKeyHash: () => stored.findAdminKeyHash(),
    replaceKeyHash: (accountId, expected, next) => stored.replaceKeyHash(accountId, expected, next),
    setAdminKey: async (digest) => {
      const admin = await stored.findAdminKeyHash();
      // The key it holds keeps its hash: instances sharing the database keep what they verified.
      if (admin && isAdminKeyHash(admin.keyHash) && (await oneAtATime(() => verifyAdminKey(digest, admin.keyHash)))) {
        verified.add(digest, admin.keyHash);
        return admin.account;
      }
      const keyHash = await oneAtATime(() => hashAdminKey(digest));
      const existing = admin?.account ?? (await stored.findAdmin());
      const account = existing ?? (await stored.createAdmin(keyHash));
      if (existing) await stored.setKeyDigest(existing.id, keyHash);
      verified.add(digest, keyHash);
      return account;
    },
  };
}
