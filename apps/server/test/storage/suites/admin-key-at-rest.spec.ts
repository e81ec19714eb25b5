import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { loadConfig } from '../../../src/config';
import { createLogger } from '../../../src/logger';
import { digestKey } from '../../../src/security/keys';
import { bearer, createAccount, createToken } from '../../testing/system-api';
import { createTestRelay, TEST_ADMIN_KEY } from '../../testing/test-relay';
import { ADMIN_KEY_FILE, bootstrapStorage } from '../../../src/storage/bootstrap';
import { storeBackends } from '../testing/store-backends';
import type { Storage } from '../../../src/storage/types';
import { openWithSql, type StorageWithSql } from './open-with-sql';

jest.setTimeout(30_000);

const ADMIN_KEY = 'operator-chosen-admin-key-42';
/** The stored form: scrypt with its parameters and a salt of its own (security/admin-key-hash.ts). */
const SCRYPT_HASH = /^\$scrypt\$ln=\d+,r=\d+,p=\d+\$[A-Za-z0-9+/]+\$[A-Za-z0-9+/]+$/;

/** What an operator's start does: bootstrap with `env`. */
async function start(storage: Storage, env: Record<string, string>, dataDir = os.tmpdir()): Promise<void> {
  await bootstrapStorage(storage, loadConfig({ RELAY_DATA_DIR: dataDir, ...env }), createLogger('silent'));
}

for (const backend of storeBackends()) {
  describe(`issue 26: the admin key is kept as a salted scrypt hash (${backend.name})`, () => {
    let opened: StorageWithSql;
    beforeEach(async () => {
      opened = await openWithSql(backend);
    });
    afterEach(() => opened.close());
    /** The admin's stored key, read behind the stores. */
    const adminStored = () => readAdminHash(opened);

    it('stores a salted scrypt hash with its parameters, never the SHA-256 digest, and still knows the key', async () => {
      await start(opened.storage, { RELAY_ADMIN_KEY: ADMIN_KEY });
      const stored = await adminStored();
      expect(stored).toMatch(SCRYPT_HASH);
      expect(stored).not.toContain(digestKey(ADMIN_KEY));
      expect((await opened.storage.accounts.findByKeyDigest(digestKey(ADMIN_KEY)))?.role).toBe('admin');
      expect(await opened.storage.accounts.findByKeyDigest(digestKey('not-the-admin-key-0000'))).toBeUndefined();
      // The same key at the next start keeps its hash (no new salt): instances sharing the database keep their caches.
      await start(opened.storage, { RELAY_ADMIN_KEY: ADMIN_KEY });
      expect(await adminStored()).toBe(stored);
      // Another key replaces it, salted afresh.
      await start(opened.storage, { RELAY_ADMIN_KEY: `${ADMIN_KEY}-rotated` });
      expect(await adminStored()).toMatch(SCRYPT_HASH);
      expect(await opened.storage.accounts.findByKeyDigest(digestKey(ADMIN_KEY))).toBeUndefined();
      expect((await opened.storage.accounts.findByKeyDigest(digestKey(`${ADMIN_KEY}-rotated`)))?.role).toBe('admin');
    });

    it("upgrades an install's SHA-256 admin digest at start when RELAY_ADMIN_KEY is given", async () => {
      await opened.storage.accounts.createAdmin(digestKey(ADMIN_KEY));
      await start(opened.storage, { RELAY_ADMIN_KEY: ADMIN_KEY });
      expect(await adminStored()).toMatch(SCRYPT_HASH);
      expect((await opened.storage.accounts.findByKeyDigest(digestKey(ADMIN_KEY)))?.role).toBe('admin');
    });

    it('upgrades it at its first successful use otherwise (admin.key installs)', async () => {
      const admin = await opened.storage.accounts.createAdmin(digestKey(ADMIN_KEY));
      await start(opened.storage, {});
      expect(await adminStored()).toBe(digestKey(ADMIN_KEY));
      expect(await opened.storage.accounts.findByKeyDigest(digestKey('wrong-key-000000000'))).toBeUndefined();
      expect(await adminStored()).toBe(digestKey(ADMIN_KEY));
      expect(await opened.storage.accounts.findByKeyDigest(digestKey(ADMIN_KEY))).toEqual(admin);
      await waitFor(async () => SCRYPT_HASH.test(await adminStored()));
      expect(await opened.storage.accounts.findByKeyDigest(digestKey(ADMIN_KEY))).toEqual(admin);
    });

    it('keeps account access keys as SHA-256 digests, found by digest', async () => {
      const account = await opened.storage.accounts.create({ name: 'team', role: 'user', status: 'active', quotaLimit: null, keyDigest: digestKey('sk-acct-x'), keyHint: '...ct-x' });
      expect(await opened.storage.accounts.findByKeyDigest(digestKey('sk-acct-x'))).toEqual(account);
      expect(await opened.count('accounts', 'access_key_digest = $1', [digestKey('sk-acct-x')])).toBe(1);
    });
  });
}

/** The first admin's stored key, through a connection of the test's own. */
async function readAdminHash(opened: StorageWithSql): Promise<string> {
  const found = await opened.value("SELECT access_key_digest FROM accounts WHERE role = 'admin' ORDER BY id LIMIT 1");
  if (typeof found !== 'string') throw new Error('no admin');
  return found;
}

async function waitFor(check: () => Promise<boolean>): Promise<void> {
  const until = Date.now() + 5_000;
  while (!(await check())) {
    if (Date.now() > until) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('issue 26: checking the admin key costs no scrypt per request', () => {
  it('verifies the admin key once, then serves it from memory; an API token and an account key never cost one', async () => {
    const relay = await createTestRelay();
    try {
      const account = await createAccount(relay, { name: 'team' });
      const token = await createToken(relay, { name: 't' });
      const scrypt = jest.spyOn(crypto, 'scrypt');
      for (let round = 0; round < 20; round++) await request(relay.app).get('/api/accounts').set(bearer(TEST_ADMIN_KEY)).expect(200);
      for (let round = 0; round < 5; round++) {
        await request(relay.app).get('/api/account').set(bearer(token.key)).expect(200);
        await request(relay.app).get('/api/tokens').set(bearer(account.access_key)).expect(200);
      }
      expect(scrypt.mock.calls.length).toBeLessThanOrEqual(1);
      // A wrong key costs one, once: asked again, it is known to be wrong.
      const before = scrypt.mock.calls.length;
      for (let round = 0; round < 5; round++) await request(relay.app).get('/api/accounts').set(bearer('sk-wrong-admin-key-0000000')).expect(401);
      expect(scrypt.mock.calls.length - before).toBe(1);
      scrypt.mockRestore();
    } finally {
      await relay.close();
    }
  });

  it('keeps data/admin.key as before: a random key written 0600 on first start, which works', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'relay-admin-file-'));
    const relay = await createTestRelay({ env: { RELAY_ADMIN_KEY: '', RELAY_DATA_DIR: dataDir } });
    try {
      const key = fs.readFileSync(path.join(dataDir, ADMIN_KEY_FILE), 'utf8').trim();
      expect(fs.statSync(path.join(dataDir, ADMIN_KEY_FILE)).mode & 0o777).toBe(0o600);
      await request(relay.app).get('/api/accounts').set(bearer(key)).expect(200);
    } finally {
      await relay.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
