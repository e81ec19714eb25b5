// The admin key's scrypt hash (security/admin-key-hash.ts) costs ~170 ms of a core, and every test
// relay sets the admin key at its bootstrap: most HTTP and e2e specs build one per test. Each
// spec file runs the real functions, at the real cost, once per distinct input and then remembers
// the answer: a key hashed again in the same file gets the same salt (what the relay would store
// is still a real hash, and verifies), and a verdict once computed is given again.
import type * as AdminKeyHash from '../../src/security/admin-key-hash';

jest.mock('../../src/security/admin-key-hash', () => {
  const actual = jest.requireActual<typeof AdminKeyHash>('../../src/security/admin-key-hash');
  const remembered = <T>(answers: Map<string, Promise<T>>, key: string, compute: () => Promise<T>): Promise<T> => {
    let answer = answers.get(key);
    if (!answer) {
      answer = compute();
      answers.set(key, answer);
      answer.catch(() => answers.delete(key));
    }
    return answer;
  };
  const hashes = new Map<string, Promise<string>>();
  const verdicts = new Map<string, Promise<boolean>>();
  return {
    ...actual,
    hashAdminKey: (digest: string) => remembered(hashes, digest, () => actual.hashAdminKey(digest)),
    verifyAdminKey: (digest: string, stored: string) => remembered(verdicts, `${digest} ${stored}`, () => actual.verifyAdminKey(digest, stored)),
  } satisfies typeof AdminKeyHash;
});
