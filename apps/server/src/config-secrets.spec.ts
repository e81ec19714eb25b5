import path from 'node:path';
import { ConfigError, loadConfig } from './config';

const SECRET = 'a-secret-of-at-least-32-characters-0001';

describe('loadConfig: the secret that seals channel keys (RELAY_SECRET_KEY, RELAY_SECRET_KEY_FILE, RELAY_SECRET_KEY_PREVIOUS)', () => {
  it('has none set by default: the data directory’s secret.key is used', () => {
    expect(loadConfig({}).secrets).toEqual({ secretKey: undefined, secretKeyFile: undefined, previousSecretKey: undefined });
  });

  it('takes each as given, the file as an absolute path', () => {
    expect(loadConfig({ RELAY_SECRET_KEY: SECRET, RELAY_SECRET_KEY_FILE: 'run/secret', RELAY_SECRET_KEY_PREVIOUS: `${SECRET}-old` }).secrets).toEqual({
      secretKey: SECRET,
      secretKeyFile: path.resolve('run/secret'),
      previousSecretKey: `${SECRET}-old`,
    });
  });

  it.each([
    ['RELAY_SECRET_KEY', 'short'],
    ['RELAY_SECRET_KEY_PREVIOUS', 'x'.repeat(31)],
  ])('refuses %s shorter than 32 characters, naming it and not the value', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(new RegExp(`${name}: must be at least 32 characters`));
    try {
      loadConfig({ [name]: value });
    } catch (error) {
      expect((error as Error).message).not.toContain(value);
    }
  });
});
