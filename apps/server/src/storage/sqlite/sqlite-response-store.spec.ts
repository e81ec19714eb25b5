import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describeResponseStore, ROOMY, storedResponse } from '../../../test/storage/response-store.suite';
import type { Storage, StoredResponseRecord } from '../types';
import { openSqliteStorage } from './open-sqlite';

/** A fresh database file with two user accounts, removed with its directory on close. */
async function openFresh(): Promise<{ storage: Storage; accountId: number; otherAccountId: number; close(): Promise<void> }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'relay-responses-'));
  const storage = openSqliteStorage(dataDir);
  const account = await storage.accounts.createUser('caller');
  const other = await storage.accounts.createUser('someone else');
  return {
    storage,
    accountId: account.id,
    otherAccountId: other.id,
    close: async () => {
      await storage.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

describeResponseStore('SQLite', async () => {
  const opened = await openFresh();
  return { ...opened, store: opened.storage.responses };
});

describe('SqliteResponseStore with the rest of the database', () => {

  it("deleting an account deletes its responses and no one else's", async () => {
    const { storage, accountId, otherAccountId, close } = await openFresh();
    try {
      await storage.responses.put(storedResponse('resp_gone', accountId), ROOMY);
      await storage.responses.put(storedResponse('resp_kept', otherAccountId), ROOMY);
      expect(await storage.accounts.delete(accountId)).toBe(true);
      expect(await storage.responses.get('resp_gone', accountId, '2026-03-02T00:00:00.000Z')).toBeUndefined();
      expect(await storage.responses.get('resp_kept', otherAccountId, '2026-03-02T00:00:00.000Z')).toBeDefined();
      // Every row expired by then: only the other account's was left to purge.
      expect(await storage.responses.purgeExpired('2026-05-01T00:00:00.000Z')).toBe(1);
    } finally {
      await close();
    }
  });

  it('refuses a response for an account that does not exist, and an unknown origin', async () => {
    const { storage, accountId, close } = await openFresh();
    try {
      await expect(storage.responses.put(storedResponse('resp_orphan', 999_999), ROOMY)).rejects.toMatchObject({ code: 'SQLITE_CONSTRAINT_FOREIGNKEY' });
      const badOrigin = { ...storedResponse('resp_odd', accountId), origin: 'elsewhere' } as unknown as StoredResponseRecord;
      await expect(storage.responses.put(badOrigin, ROOMY)).rejects.toMatchObject({ code: 'SQLITE_CONSTRAINT_CHECK' });
    } finally {
      await close();
    }
  });
});
