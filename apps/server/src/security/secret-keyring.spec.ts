import { SecretKeyError, SecretKeyring } from './secret-keyring';

const SECRET = 'a-secret-of-at-least-32-characters-0001';
const OTHER = 'another-secret-of-32-characters-or-more';

describe('SecretKeyring (channel keys at rest, issue 26)', () => {
  const keyring = new SecretKeyring(SECRET);

  it('seals with AES-256-GCM behind a version and key-id prefix, a fresh IV each time, and opens it again', () => {
    const first = keyring.seal('sk-upstream-key-ü-0001');
    const second = keyring.seal('sk-upstream-key-ü-0001');
    expect(first).toMatch(new RegExp(`^enc:v1:${keyring.keyId}:[A-Za-z0-9_-]+$`));
    expect(first).not.toBe(second);
    expect(first).not.toContain('sk-upstream');
    // 12-byte IV, 16-byte tag, then the key's 23 bytes (22 characters, ü two bytes).
    expect(Buffer.from(first.split(':')[3] ?? '', 'base64url')).toHaveLength(12 + 16 + 23);
    expect(keyring.open(first)).toBe('sk-upstream-key-ü-0001');
    expect(keyring.open(keyring.seal(''))).toBe('');
  });

  it('names a secret by the same id every time, and two secrets by different ids', () => {
    expect(new SecretKeyring(SECRET).keyId).toBe(keyring.keyId);
    expect(new SecretKeyring(OTHER).keyId).not.toBe(keyring.keyId);
    expect(keyring.keyId).toMatch(/^[0-9a-f]{8}$/);
  });

  it('refuses a value sealed under another secret, naming both ids and RELAY_SECRET_KEY_PREVIOUS, never a key', () => {
    const sealed = new SecretKeyring(OTHER).seal('sk-secret-value');
    expect(() => keyring.open(sealed)).toThrow(SecretKeyError);
    expect(() => keyring.open(sealed)).toThrow(new RegExp(`sealed with secret key ${new SecretKeyring(OTHER).keyId}.*RELAY_SECRET_KEY is ${keyring.keyId}.*RELAY_SECRET_KEY_PREVIOUS`));
  });

  it('refuses an altered value, one cut short, and one not sealed at all', () => {
    const sealed = keyring.seal('sk-secret-value');
    const payload = Buffer.from(sealed.split(':')[3] ?? '', 'base64url');
    payload[payload.length - 1] = (payload[payload.length - 1] ?? 0) ^ 1;
    expect(() => keyring.open(`enc:v1:${keyring.keyId}:${payload.toString('base64url')}`)).toThrow(/altered/);
    expect(() => keyring.open(`enc:v1:${keyring.keyId}:AAAA`)).toThrow(/cut short/);
    expect(() => keyring.open('sk-in-the-clear')).toThrow(SecretKeyError);
  });

  it('opens what the previous secret sealed while rotating, and says what needs sealing again', () => {
    const old = new SecretKeyring(OTHER);
    const rotating = new SecretKeyring(SECRET, OTHER);
    const underOld = old.seal('sk-rotated');
    expect(rotating.open(underOld)).toBe('sk-rotated');
    expect(rotating.keyId).toBe(keyring.keyId);
    expect(rotating.needsSealing(underOld)).toBe(true);
    expect(rotating.needsSealing('sk-in-the-clear')).toBe(true);
    expect(rotating.needsSealing(rotating.seal('sk-current'))).toBe(false);
    expect(SecretKeyring.isSealed(underOld)).toBe(true);
    expect(SecretKeyring.isSealed('sk-in-the-clear')).toBe(false);
  });
});
