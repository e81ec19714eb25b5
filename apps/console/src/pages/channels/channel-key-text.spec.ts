import { serviceAccountKeyFile } from '../../testing/fixtures';
import { keyFromFile, parseKeys, withKeyAdded } from './channel-key-text';

describe('Keys field → keys', () => {
  it('takes one key per line, trimmed, blank lines skipped, commas kept', () => {
    expect(parseKeys('a\r\n b \n\n  sk-two,with-comma  \n')).toEqual({ keys: ['a', 'b', 'sk-two,with-comma'] });
    expect(parseKeys('  \n\n')).toEqual({ keys: [] });
  });

  it('takes a multi-line service account key file as ONE key, compacted, its private key intact', () => {
    const file = serviceAccountKeyFile();
    const parsed = parseKeys(file);
    expect(parsed).toEqual({ keys: [JSON.stringify(JSON.parse(file))] });
    if (!('keys' in parsed)) return;
    expect(JSON.parse(parsed.keys[0] ?? '')).toMatchObject({ client_email: 'relay@acme-prod.iam.gserviceaccount.com', private_key: expect.stringContaining('{not-a-real-key}\n-----END') });
  });

  it('keeps the lines around a JSON key as keys of their own, and reads two key files in a row', () => {
    const entra = '{\n  "tenant_id": "t-1",\n  "client_id": "c-1",\n  "client_secret": "s}e\\"c{ret"\n}';
    const parsed = parseKeys(`api-key-one\n${entra}\n\n${serviceAccountKeyFile('second@acme-prod.iam.gserviceaccount.com')}api-key-two`);
    if (!('keys' in parsed)) throw new Error(parsed.error);
    expect(parsed.keys).toHaveLength(4);
    expect(parsed.keys[0]).toBe('api-key-one');
    expect(JSON.parse(parsed.keys[1] ?? '')).toEqual({ tenant_id: 't-1', client_id: 'c-1', client_secret: 's}e"c{ret' });
    expect(JSON.parse(parsed.keys[2] ?? '')).toMatchObject({ client_email: 'second@acme-prod.iam.gserviceaccount.com' });
    expect(parsed.keys[3]).toBe('api-key-two');
  });

  it('names the line of a JSON key cut short or broken, never quoting the key', () => {
    const cut = serviceAccountKeyFile().slice(0, 200);
    expect(parseKeys(`sk-1\n${cut}`)).toEqual({ error: 'Keys (line 2): the JSON key starting here does not close; paste the whole key file' });
    const broken = parseKeys('{"private_key": "secret-material", }');
    expect(broken).toEqual({ error: 'Keys (line 1): the key starting with { is not valid JSON' });
    expect(parseKeys('{"a": 1}\n{"b": 2} trailing')).toEqual({ error: 'Keys (line 2): start the next key on a line of its own after a JSON key' });
  });

  it('adds a key file’s content on a line of its own, compacted when it is JSON', () => {
    expect(keyFromFile(serviceAccountKeyFile())).toBe(JSON.stringify(JSON.parse(serviceAccountKeyFile())));
    expect(keyFromFile('  plain-key \n')).toBe('plain-key');
    expect(withKeyAdded('', 'k2')).toBe('k2');
    expect(withKeyAdded('k1\n\n', 'k2')).toBe('k1\nk2');
  });
});
