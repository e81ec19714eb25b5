import { redactSecrets } from './redact-secrets';

const KEY = 'lk_live/Ab+Cd9Ef8Gh7';

describe('redactSecrets', () => {
  it.each([
    ['alone', KEY, '[redacted]'],
    ['inside a longer text', `bad key ${KEY}; retry`, 'bad key [redacted]; retry'],
    ['repeated and glued', `${KEY}${KEY}|${KEY}`, '[redacted][redacted]|[redacted]'],
    ['URL-encoded', `key=${encodeURIComponent(KEY)}&x=1`, 'key=[redacted]&x=1'],
  ])('cuts out a key %s', (_name, text, expected) => {
    expect(redactSecrets(text, [KEY])).toBe(expected);
  });

  it.each([
    ['\\u-escaped', `\\u006ck_live/Ab+Cd9Ef8Gh7`],
    ['with an escaped slash', 'lk_live\\/Ab+Cd9Ef8Gh7'],
    ['escaped twice', 'said \\\\u006ck_live/Ab+Cd9Ef8Gh7'],
    ['as HTML entities', '&#108;k_live&#x2F;Ab+Cd9Ef8Gh7'],
  ])('drops a text that spells a key %s', (_name, text) => {
    expect(redactSecrets(text, [KEY])).toBe('[redacted]');
  });

  it('redacts every key given and leaves other text alone', () => {
    expect(redactSecrets('one AAAA-1111 two BBBB-2222 three', ['AAAA-1111', 'BBBB-2222'])).toBe('one [redacted] two [redacted] three');
    expect(redactSecrets('Invalid \\u0027messages\\u0027', [KEY])).toBe('Invalid \\u0027messages\\u0027');
  });
});
