import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { SecretKeyring } from './secret-keyring';

export const SECRET_KEY_FILE = 'secret.key';
/** The shortest secret taken: a generated one is 43 characters (32 random bytes, base64url). */
export const MIN_SECRET_LENGTH = 32;

/** Where the secret comes from (config.ts parses the variables). */
export interface SecretKeySource {
  /** RELAY_SECRET_KEY. */
  secretKey?: string;
  /** RELAY_SECRET_KEY_FILE: a file holding it (a mounted secret). */
  secretKeyFile?: string;
  /** RELAY_SECRET_KEY_PREVIOUS: the one being rotated away from. */
  previousSecretKey?: string;
  /** RELAY_DATA_DIR: `secret.key` is kept (and made, when missing) here when neither of the first two is given. */
  dataDir: string;
}

/** Why the secret could not be read; names the file or the variable, never the secret. */
export class SecretKeySourceError extends Error {}

/** What was used, for the start-up log (never the secret itself). */
export interface LoadedSecretKey {
  keyring: SecretKeyring;
  /** `environment`, the file read, or the file made now. */
  from: string;
  created: boolean;
}

/**
 * The keyring that seals channel keys at rest: RELAY_SECRET_KEY, else the file
 * RELAY_SECRET_KEY_FILE names, else `<dataDir>/secret.key` — made when missing (0600, like
 * admin.key), so one relay needs no setting. Instances sharing a database must share the secret:
 * the operator sets RELAY_SECRET_KEY (or the file) on each (docs/SCALING.md).
 */
export function loadSecretKey(source: SecretKeySource): LoadedSecretKey {
  const previous = source.previousSecretKey;
  if (previous !== undefined && previous.length < MIN_SECRET_LENGTH) {
    throw new SecretKeySourceError(`RELAY_SECRET_KEY_PREVIOUS must be at least ${MIN_SECRET_LENGTH} characters`);
  }
  if (source.secretKey !== undefined) {
    if (source.secretKey.length < MIN_SECRET_LENGTH) throw new SecretKeySourceError(`RELAY_SECRET_KEY must be at least ${MIN_SECRET_LENGTH} characters`);
    return { keyring: new SecretKeyring(source.secretKey, previous), from: 'RELAY_SECRET_KEY', created: false };
  }
  if (source.secretKeyFile !== undefined) return { keyring: new SecretKeyring(readSecretFile(source.secretKeyFile), previous), from: source.secretKeyFile, created: false };
  const file = path.join(source.dataDir, SECRET_KEY_FILE);
  const created = createIfMissing(file);
  if (!created) tightenMode(file);
  return { keyring: new SecretKeyring(readSecretFile(file), previous), from: file, created };
}

function readSecretFile(file: string): string {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8').trim();
  } catch (error) {
    throw new SecretKeySourceError(`cannot read the secret key file ${file}: ${(error as NodeJS.ErrnoException).code ?? 'error'}`);
  }
  if (text.length < MIN_SECRET_LENGTH) throw new SecretKeySourceError(`the secret key in ${file} must be at least ${MIN_SECRET_LENGTH} characters`);
  return text;
}

/** Writes a new random secret unless the file exists (`wx`: two processes starting at once keep one). */
function createIfMissing(file: string): boolean {
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  try {
    fs.writeFileSync(file, `${randomBytes(32).toString('base64url')}\n`, { mode: 0o600, flag: 'wx' });
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw new SecretKeySourceError(`cannot create the secret key file ${file}: ${(error as NodeJS.ErrnoException).code ?? 'error'}`);
  }
}

/** A key file an older install or a copy left readable to others is made the owner's alone. */
function tightenMode(file: string): void {
  try {
    if ((fs.statSync(file).mode & 0o077) !== 0) fs.chmodSync(file, 0o600);
  } catch {
    // Not ours to change (a read-only mount): reading it is what matters.
  }
}
