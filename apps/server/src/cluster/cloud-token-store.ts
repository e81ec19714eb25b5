/**
 * Access tokens minted by one instance for the others (issue 31: N instances must not mint N
 * tokens for one service account). Values are sealed by the holder of the credential before they
 * get here (see access-tokens.ts): this store never sees a usable token. It never throws — with the
 * store away, an instance mints its own.
 */
export interface CloudTokenStore {
  /** The sealed token stored under `id`, or undefined. */
  read(id: string): Promise<string | undefined>;
  /** Whether this instance may mint `id`'s token now (a lease of `leaseMs`); false: another one is minting it. */
  claim(id: string, leaseMs: number): Promise<boolean>;
  /** Stores the sealed token for `ttlMs`, and lets the lease go. */
  write(id: string, sealed: string, ttlMs: number): Promise<void>;
}
