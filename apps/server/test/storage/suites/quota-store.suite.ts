import { usageEntry } from '../../testing/system-api';
import type { StoreBackend } from '../testing/store-backends';
import type { Storage } from '../../../src/storage/types';
import { createAccount, createToken, instances, openMoneyDb, quotaUsed, reservations, type MoneyDb } from './money-fixture';

const NOW = Date.parse('2026-03-01T12:00:00.000Z');
const at = (offsetMs: number) => new Date(NOW + offsetMs).toISOString();
/** Stale before: what a start at NOW gives back (instances silent for 30 s). */
const STALE_BEFORE = at(-30_000);

/**
 * The behaviour every QuotaStore must show, on a real database: whole reservations, exact at
 * the limit; settled by usage rows; given back once when their instance is dead, never while it
 * lives; shared by instances reserving at once.
 */
export function describeQuotaStore(backend: StoreBackend): void {
  let db: MoneyDb;
  let storage: Storage;
  let accountId: number;
  let tokenId: number;

  beforeEach(async () => {
    db = await openMoneyDb(backend.name);
    storage = db.storage;
    accountId = await createAccount(db.sql, 1000);
    tokenId = await createToken(db.sql, accountId, 100);
  });
  afterEach(() => db.close());

  const reserve = (requestId: string, amount: number, on: Storage = storage) => on.quota.reserve({ requestId, tokenId, accountId, amount });
  const used = () => quotaUsed(db.sql, tokenId, accountId);
  const settle = (requestId: string, reserved: number, cost: number, on: Storage = storage) =>
    on.usageLog.insertBatch([usageEntry({ requestId, tokenId, accountId, quotaReserved: reserved, cost })]);

  describe('reserve', () => {
    it('admits a reservation only when all of it fits (quota_used + amount <= quota_limit), exactly up to the limit', async () => {
      expect(await reserve('a', 60)).toEqual({ ok: true });
      expect(await reserve('b', 41)).toEqual({ ok: false, exhausted: 'token' });
      expect(await reserve('c', 40)).toEqual({ ok: true });
      // The limit reached: nothing more, not even a free request.
      expect(await reserve('d', 0)).toEqual({ ok: false, exhausted: 'token' });
      expect(await reserve('e', 1)).toEqual({ ok: false, exhausted: 'token' });
      expect(await used()).toEqual({ token: 100, account: 100 });
      expect(await reservations(db.sql)).toEqual([
        { requestId: 'a', amount: 60, instanceId: 'instance-a' },
        { requestId: 'c', amount: 40, instanceId: 'instance-a' },
      ]);
    });

    it('a free request is admitted while something is left, and records nothing to give back', async () => {
      expect(await reserve('free', 0)).toEqual({ ok: true });
      expect(await used()).toEqual({ token: 0, account: 0 });
      expect(await reservations(db.sql)).toEqual([]);
    });

    it("refuses on the account's limit and takes nothing from the token then", async () => {
      await db.sql.run('UPDATE accounts SET quota_limit = 50 WHERE id = ?', [accountId]);
      expect(await reserve('a', 60)).toEqual({ ok: false, exhausted: 'account' });
      expect(await used()).toEqual({ token: 0, account: 0 });
      expect(await reservations(db.sql)).toEqual([]);
      expect(await reserve('b', 50)).toEqual({ ok: true });
      expect(await reserve('c', 0)).toEqual({ ok: false, exhausted: 'account' });
      expect(await used()).toEqual({ token: 50, account: 50 });
    });

    it("names the token when the token's limit refuses first, and leaves the account untouched", async () => {
      expect(await reserve('a', 101)).toEqual({ ok: false, exhausted: 'token' });
      expect(await used()).toEqual({ token: 0, account: 0 });
    });

    it('admits anything where there is no limit, and still records it', async () => {
      await db.sql.run('UPDATE tokens SET quota_limit = NULL WHERE id = ?', [tokenId]);
      await db.sql.run('UPDATE accounts SET quota_limit = NULL WHERE id = ?', [accountId]);
      expect(await reserve('big', 5_000_000)).toEqual({ ok: true });
      expect(await used()).toEqual({ token: 5_000_000, account: 5_000_000 });
      expect(await reservations(db.sql)).toHaveLength(1);
    });
  });

  describe('settlement by usage rows', () => {
    it('a cost below the reservation: quota_used becomes the cost, nothing is left to give back', async () => {
      await reserve('a', 70);
      await settle('a', 70, 12);
      expect(await used()).toEqual({ token: 12, account: 12 });
      expect(await reservations(db.sql)).toEqual([]);
      expect(await storage.quota.releaseReservations(at(86_400_000 * 365))).toEqual({ count: 0, amount: 0 });
      expect(await used()).toEqual({ token: 12, account: 12 });
    });

    it('a cost above the reservation is charged whole, past the limit if it must be', async () => {
      await reserve('a', 70);
      await settle('a', 70, 150);
      expect(await used()).toEqual({ token: 150, account: 150 });
      expect(await reservations(db.sql)).toEqual([]);
      expect(await reserve('b', 0)).toEqual({ ok: false, exhausted: 'token' });
    });

    it('requests sharing an id: each row settles one of its equal reservations, the others stay', async () => {
      await reserve('shared', 30);
      await reserve('shared', 30);
      await reserve('shared', 20);
      expect(await used()).toEqual({ token: 80, account: 80 });
      await storage.usageLog.insertBatch([
        usageEntry({ requestId: 'shared', tokenId, accountId, quotaReserved: 30, cost: 5 }),
        usageEntry({ requestId: 'shared', tokenId, accountId, quotaReserved: 30, cost: 7 }),
      ]);
      expect(await used()).toEqual({ token: 32, account: 32 });
      expect(await reservations(db.sql)).toEqual([{ requestId: 'shared', amount: 20, instanceId: 'instance-a' }]);
      await settle('shared', 20, 1);
      expect(await used()).toEqual({ token: 13, account: 13 });
      expect(await reservations(db.sql)).toEqual([]);
    });

    it('a row whose reservation is not there (given back already) is charged its whole cost: never both', async () => {
      await reserve('shared', 30);
      await storage.usageLog.insertBatch([
        usageEntry({ requestId: 'shared', tokenId, accountId, quotaReserved: 30, cost: 5 }),
        usageEntry({ requestId: 'shared', tokenId, accountId, quotaReserved: 30, cost: 7 }),
      ]);
      expect(await used()).toEqual({ token: 12, account: 12 });
    });

    it('settlement never takes quota_used below zero (an admin reset it while a request ran)', async () => {
      await reserve('a', 70);
      await db.sql.run('UPDATE tokens SET quota_used = 0 WHERE id = ?', [tokenId]);
      await settle('a', 70, 10);
      expect((await used()).token).toBe(0);
      expect((await used()).account).toBe(10);
    });
  });

  describe('releaseReservations (a database one process owns)', () => {
    it('gives back the reservations taken before a time, and keeps the newer ones', async () => {
      await reserve('old-1', 20);
      await reserve('old-2', 30);
      await new Promise((resolve) => setTimeout(resolve, 5));
      const cutoff = new Date().toISOString();
      await new Promise((resolve) => setTimeout(resolve, 5));
      await reserve('new', 25);
      expect(await used()).toEqual({ token: 75, account: 75 });

      expect(await storage.quota.releaseReservations(cutoff)).toEqual({ count: 2, amount: 50 });
      expect(await used()).toEqual({ token: 25, account: 25 });
      await settle('new', 25, 5);
      expect(await used()).toEqual({ token: 5, account: 5 });
      expect(await storage.quota.releaseReservations(new Date(Date.now() + 1000).toISOString())).toEqual({ count: 0, amount: 0 });
    });
  });

  describe('instances sharing the database', () => {
    it("gives back a dead instance's reservations once, never a live one's", async () => {
      const b = await db.open('instance-b');
      await storage.quota.heartbeat(at(0));
      await b.quota.heartbeat(at(0));
      await reserve('a-1', 20);
      await reserve('b-1', 30, b);
      // Both alive: nothing is anyone's to give back.
      expect(await b.quota.releaseOrphaned(STALE_BEFORE)).toEqual({ count: 0, amount: 0 });
      expect(await storage.quota.releaseOrphaned(STALE_BEFORE)).toEqual({ count: 0, amount: 0 });
      expect(await used()).toEqual({ token: 50, account: 50 });

      // instance-a falls silent: its last beat is older than the cutoff.
      await storage.quota.heartbeat(at(-60_000));
      expect(await b.quota.releaseOrphaned(STALE_BEFORE)).toEqual({ count: 1, amount: 20 });
      expect(await used()).toEqual({ token: 30, account: 30 });
      expect(await instances(db.sql)).toEqual(['instance-b']);
      expect(await reservations(db.sql)).toEqual([{ requestId: 'b-1', amount: 30, instanceId: 'instance-b' }]);
      // Once.
      expect(await b.quota.releaseOrphaned(STALE_BEFORE)).toEqual({ count: 0, amount: 0 });
      expect(await used()).toEqual({ token: 30, account: 30 });
    });

    it('never gives back its own reservations, however stale its own heartbeat', async () => {
      await storage.quota.heartbeat(at(-600_000));
      await reserve('mine', 40);
      expect(await storage.quota.releaseOrphaned(STALE_BEFORE)).toEqual({ count: 0, amount: 0 });
      expect(await instances(db.sql)).toEqual(['instance-a']);
      expect(await used()).toEqual({ token: 40, account: 40 });
    });

    it('takes an instance that never beat, and reservations from before instances were recorded, for dead', async () => {
      const silent = await db.open('instance-never-beat');
      await reserve('silent-1', 10, silent);
      // A reservation written before migration 9 / version 2: no instance.
      await db.sql.run('INSERT INTO quota_reservations (request_id, token_id, account_id, amount, created_at) VALUES (?, ?, ?, ?, ?)', [
        'legacy',
        tokenId,
        accountId,
        5,
        at(-86_400_000),
      ]);
      await db.sql.run('UPDATE tokens SET quota_used = quota_used + 5 WHERE id = ?', [tokenId]);
      await db.sql.run('UPDATE accounts SET quota_used = quota_used + 5 WHERE id = ?', [accountId]);
      await storage.quota.heartbeat(at(0));
      await reserve('live', 25);
      expect(await used()).toEqual({ token: 40, account: 40 });

      expect(await storage.quota.releaseOrphaned(STALE_BEFORE)).toEqual({ count: 2, amount: 15 });
      expect(await used()).toEqual({ token: 25, account: 25 });
      expect(await reservations(db.sql)).toEqual([{ requestId: 'live', amount: 25, instanceId: 'instance-a' }]);
    });

    it("gives back never below zero (an admin reset quota_used meanwhile)", async () => {
      const b = await db.open('instance-b');
      await reserve('b-1', 30, b);
      await db.sql.run('UPDATE tokens SET quota_used = 10 WHERE id = ?', [tokenId]);
      await storage.quota.heartbeat(at(0));
      expect(await storage.quota.releaseOrphaned(STALE_BEFORE)).toEqual({ count: 1, amount: 30 });
      expect(await used()).toEqual({ token: 0, account: 0 });
    });

    it("a dead instance's row arriving after its reservation was given back is charged once", async () => {
      const b = await db.open('instance-b');
      await b.quota.heartbeat(at(-120_000));
      await reserve('late', 70, b);
      await storage.quota.heartbeat(at(0));
      expect(await storage.quota.releaseOrphaned(STALE_BEFORE)).toEqual({ count: 1, amount: 70 });
      expect(await used()).toEqual({ token: 0, account: 0 });
      // instance-b was only paused: its row comes after all.
      await settle('late', 70, 12, b);
      expect(await used()).toEqual({ token: 12, account: 12 });
    });

    it('retire gives back what this instance still holds, forgets it, and touches no other', async () => {
      const b = await db.open('instance-b');
      await storage.quota.heartbeat(at(0));
      await b.quota.heartbeat(at(0));
      await reserve('a-1', 20);
      await reserve('a-2', 5);
      await reserve('b-1', 30, b);
      await settle('a-2', 5, 3);
      expect(await storage.quota.retire()).toEqual({ count: 1, amount: 20 });
      expect(await used()).toEqual({ token: 33, account: 33 });
      expect(await instances(db.sql)).toEqual(['instance-b']);
      expect(await reservations(db.sql)).toEqual([{ requestId: 'b-1', amount: 30, instanceId: 'instance-b' }]);
      expect(await storage.quota.retire()).toEqual({ count: 0, amount: 0 });
    });
  });

  describe('concurrency', () => {
    it("settling rows while another instance gives the same reservations back: each is counted once, quota_used ends at the costs", async () => {
      const b = await db.open('instance-b');
      await db.sql.run('UPDATE tokens SET quota_limit = NULL WHERE id = ?', [tokenId]);
      await db.sql.run('UPDATE accounts SET quota_limit = NULL WHERE id = ?', [accountId]);
      await b.quota.heartbeat(at(-120_000));
      await storage.quota.heartbeat(at(0));
      const rows = Array.from({ length: 100 }, (_, i) => usageEntry({ requestId: `r-${i}`, tokenId, accountId, quotaReserved: 50, cost: (i * 37) % 101 }));
      for (const row of rows) expect(await reserve(row.requestId, 50, b)).toEqual({ ok: true });
      const batch = (i: number) => b.usageLog.insertBatch(rows.slice(i * 10, i * 10 + 10));
      // Half settled first; then the rest settled while the dead instance's reservations are
      // given back (on PostgreSQL at the same time; SQLite runs each call whole, the releases first).
      for (let i = 0; i < 5; i++) await batch(i);
      const releases = Promise.all(Array.from({ length: 3 }, () => storage.quota.releaseOrphaned(STALE_BEFORE)));
      await Promise.all([5, 6, 7, 8, 9].map(batch));
      const released = await releases;
      const cost = rows.reduce((sum, row) => sum + row.cost, 0);
      expect(await used()).toEqual({ token: cost, account: cost });
      expect(await reservations(db.sql)).toEqual([]);
      const count = released.reduce((sum, outcome) => sum + outcome.count, 0);
      expect(count).toBeLessThanOrEqual(50);
      expect(released.reduce((sum, outcome) => sum + outcome.amount, 0)).toBe(50 * count);
    }, 30_000);

    it('200 reservations at once from two instances against the token limit: exactly as many as fit', async () => {
      const b = await db.open('instance-b');
      await db.sql.run('UPDATE tokens SET quota_limit = 1000 WHERE id = ?', [tokenId]);
      await db.sql.run('UPDATE accounts SET quota_limit = NULL WHERE id = ?', [accountId]);
      const outcomes = await Promise.all(Array.from({ length: 200 }, (_, i) => reserve(`r-${i}`, 10, i % 2 === 0 ? storage : b)));
      expect(outcomes.filter((outcome) => outcome.ok)).toHaveLength(100);
      expect(outcomes.filter((outcome) => !outcome.ok).every((outcome) => !outcome.ok && outcome.exhausted === 'token')).toBe(true);
      expect(await used()).toEqual({ token: 1000, account: 1000 });
      expect(await reservations(db.sql)).toHaveLength(100);
    }, 30_000);

    it('200 reservations at once from two instances against the account limit: exactly as many as fit, tokens untouched by refusals', async () => {
      const b = await db.open('instance-b');
      await db.sql.run('UPDATE tokens SET quota_limit = NULL WHERE id = ?', [tokenId]);
      await db.sql.run('UPDATE accounts SET quota_limit = 700 WHERE id = ?', [accountId]);
      const other = await createToken(db.sql, accountId, null);
      const outcomes = await Promise.all(
        Array.from({ length: 200 }, (_, i) =>
          (i % 2 === 0 ? storage : b).quota.reserve({ requestId: `r-${i}`, tokenId: i % 4 < 2 ? tokenId : other, accountId, amount: 7 }),
        ),
      );
      expect(outcomes.filter((outcome) => outcome.ok)).toHaveLength(100);
      const first = await quotaUsed(db.sql, tokenId, accountId);
      const second = await quotaUsed(db.sql, other, accountId);
      expect(first.account).toBe(700);
      expect(first.token + second.token).toBe(700);
      expect(await reservations(db.sql)).toHaveLength(100);
    }, 30_000);
  });
}
