import type { StoreBackend } from '../testing/store-backends';
import type { NewAccount } from '../../../src/storage/types';
import { failureOf, storageForEachTest, storageWithSqlForEachTest } from './open-with-sql';
import { newAssistant } from '../../testing/assistant-record';

const account = (overrides: Partial<NewAccount> = {}): NewAccount => ({
  name: 'Zoë "the" O\'Brien',
  role: 'user',
  status: 'active',
  quotaLimit: null,
  keyDigest: 'digest-account',
  keyHint: 'ak-…wxyz',
  ...overrides,
});

/** Whether `iso` is a time taken while the test ran (stores stamp rows with the clock). */
const takenSince = (iso: string, startedMs: number): boolean =>
  new Date(iso).toISOString() === iso && Date.parse(iso) >= startedMs && Date.parse(iso) <= Date.now();

/** The behaviour every AccountStore shows, on each backend (describeEachBackend). */
export function describeAccountStore(backend: StoreBackend): void {
  describe('rows', () => {
    const storage = storageForEachTest(backend);

    it('creates a plain user with the defaults: active, no limit, nothing used, no key', async () => {
      const started = Date.now();
      const created = await storage().accounts.createUser('alice');
      expect(created).toEqual({
        id: expect.any(Number),
        name: 'alice',
        role: 'user',
        status: 'active',
        quotaLimit: null,
        quotaUsed: 0,
        keyHint: null,
        createdAt: expect.any(String),
        periodicLimits: [],
        timeZone: null,
        alertThresholds: null,
      });
      expect(takenSince(created.createdAt, started)).toBe(true);
      expect(await storage().accounts.get(created.id)).toEqual(created);
    });

    it('gives back every field as created, the largest safe quota included, and finds it by its key digest only', async () => {
      const created = await storage().accounts.create(
        account({ role: 'admin', status: 'disabled', quotaLimit: Number.MAX_SAFE_INTEGER, keyDigest: 'd-1' }),
      );
      expect(created).toMatchObject({
        name: 'Zoë "the" O\'Brien',
        role: 'admin',
        status: 'disabled',
        quotaLimit: Number.MAX_SAFE_INTEGER,
        quotaUsed: 0,
        keyHint: 'ak-…wxyz',
      });
      expect(Object.keys(created).sort()).toEqual([
        'alertThresholds',
        'createdAt',
        'id',
        'keyHint',
        'name',
        'periodicLimits',
        'quotaLimit',
        'quotaUsed',
        'role',
        'status',
        'timeZone',
      ]);
      expect(await storage().accounts.get(created.id)).toEqual(created);
      expect(await storage().accounts.findByKeyDigest('d-1')).toEqual(created);
      expect(await storage().accounts.findByKeyDigest('d-2')).toBeUndefined();
    });

    it('keeps periodic limits, time zone and alert thresholds through create and update', async () => {
      const daily = { period: 'day', metric: 'requests', limit: 100 } as const;
      const created = await storage().accounts.create(account({ limits: { periodicLimits: [daily], timeZone: 'Europe/Paris', alertThresholds: [80] } }));
      expect(created).toMatchObject({ periodicLimits: [daily], timeZone: 'Europe/Paris', alertThresholds: [80] });
      expect(await storage().accounts.get(created.id)).toEqual(created);
      const weekly = { period: 'week', metric: 'cost', limit: 20_000_000 } as const;
      const updated = await storage().accounts.update(created.id, { periodicLimits: [daily, weekly], timeZone: null });
      expect(updated).toMatchObject({ periodicLimits: [daily, weekly], timeZone: null, alertThresholds: [80] });
      expect((await storage().accounts.list({ page: 1, perPage: 10 })).rows[0]).toEqual(updated);
    });

    it('refuses a second account with the same key digest', async () => {
      await storage().accounts.create(account({ keyDigest: 'same' }));
      expect(await failureOf(storage().accounts.create(account({ name: 'other', keyDigest: 'same' })))).toMatch(/unique/i);
      expect((await storage().accounts.list({ page: 1, perPage: 10 })).total).toBe(1);
    });

    it.each([424242, 2 ** 40, 2 ** 70, 1e300])('answers undefined or false for an account that does not exist (%d)', async (id) => {
      expect(await storage().accounts.get(id)).toBeUndefined();
      expect(await storage().accounts.update(id, { name: 'x' })).toBeUndefined();
      expect(await storage().accounts.delete(id)).toBe(false);
      await expect(storage().accounts.setKeyDigest(id, 'nobody')).resolves.toBeUndefined();
      expect(await storage().accounts.findByKeyDigest('nobody')).toBeUndefined();
    });

    it('pages in id order, with the total of all', async () => {
      const ids: number[] = [];
      for (const name of ['a', 'b', 'c', 'd', 'e']) ids.push((await storage().accounts.createUser(name)).id);
      const page = (n: number) => storage().accounts.list({ page: n, perPage: 2 });
      expect(await page(1)).toEqual({ rows: [expect.objectContaining({ id: ids[0] }), expect.objectContaining({ id: ids[1] })], total: 5 });
      expect((await page(2)).rows.map((row) => row.name)).toEqual(['c', 'd']);
      expect((await page(3)).rows.map((row) => row.name)).toEqual(['e']);
      expect(await page(4)).toEqual({ rows: [], total: 5 });
    });

    it('changes only what a patch names, and can clear the limit', async () => {
      const created = await storage().accounts.create(account({ quotaLimit: 1_000 }));
      const renamed = await storage().accounts.update(created.id, { name: 'renamed', quotaUsed: Number.MAX_SAFE_INTEGER });
      expect(renamed).toEqual({ ...created, name: 'renamed', quotaUsed: Number.MAX_SAFE_INTEGER });
      const cleared = await storage().accounts.update(created.id, { quotaLimit: null, status: 'disabled', role: 'admin' });
      expect(cleared).toEqual({ ...created, name: 'renamed', quotaUsed: Number.MAX_SAFE_INTEGER, quotaLimit: null, status: 'disabled', role: 'admin' });
      expect(await storage().accounts.get(created.id)).toEqual(cleared);
    });

    it('finds the first admin, and replaces its key digest', async () => {
      expect(await storage().accounts.findAdmin()).toBeUndefined();
      await storage().accounts.createUser('not an admin');
      const admin = await storage().accounts.createAdmin('admin-digest');
      expect(admin).toMatchObject({ name: 'admin', role: 'admin', status: 'active', quotaLimit: null, quotaUsed: 0, keyHint: null });
      await storage().accounts.create(account({ role: 'admin', keyDigest: 'second-admin' }));
      expect(await storage().accounts.findAdmin()).toEqual(admin);
      expect(await storage().accounts.findByKeyDigest('admin-digest')).toEqual(admin);

      await storage().accounts.setKeyDigest(admin.id, 'rotated');
      expect(await storage().accounts.findByKeyDigest('admin-digest')).toBeUndefined();
      expect(await storage().accounts.findByKeyDigest('rotated')).toEqual(admin);
    });

    it('gives the first admin with what is stored of its key, and replaces it only while it is what was read', async () => {
      expect(await storage().accounts.findAdminKeyHash()).toBeUndefined();
      const admin = await storage().accounts.createAdmin('stored-form-1');
      await storage().accounts.create(account({ role: 'admin', keyDigest: 'second-admin' }));
      expect(await storage().accounts.findAdminKeyHash()).toEqual({ account: admin, keyHash: 'stored-form-1' });
      expect(await storage().accounts.replaceKeyHash(admin.id, 'not-what-is-stored', 'stored-form-2')).toBe(false);
      expect(await storage().accounts.replaceKeyHash(admin.id, 'stored-form-1', 'stored-form-2')).toBe(true);
      expect(await storage().accounts.findAdminKeyHash()).toEqual({ account: admin, keyHash: 'stored-form-2' });
      expect(await storage().accounts.replaceKeyHash(424242, 'stored-form-2', 'x')).toBe(false);
    });
  });

  describe('delete', () => {
    const opened = storageWithSqlForEachTest(backend);

    const storedResponse = (id: string, accountId: number) =>
      opened().sql(
        `INSERT INTO stored_responses (id, account_id, origin, model, status, created_at, expires_at)
         VALUES ($1, $2, 'native', 'gpt-4o', 'completed', '2026-03-01T00:00:00.000Z', '2026-04-01T00:00:00.000Z')`,
        [id, accountId],
      );
    const usageRow = (requestId: string, accountId: number) =>
      opened().sql(
        `INSERT INTO usage_log (created_at, request_id, account_id, stream, status, prompt_tokens, completion_tokens,
           usage_estimated, cost, latency_ms, attempts)
         VALUES ('2026-03-01T00:00:00.000Z', $1, $2, $3, 200, 1, 1, $3, 5, 10, 1)`,
        [requestId, accountId, false],
      );

    it("takes the account's tokens, assistants and stored responses with it, and nobody else's", async () => {
      const { storage } = opened();
      const gone = await storage.accounts.createUser('gone');
      const kept = await storage.accounts.createUser('kept');
      for (const owner of [gone, kept]) {
        await storage.tokens.create({ accountId: owner.id, name: 't', keyDigest: `token-${owner.id}`, keyHint: 'sk-…' });
        await storage.assistants.create(newAssistant(owner.id, 'helper', { name: 'Helper' }));
        await storedResponse(`resp_${owner.id}`, owner.id);
        await usageRow(`req_${owner.id}`, owner.id);
      }

      expect(await storage.accounts.delete(gone.id)).toBe(true);
      expect(await storage.accounts.get(gone.id)).toBeUndefined();
      expect(await storage.accounts.delete(gone.id)).toBe(false);
      expect(await storage.tokens.findByKeyDigest(`token-${gone.id}`)).toBeUndefined();
      expect((await storage.tokens.list({ page: 1, perPage: 10, now: '2026-03-01T00:00:00.000Z' })).rows.map((t) => t.accountId)).toEqual([kept.id]);
      expect((await storage.assistants.findById('helper')).map((a) => a.accountId)).toEqual([kept.id]);
      expect(await opened().count('stored_responses', 'account_id = $1', [gone.id])).toBe(0);
      expect(await opened().count('stored_responses', 'account_id = $1', [kept.id])).toBe(1);
      // The usage log is history: its rows outlive the account.
      expect(await opened().count('usage_log')).toBe(2);
    });
  });
}
