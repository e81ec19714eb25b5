import { releaseLeftoverReservations } from '../../../src/storage/bootstrap';
import { createLogger } from '../../../src/logger';
import { usageEntry } from '../../testing/system-api';
import type { StoreBackend } from '../testing/store-backends';
import type { Storage } from '../../../src/storage/types';
import { createAccount, createToken, openMoneyDb, quotaUsed, reservations, type MoneyDb } from './money-fixture';
import { at, newTask, settlementOf, submit } from './task-sample';

const silent = createLogger('silent');

/**
 * The money side of every TaskStore, on a real database: a task's reservation is settled by its
 * own usage row once — however many pollers, instances or cancels end it at once — kept through
 * restarts and never given back as orphaned, while ordinary reservations still are.
 */
export function describeTaskSettlement(backend: StoreBackend): void {
  let db: MoneyDb;
  let storage: Storage;
  let accountId: number;
  let tokenId: number;

  beforeEach(async () => {
    db = await openMoneyDb(backend.name);
    storage = db.storage;
    accountId = await createAccount(db.sql, 10_000_000);
    tokenId = await createToken(db.sql, accountId, 5_000_000);
  });
  afterEach(() => db.close());

  const used = () => quotaUsed(db.sql, tokenId, accountId);
  const usageRows = async () => (await db.sql.all<{ n: number }>('SELECT COUNT(*) AS n FROM usage_log')).map((row) => Number(row.n))[0];
  const held = async () =>
    (await db.sql.all<{ request_id: string; task_id: string | null }>('SELECT request_id, task_id FROM quota_reservations ORDER BY id')).map((row) => [
      row.request_id,
      row.task_id,
    ]);

  describe('create', () => {
    it("makes the submit's reservation the task's, and no other", async () => {
      await storage.quota.reserve({ requestId: 'ordinary', tokenId, accountId, amount: 500 });
      const task = await submit(storage, newTask(accountId, tokenId), 500);
      expect(await held()).toEqual([
        ['ordinary', null],
        [task.requestId, task.id],
      ]);
      expect(await used()).toEqual({ token: 1_000, account: 1_000 });
    });

    it('holds nothing when nothing was reserved (a free task, the admin key) or the amounts differ', async () => {
      await storage.tasks.create(newTask(accountId, null, { quotaReserved: 0 }));
      const task = newTask(accountId, tokenId);
      await storage.quota.reserve({ requestId: task.requestId, tokenId, accountId, amount: 400 });
      await storage.tasks.create({ ...task, quotaReserved: 300 });
      expect(await held()).toEqual([[task.requestId, null]]);
    });
  });

  describe('periodic windows (issue 32)', () => {
    const window = () => ({ owner: 'token' as const, ownerId: tokenId, period: 'day' as const, start: '2026-03-01', limits: { cost: null, requests: 10, tokens: null } });

    it("a free task holds its submit's window reservation through a restart, and its row settles it: the request stays counted", async () => {
      const task = newTask(accountId, tokenId);
      expect(await storage.quota.reserve({ requestId: task.requestId, tokenId, accountId, amount: 0, windows: [window()] })).toEqual({ ok: true });
      const created = await storage.tasks.create(task);
      expect(await held()).toEqual([[task.requestId, task.id]]);
      // A task's reservation is never given back: the window keeps the request.
      await db.restart('instance-b');
      storage = db.storage;
      expect(await storage.quota.releaseReservations(at(86_400_000))).toEqual({ count: 0, amount: 0 });
      expect(await storage.tasks.settle(task.id, settlementOf(created, 0))).toMatchObject({ status: 'completed' });
      expect(await held()).toEqual([]);
      expect(await storage.quota.windowUsage([window()])).toEqual([{ cost: 0, requests: 1, tokens: 0 }]);
    });

    it("a priced task's row moves the cost's difference into its window", async () => {
      const task = newTask(accountId, tokenId);
      expect(await storage.quota.reserve({ requestId: task.requestId, tokenId, accountId, amount: 800_000, windows: [window()] })).toEqual({ ok: true });
      const created = await storage.tasks.create({ ...task, quotaReserved: 800_000 });
      await storage.tasks.settle(task.id, settlementOf(created, 640_000));
      expect(await storage.quota.windowUsage([window()])).toEqual([{ cost: 640_000, requests: 1, tokens: 0 }]);
      expect(await used()).toEqual({ token: 640_000, account: 640_000 });
    });
  });

  describe('settle', () => {
    it('charges once: the task ended, one usage row, quota_used = reserved − reserved + cost, the reservation gone', async () => {
      const task = await submit(storage, newTask(accountId, tokenId), 800_000);
      await storage.tasks.claimDue(at(1), at(30_000), 1);
      expect(await used()).toEqual({ token: 800_000, account: 800_000 });
      const settlement = settlementOf(task, 640_000);
      const settled = await storage.tasks.settle(task.id, settlement);
      expect(settled).toMatchObject({
        status: 'completed',
        progress: 100,
        error: null,
        result: settlement.result,
        units: 8,
        unitVariant: '1280x720',
        cost: 640_000,
        completedAt: settlement.completedAt,
        settledAt: expect.any(String),
        leaseUntil: null,
      });
      expect(settled?.updatedAt).toBe(settled?.settledAt);
      expect(await storage.tasks.get(accountId, task.id)).toStrictEqual(settled);
      expect(await used()).toEqual({ token: 640_000, account: 640_000 });
      expect(await reservations(db.sql)).toEqual([]);
      const [row] = await storage.usageLog.recent(5);
      expect(row).toMatchObject({ requestId: task.requestId, endpoint: 'videos', units: 8, cost: 640_000, tokenId, accountId });
      expect(await storage.usageLog.aggregate({ tokenId }, at(-3_600_000), at(3_600_000), 'model')).toEqual([
        expect.objectContaining({ key: 'sora-2', requests: 1, cost: 640_000 }),
      ]);

      // Again (another poll, a cancel): nothing written, nothing charged.
      expect(await storage.tasks.settle(task.id, settlementOf(task, 640_000))).toBeUndefined();
      expect(await storage.tasks.settle(task.id, settlementOf(task, 0, 'cancelled'))).toBeUndefined();
      expect(await usageRows()).toBe(1);
      expect(await used()).toEqual({ token: 640_000, account: 640_000 });
      expect(await storage.tasks.get(accountId, task.id)).toStrictEqual(settled);
      expect(await storage.tasks.settle('video_missing', settlementOf(task, 1))).toBeUndefined();
    });

    it('a failed or cancelled task (cost 0) gives its whole reservation back', async () => {
      const failed = await submit(storage, newTask(accountId, tokenId), 300_000);
      const cancelled = await submit(storage, newTask(accountId, tokenId), 200_000);
      expect(await used()).toEqual({ token: 500_000, account: 500_000 });
      expect(await storage.tasks.settle(failed.id, settlementOf(failed, 0, 'failed'))).toMatchObject({
        status: 'failed',
        error: { code: 'moderation_blocked', message: 'refused by the upstream' },
        cost: 0,
      });
      expect(await storage.tasks.settle(cancelled.id, settlementOf(cancelled, 0, 'cancelled'))).toMatchObject({ status: 'cancelled', cost: 0 });
      expect(await used()).toEqual({ token: 0, account: 0 });
      expect(await reservations(db.sql)).toEqual([]);
      expect(await usageRows()).toBe(2);
    });

    it('a cost above the reservation is charged whole; a reservation given back already is not given twice', async () => {
      const dear = await submit(storage, newTask(accountId, tokenId), 100);
      await storage.tasks.settle(dear.id, settlementOf(dear, 900));
      expect(await used()).toEqual({ token: 900, account: 900 });
      // No reservation held (the account's quota reset, say): the whole cost is charged.
      const unheld = await storage.tasks.create(newTask(accountId, tokenId, { quotaReserved: 50 }));
      await storage.tasks.settle(unheld.id, settlementOf(unheld, 30));
      expect(await used()).toEqual({ token: 930, account: 930 });
    });

    it('two settlements at once (two instances): exactly one wins, one usage row each task, charged once', async () => {
      const b = await db.open('instance-b');
      const tasks = [];
      for (let i = 0; i < 20; i++) tasks.push(await submit(i % 2 === 0 ? storage : b, newTask(accountId, tokenId), 10_000));
      expect(await used()).toEqual({ token: 200_000, account: 200_000 });
      const outcomes = await Promise.all(
        tasks.flatMap((task, i) => [storage.tasks.settle(task.id, settlementOf(task, 1_000 + i)), b.tasks.settle(task.id, settlementOf(task, 1_000 + i))]),
      );
      for (let i = 0; i < tasks.length; i++) {
        expect([outcomes[2 * i], outcomes[2 * i + 1]].filter((outcome) => outcome !== undefined)).toHaveLength(1);
      }
      expect(await usageRows()).toBe(20);
      const cost = tasks.reduce((sum, _, i) => sum + 1_000 + i, 0);
      expect(await used()).toEqual({ token: cost, account: cost });
      expect(await reservations(db.sql)).toEqual([]);
    }, 30_000);

    it("an ordinary row of the same request id never settles the task's reservation", async () => {
      const task = await submit(storage, newTask(accountId, tokenId), 700);
      await storage.usageLog.insertBatch([usageEntry({ requestId: task.requestId, tokenId, accountId, quotaReserved: 700, cost: 5 })]);
      // Found no reservation of its own: charged whole.
      expect(await used()).toEqual({ token: 705, account: 705 });
      expect(await held()).toEqual([[task.requestId, task.id]]);
      await storage.tasks.settle(task.id, settlementOf(task, 600));
      expect(await used()).toEqual({ token: 605, account: 605 });
      expect(await reservations(db.sql)).toEqual([]);
    });
  });

  describe("reservations a task holds outlive what gives orphaned ones back", () => {
    it('releaseReservations (SQLite at start) gives back the ordinary ones only', async () => {
      const task = await submit(storage, newTask(accountId, tokenId), 400);
      await storage.quota.reserve({ requestId: 'ordinary', tokenId, accountId, amount: 250 });
      expect(await storage.quota.releaseReservations(new Date(Date.now() + 60_000).toISOString())).toEqual({ count: 1, amount: 250 });
      expect(await used()).toEqual({ token: 400, account: 400 });
      await storage.tasks.settle(task.id, settlementOf(task, 100));
      expect(await used()).toEqual({ token: 100, account: 100 });
    });

    it("releaseOrphaned gives back a dead instance's ordinary reservations, not its tasks'; a live instance settles those", async () => {
      const b = await db.open('instance-b');
      await b.quota.heartbeat(at(-120_000));
      const task = await submit(b, newTask(accountId, tokenId), 400);
      await b.quota.reserve({ requestId: 'b-ordinary', tokenId, accountId, amount: 250 });
      await storage.quota.heartbeat(at(0));
      expect(await storage.quota.releaseOrphaned(at(-30_000))).toEqual({ count: 1, amount: 250 });
      expect(await storage.quota.releaseOrphaned(at(-30_000))).toEqual({ count: 0, amount: 0 });
      expect(await held()).toEqual([[task.requestId, task.id]]);
      expect(ids(await storage.tasks.claimDue(at(1), at(30_000), 10))).toEqual([task.id]);
      await storage.tasks.settle(task.id, settlementOf(task, 150));
      expect(await used()).toEqual({ token: 150, account: 150 });
    });

    it("retire gives back this instance's ordinary reservations and leaves its tasks'", async () => {
      const task = await submit(storage, newTask(accountId, tokenId), 400);
      await storage.quota.reserve({ requestId: 'ordinary', tokenId, accountId, amount: 250 });
      expect(await storage.quota.retire()).toEqual({ count: 1, amount: 250 });
      expect(await held()).toEqual([[task.requestId, task.id]]);
      expect(await used()).toEqual({ token: 400, account: 400 });
    });

    it('a restart (the database closed and opened again) keeps the tasks and their reservations, and settles them after', async () => {
      const task = await submit(storage, newTask(accountId, tokenId), 400);
      await storage.quota.reserve({ requestId: 'in-flight', tokenId, accountId, amount: 250 });
      await storage.quota.heartbeat(new Date().toISOString());
      const restarted = await db.restart('instance-after');
      // What the relay does as it starts (bootstrap), once the old process's heartbeat is stale:
      // what that process left reserved is given back.
      await releaseLeftoverReservations(restarted, silent, Date.now() + 600_000);
      expect(await used()).toEqual({ token: 400, account: 400 });
      expect(await held()).toEqual([[task.requestId, task.id]]);
      expect(await restarted.tasks.countUnsettled()).toBe(1);
      expect(await restarted.tasks.get(accountId, task.id)).toStrictEqual(task);
      expect(ids(await restarted.tasks.claimDue(at(1), at(30_000), 10))).toEqual([task.id]);
      await restarted.tasks.settle(task.id, settlementOf(task, 380));
      expect(await used()).toEqual({ token: 380, account: 380 });
      expect(await reservations(db.sql)).toEqual([]);
    });
  });

  it("deleting the account deletes its tasks and the reservations they hold, and no one else's", async () => {
    const other = await createAccount(db.sql, null);
    const otherToken = await createToken(db.sql, other, null);
    await submit(storage, newTask(accountId, tokenId), 400);
    const theirs = await submit(storage, newTask(other, otherToken), 300);
    expect(await storage.accounts.delete(accountId)).toBe(true);
    expect(await db.sql.all('SELECT id FROM tasks')).toEqual([{ id: theirs.id }]);
    expect(await held()).toEqual([[theirs.requestId, theirs.id]]);
    expect(await storage.quota.releaseReservations(new Date(Date.now() + 60_000).toISOString())).toEqual({ count: 0, amount: 0 });
    expect(await storage.tasks.get(other, theirs.id)).toStrictEqual(theirs);
  });
}

const ids = (tasks: ReadonlyArray<{ id: string }>) => tasks.map((task) => task.id);
