import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';

/**
 * scrypt's cost: N = 2^15 (32 MiB), r = 8, p = 1 — about 80 ms of one core. Stored with each
 * hash, so a later change of these numbers still verifies the hashes made before it.
 */
const COST = { ln: 15, r: 8, p: 1 } as const;
const SALT_BYTES = 16;
const HASH_BYTES = 32;
const HASH = /^\$scrypt\$ln=(\d{1,2}),r=(\d{1,2}),p=(\d{1,2})\$([A-Za-z0-9+/]+)\$([A-Za-z0-9+/]+)$/;

interface Parsed {
  ln: number;
  r: number;
  p: number;
  salt: Buffer;
  hash: Buffer;
}

function derive(digest: string, salt: Buffer, cost: { ln: number; r: number; p: number }, length: number): Promise<Buffer> {
  const N = 2 ** cost.ln;
  // scrypt needs 128·N·r bytes; twice that leaves Node's own margin.
  const maxmem = 256 * N * cost.r;
  return new Promise((resolve, reject) => {
    scrypt(digest, salt, length, { N, r: cost.r, p: cost.p, maxmem }, (error, key) => (error ? reject(error) : resolve(key)));
  });
}

const parse = (stored: string): Parsed | undefined => {
  const match = HASH.exec(stored);
  if (!match) return undefined;
  const [, ln, r, p, salt = '', hash = ''] = match;
  return { ln: Number(ln), r: Number(r), p: Number(p), salt: Buffer.from(salt, 'base64'), hash: Buffer.from(hash, 'base64') };
};

/**
 * The admin key as stored (issue 26): `$scrypt$ln=15,r=8,p=1$<salt>$<hash>` (base64, a random salt
 * per key) over the key's SHA-256 digest, which is all the relay ever holds of a presented key.
 * The admin key may be an operator's phrase (RELAY_ADMIN_KEY): a salted, costly hash keeps a copy
 * of the database from being a list of keys to try. Account keys and API tokens are random and
 * long (40–48 base62 characters): their SHA-256 digest is as safe, and finds them by lookup.
 */
export async function hashAdminKey(digest: string): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const hash = await derive(digest, salt, COST, HASH_BYTES);
  return `$scrypt$ln=${COST.ln},r=${COST.r},p=${COST.p}$${salt.toString('base64').replace(/=+$/, '')}$${hash.toString('base64').replace(/=+$/, '')}`;
}

/** Whether `digest` is the key `stored` was made from; false for anything not a scrypt hash. */
export async function verifyAdminKey(digest: string, stored: string): Promise<boolean> {
  const parsed = parse(stored);
  if (!parsed || parsed.ln < 10 || parsed.ln > 22 || parsed.r < 1 || parsed.p < 1 || parsed.hash.length < 16) return false;
  const candidate = await derive(digest, parsed.salt, parsed, parsed.hash.length);
  return timingSafeEqual(candidate, parsed.hash);
}

export const isAdminKeyHash = (stored: string): boolean => parse(stored) !== undefined;
