import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadSecretKey, SECRET_KEY_FILE, SecretKeySourceError } from './secret-key-source';
import { SecretKeyring } from './secret-keyring';

const SECRET = 'a-secret-of-at-least-32-characters-0001';

describe('loadSecretKey: where the secret sealing channel keys comes from', () => {
  let dataDir: string;
  beforeEach(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'relay-secret-'));
  });
  afterEach(() => fs.rmSync(dataDir, { recursive: true, force: true }));
  const keyFile = () => path.join(dataDir, SECRET_KEY_FILE);

  it('without a setting, makes <data dir>/secret.key (0600, random, 43 characters) once and reads it after', () => {
    const first = loadSecretKey({ dataDir });
    expect(first).toMatchObject({ from: keyFile(), created: true });
    expect(fs.statSync(keyFile()).mode & 0o777).toBe(0o600);
    expect(fs.readFileSync(keyFile(), 'utf8')).toMatch(/^[A-Za-z0-9_-]{43}\n$/);
    const again = loadSecretKey({ dataDir });
    expect(again).toMatchObject({ from: keyFile(), created: false });
    expect(again.keyring.keyId).toBe(first.keyring.keyId);
    expect(again.keyring.open(first.keyring.seal('sk-x'))).toBe('sk-x');
  });

  it('makes a key file left readable by others the owner’s alone', () => {
    loadSecretKey({ dataDir });
    fs.chmodSync(keyFile(), 0o644);
    loadSecretKey({ dataDir });
    expect(fs.statSync(keyFile()).mode & 0o777).toBe(0o600);
  });

  it('RELAY_SECRET_KEY wins and leaves no file; RELAY_SECRET_KEY_FILE is read as given', () => {
    expect(loadSecretKey({ dataDir, secretKey: SECRET }).keyring.keyId).toBe(new SecretKeyring(SECRET).keyId);
    expect(fs.existsSync(keyFile())).toBe(false);
    const mounted = path.join(dataDir, 'mounted');
    fs.writeFileSync(mounted, `  ${SECRET}\n`);
    expect(loadSecretKey({ dataDir, secretKeyFile: mounted })).toMatchObject({ from: mounted, created: false });
    expect(loadSecretKey({ dataDir, secretKeyFile: mounted }).keyring.keyId).toBe(new SecretKeyring(SECRET).keyId);
  });

  it('refuses a short secret, a missing or short file, naming where and never the secret', () => {
    expect(() => loadSecretKey({ dataDir, secretKey: 'short-secret' })).toThrow(new SecretKeySourceError('RELAY_SECRET_KEY must be at least 32 characters'));
    expect(() => loadSecretKey({ dataDir, secretKeyFile: path.join(dataDir, 'none') })).toThrow(/cannot read the secret key file .*none: ENOENT/);
    fs.writeFileSync(path.join(dataDir, 'short'), 'short-secret');
    expect(() => loadSecretKey({ dataDir, secretKeyFile: path.join(dataDir, 'short') })).toThrow(/in .*short must be at least 32 characters/);
    expect(() => loadSecretKey({ dataDir, secretKey: SECRET, previousSecretKey: 'short' })).toThrow(/RELAY_SECRET_KEY_PREVIOUS/);
  });

  it('with RELAY_SECRET_KEY_PREVIOUS, opens what the previous secret sealed', () => {
    const old = new SecretKeyring('the-previous-secret-0123456789-abcdefgh');
    const { keyring } = loadSecretKey({ dataDir, secretKey: SECRET, previousSecretKey: 'the-previous-secret-0123456789-abcdefgh' });
    expect(keyring.open(old.seal('sk-old'))).toBe('sk-old');
  });
});
