import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from 'node:crypto';

/** The prefix of every sealed value: the format's version; the key id follows. */
const SEALED_PREFIX = 'enc:v1:';
const SEALED = /^enc:v1:([0-9a-f]{8}):([A-Za-z0-9_-]+)$/;
const IV_BYTES = 12;
const TAG_BYTES = 16;
/** Binds a sealed value to what it is: the same ciphertext offered as something else does not open. */
const ASSOCIATED_DATA = Buffer.from('chat-relay channel key');

/** A value the keyring cannot open: sealed under a key it lacks, or altered. Names no secret. */
export class SecretKeyError extends Error {}

/** One secret, as AES-256-GCM key material, with the id sealed values name it by. */
class SecretKey {
  readonly id: string;
  readonly material: Buffer;

  constructor(secret: string) {
    // Any secret of 32 characters or more (RELAY_SECRET_KEY, the key file) becomes exactly 32 bytes.
    this.material = Buffer.from(hkdfSync('sha256', Buffer.from(secret, 'utf8'), 'chat-relay secret key', 'channel keys v1', 32));
    // Names the key without revealing it: 32 bits of a hash of the derived key.
    this.id = createHash('sha256').update('chat-relay key id:').update(this.material).digest('hex').slice(0, 8);
  }
}

/**
 * The secret that seals channel keys at rest (issue 26), kept outside the database
 * (RELAY_SECRET_KEY, a key file, or `<RELAY_DATA_DIR>/secret.key`), and during a rotation the
 * previous one (RELAY_SECRET_KEY_PREVIOUS), which still opens what it sealed. A sealed value is
 * `enc:v1:<key id>:<base64url(IV ‖ tag ‖ ciphertext)>`: AES-256-GCM, a random 96-bit IV each time.
 */
export class SecretKeyring {
  private readonly current: SecretKey;
  private readonly byId = new Map<string, SecretKey>();

  constructor(secret: string, previous?: string) {
    this.current = new SecretKey(secret);
    this.byId.set(this.current.id, this.current);
    if (previous !== undefined) {
      const old = new SecretKey(previous);
      if (!this.byId.has(old.id)) this.byId.set(old.id, old);
    }
  }

  /** The current key's id, as sealed values name it. */
  get keyId(): string {
    return this.current.id;
  }

  seal(plain: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.current.material, iv);
    cipher.setAAD(ASSOCIATED_DATA);
    const sealed = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return `${SEALED_PREFIX}${this.current.id}:${Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64url')}`;
  }

  /** The plain value of a sealed one; throws SecretKeyError for a key it lacks or an altered value. */
  open(value: string): string {
    const match = SEALED.exec(value);
    if (!match) throw new SecretKeyError('not a sealed value');
    const [, keyId = '', payload = ''] = match;
    const key = this.byId.get(keyId);
    if (!key) {
      throw new SecretKeyError(
        `sealed with secret key ${keyId}, which this instance does not have (its RELAY_SECRET_KEY is ${this.current.id}; while rotating, give the old one as RELAY_SECRET_KEY_PREVIOUS)`,
      );
    }
    const bytes = Buffer.from(payload, 'base64url');
    if (bytes.length < IV_BYTES + TAG_BYTES) throw new SecretKeyError(`a value sealed with secret key ${keyId} is cut short`);
    try {
      const decipher = createDecipheriv('aes-256-gcm', key.material, bytes.subarray(0, IV_BYTES));
      decipher.setAAD(ASSOCIATED_DATA);
      decipher.setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
      return Buffer.concat([decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
    } catch {
      throw new SecretKeyError(`a value sealed with secret key ${keyId} does not open: it was altered`);
    }
  }

  /** Whether `value` is in the sealed format (else: a key an earlier version stored in the clear). */
  static isSealed(value: string): boolean {
    return value.startsWith(SEALED_PREFIX);
  }

  /** Whether `value` should be sealed again: in the clear, or under a key other than the current one. */
  needsSealing(value: string): boolean {
    return SEALED.exec(value)?.[1] !== this.current.id;
  }
}
