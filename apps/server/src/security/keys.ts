import { hash, randomBytes } from 'node:crypto';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** `length` characters of uniform base62 (rejection sampling: no modulo bias). */
export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248) out += BASE62[byte % 62];
      if (out.length === length) break;
    }
  }
  return out;
}

/** A new API token key: `sk-` + 48 base62 characters (SPEC §4). */
export const generateTokenKey = (): string => `sk-${randomBase62(48)}`;

/** A new management key for the admin account. */
export const generateAdminKey = (): string => `sk-admin-${randomBase62(40)}`;

/** Keys are stored only as this digest. Keys are short: one-shot hashing inline is cheap. */
export const digestKey = (key: string): string => hash('sha256', key, 'hex');

/** What the API shows of a key: its last four characters. */
export const keyHint = (key: string): string => `...${key.slice(-4)}`;

