import type { OwnerLimits } from './limit-types';
import type { Page, PageRequest } from './common-types';

export type AccountRole = 'admin' | 'user';
export interface AccountRecord extends OwnerLimits {
  id: number;
  name: string;
  role: AccountRole;
  status: 'active' | 'disabled';
  quotaLimit: number | null;
  quotaUsed: number;
  keyHint: string | null;
  createdAt: string;
}
export interface NewAccount {
  name: string;
  role: AccountRole;
  status: AccountRecord['status'];
  quotaLimit: number | null;
  keyDigest: string;
  keyHint: string;
  /** Absent: none, the relay's defaults. */
  limits?: Partial<OwnerLimits>;
}
export type AccountPatch = Partial<Pick<AccountRecord, 'name' | 'role' | 'status' | 'quotaLimit' | 'quotaUsed' | keyof OwnerLimits>>;
/**
 * The accounts table as a backend keeps it (admin-key-check.ts wraps it into the AccountStore the
 * server uses). `keyDigest` is what is stored of an access key: the SHA-256 digest of an account's
 * key; for the first admin a salted scrypt hash (security/admin-key-hash.ts), or, from an earlier
 * version, its SHA-256 digest until upgraded.
 */
export interface StoredAccountStore {
  /** A plain user account without an access key (tests use this). */
  createUser(name: string): Promise<AccountRecord>;
  create(input: NewAccount): Promise<AccountRecord>;
  get(id: number): Promise<AccountRecord | undefined>;
  list(request: PageRequest): Promise<Page<AccountRecord>>;
  update(id: number, patch: AccountPatch): Promise<AccountRecord | undefined>;
  /**
   * Deletes the account with its tokens, assistants, stored responses and tasks — and the quota
   * reservations its tasks hold, whose quota goes with the account and its tokens.
   */
  delete(id: number): Promise<boolean>;
  findByKeyDigest(digest: string): Promise<AccountRecord | undefined>;
  findAdmin(): Promise<AccountRecord | undefined>;
  createAdmin(keyDigest: string): Promise<AccountRecord>;
  setKeyDigest(accountId: number, keyDigest: string): Promise<void>;
  /** The first admin and what is stored of its key. */
  findAdminKeyHash(): Promise<{ account: AccountRecord; keyHash: string } | undefined>;
  /** Stores `next` as the account's key only while `expected` is stored (compare-and-set); whether it did. */
  replaceKeyHash(accountId: number, expected: string, next: string): Promise<boolean>;
}
export interface AccountStore extends StoredAccountStore {
  /**
   * Makes the key whose SHA-256 digest is `digest` the first admin's (created when there is none),
   * stored as a salted scrypt hash; a key it holds already keeps its hash. `findByKeyDigest` then
   * finds the admin by that digest — verified once, then from memory.
   */
  setAdminKey(digest: string): Promise<AccountRecord>;
}
