import { describeResponseStore, ROOMY, storedResponse } from '../../../test/storage/response-store.suite';
import { createAccount, openMoneyDb } from '../../../test/storage/suites/money-fixture';
import { describeOnPostgres } from '../../../test/storage/testing/store-backends';
import type { StoredResponseRecord } from '../types';

// Each test opens its own database (on PostgreSQL a schema, migrated): seconds when the machine is busy.
jest.setTimeout(30_000);

/** A fresh schema with two user accounts (plain SQL: the account store is not what is tested). */
async function openFresh() {
  const db = await openMoneyDb('PostgreSQL');
  return { db, store: db.storage.responses, accountId: await createAccount(db.sql, null), otherAccountId: await createAccount(db.sql, null), close: () => db.close() };
}

// PostgreSQL only (skipped, saying so, when DATABASE_URL is missing); SQLite runs the same suite in its own spec.
describeOnPostgres('PgResponseStore', (backend) => {
  describeResponseStore(backend.name, openFresh);

  describe('PgResponseStore with the rest of the database', () => {
    it("deleting an account deletes its responses and no one else's", async () => {
      const { db, store, accountId, otherAccountId, close } = await openFresh();
      try {
        await store.put(storedResponse('resp_gone', accountId), ROOMY);
        await store.put(storedResponse('resp_kept', otherAccountId), ROOMY);
        await db.sql.run('DELETE FROM accounts WHERE id = ?', [accountId]);
        expect(await store.get('resp_gone', accountId, '2026-03-02T00:00:00.000Z')).toBeUndefined();
        expect(await store.get('resp_kept', otherAccountId, '2026-03-02T00:00:00.000Z')).toBeDefined();
        expect(await store.purgeExpired('2026-05-01T00:00:00.000Z')).toBe(1);
      } finally {
        await close();
      }
    });

    it('refuses a response for an account that does not exist, and an unknown origin', async () => {
      const { store, accountId, close } = await openFresh();
      try {
        // foreign_key_violation, check_violation
        await expect(store.put(storedResponse('resp_orphan', 999_999), ROOMY)).rejects.toMatchObject({ code: '23503' });
        const badOrigin = { ...storedResponse('resp_odd', accountId), origin: 'elsewhere' } as unknown as StoredResponseRecord;
        await expect(store.put(badOrigin, ROOMY)).rejects.toMatchObject({ code: '23514' });
      } finally {
        await close();
      }
    });
  });
});
