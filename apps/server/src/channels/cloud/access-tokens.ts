import { createCipheriv, createDecipheriv, hash, randomBytes } from 'node:crypto';
import type { CloudKey } from '@chat-relay/wire';
import type { CloudTokenStore } from '../../cluster/cloud-token-store';
import { mintAccessToken, type MintedToken } from './mint-access-token';

/** A token is minted again this long before it expires (Google's and Entra's last an hour). */
export const REFRESH_MARGIN_MS = 5 * 60_000;
/** How long one instance may take to mint before another mints too. */
const MINT_LEASE_MS = 10_000;
/** How long an instance waits for the token another one is minting, and how often it looks. */
const WAIT_FOR_PEER_MS = 3_000;
const WAIT_STEP_MS = 100;
/** Credentials remembered per process at most (a relay has a handful). */
const CAPACITY = 1_000;

export interface AccessTokensOptions {
  shared?: CloudTokenStore;
  now?: () => number;
  mint?: (credential: CloudKey) => Promise<MintedToken>;
  sleep?: (ms: number) => Promise<void>;
}

/** Where a credential's token is filed, and the key that seals it: both derived from the credential, so only its holders can open it. */
function idsOf(rawKey: string): { id: string; sealKey: Buffer } {
  return { id: hash('sha256', `chat-relay cloud token id\0${rawKey}`, 'hex'), sealKey: Buffer.from(hash('sha256', `chat-relay cloud token seal\0${rawKey}`, 'hex'), 'hex') };
}

function seal(token: MintedToken, key: Buffer): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const sealed = Buffer.concat([cipher.update(JSON.stringify({ token: token.token, expires_at: token.expiresAt }), 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64url');
}

function open(value: string, key: Buffer): MintedToken | undefined {
  try {
    const bytes = Buffer.from(value, 'base64url');
    const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(0, 12));
    decipher.setAuthTag(bytes.subarray(12, 28));
    const json = JSON.parse(Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]).toString('utf8')) as { token?: unknown; expires_at?: unknown };
    return typeof json.token === 'string' && typeof json.expires_at === 'number' ? { token: json.token, expiresAt: json.expires_at } : undefined;
  } catch {
    return undefined;
  }
}

/**
 * OAuth access tokens of cloud credentials (Vertex service accounts, Entra service principals),
 * each minted once and reused until REFRESH_MARGIN_MS before it expires: one mint at a time per
 * credential in this process, and — with a shared store (Redis) — one across the instances: the
 * first claims a lease and mints, the others wait briefly for its token (sealed with a key only
 * the credential's holders can derive) and mint their own only if it does not come.
 */
export class AccessTokens {
  private readonly held = new Map<string, MintedToken>();
  /** Each credential's ids, derived once (two hashes of a key file per call otherwise). */
  private readonly ids = new Map<string, { id: string; sealKey: Buffer }>();
  private readonly minting = new Map<string, Promise<MintedToken>>();
  /** The last token the cloud refused, per credential: never taken from the shared store again. */
  private readonly refused = new Map<string, string>();
  private readonly now: () => number;
  private readonly mint: (credential: CloudKey) => Promise<MintedToken>;
  private readonly sleep: (ms: number) => Promise<void>;

  constructor(private readonly options: AccessTokensOptions = {}) {
    this.now = options.now ?? Date.now;
    this.mint = options.mint ?? ((credential) => mintAccessToken(credential, this.now));
    this.sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
  }

  /** A working access token for the credential in `rawKey` (a channel key). */
  async tokenFor(rawKey: string, credential: CloudKey): Promise<string> {
    const { id, sealKey } = this.idsOf(rawKey);
    const held = this.held.get(id);
    if (held && this.fresh(held)) return held.token;
    let pending = this.minting.get(id);
    if (!pending) {
      pending = this.obtain(id, sealKey, credential).finally(() => this.minting.delete(id));
      this.minting.set(id, pending);
    }
    return (await pending).token;
  }

  /**
   * Forgets a credential's token (the cloud refused it: the next call mints afresh), and will not
   * take that token from the shared store either, where a peer may still have it filed.
   */
  forget(rawKey: string, token: string): void {
    const { id } = this.idsOf(rawKey);
    if (this.held.get(id)?.token === token) this.held.delete(id);
    if (this.refused.size >= CAPACITY) this.refused.clear();
    this.refused.set(id, token);
  }

  private idsOf(rawKey: string): { id: string; sealKey: Buffer } {
    let ids = this.ids.get(rawKey);
    if (!ids) {
      ids = idsOf(rawKey);
      if (this.ids.size >= CAPACITY) this.ids.clear();
      this.ids.set(rawKey, ids);
    }
    return ids;
  }

  private fresh(token: MintedToken): boolean {
    return token.expiresAt - this.now() > REFRESH_MARGIN_MS;
  }

  private async obtain(id: string, sealKey: Buffer, credential: CloudKey): Promise<MintedToken> {
    const shared = this.options.shared;
    let token: MintedToken | undefined;
    if (shared) {
      token = await this.peer(shared, id, sealKey);
      if (!token && (await shared.claim(id, MINT_LEASE_MS))) {
        // Looked again once the lease is ours: a peer may have written its token and let the lease go
        // between the first look and the claim (two instances then minted two tokens: a CI failure of
        // cloud-vertex.spec.ts). Its write comes before its release, so the token is seen here.
        token = await this.peer(shared, id, sealKey);
        if (!token) {
          token = await this.mint(credential);
          await shared.write(id, seal(token, sealKey), token.expiresAt - this.now() - REFRESH_MARGIN_MS);
        }
      }
      for (let waited = 0; !token && waited < WAIT_FOR_PEER_MS; waited += WAIT_STEP_MS) {
        await this.sleep(WAIT_STEP_MS);
        token = await this.peer(shared, id, sealKey);
      }
    }
    token ??= await this.mint(credential);
    if (this.held.size >= CAPACITY) this.held.clear();
    this.held.set(id, token);
    return token;
  }

  private async peer(shared: CloudTokenStore, id: string, sealKey: Buffer): Promise<MintedToken | undefined> {
    const stored = await shared.read(id);
    const token = stored === undefined ? undefined : open(stored, sealKey);
    return token && this.fresh(token) && this.refused.get(id) !== token.token ? token : undefined;
  }
}
