import type { StoreBackend } from '../testing/store-backends';
import type { Storage, TaskListRequest, TaskRecord } from '../../../src/storage/types';
import { createAccount, createToken, openMoneyDb, type MoneyDb } from './money-fixture';
import { at, newTask, settlementOf, T0 } from './task-sample';

const ids = (tasks: readonly TaskRecord[]) => tasks.map((task) => task.id);

/**
 * What every TaskStore must show, on a real database: tasks found only by their own account and
 * never once deleted; keyset pages in both orders; claims leased so no two pollers — instances
 * sharing the database included — take the same task at once; settled tasks left alone. The
 * money side (settle, reservations) is task-settlement.suite.ts.
 */
export function describeTaskStore(backend: StoreBackend): void {
  let db: MoneyDb;
  let storage: Storage;
  let accountId: number;
  let tokenId: number;
  let otherAccountId: number;

  beforeEach(async () => {
    db = await openMoneyDb(backend.name);
    storage = db.storage;
    accountId = await createAccount(db.sql, null);
    tokenId = await createToken(db.sql, accountId, null);
    otherAccountId = await createAccount(db.sql, null);
  });
  afterEach(() => db.close());

  describe('create and get', () => {
    it('stores every field as given, with the defaults of a task just submitted', async () => {
      const task = newTask(accountId, tokenId);
      const created = await storage.tasks.create(task);
      expect(created).toStrictEqual({
        ...task,
        status: 'queued',
        progress: 0,
        error: null,
        result: null,
        cost: 0,
        updatedAt: T0,
        startedAt: null,
        completedAt: null,
        settledAt: null,
        polls: 0,
        leaseUntil: null,
        deletedAt: null,
      });
      expect(await storage.tasks.get(accountId, task.id)).toStrictEqual(created);
      expect(Object.keys(created.params)).toEqual(['prompt', 'size', 'seconds']);
    });

    it('keeps a first state the upstream answered the submit with, and a task of the admin key (no token)', async () => {
      const task = newTask(accountId, null, { kind: 'music', id: 'task_first', status: 'in_progress', progress: 12.5, result: { z: 1, a: [2] }, startedAt: at(1) });
      const created = await storage.tasks.create(task);
      expect(created).toMatchObject({ kind: 'music', tokenId: null, status: 'in_progress', progress: 12.5, result: { z: 1, a: [2] }, startedAt: at(1) });
      expect(Object.keys(created.result ?? {})).toEqual(['z', 'a']);
      expect(await storage.tasks.get(accountId, 'task_first')).toStrictEqual(created);
    });

    it("is found by its own account only: another account's id, or one that does not exist, is undefined", async () => {
      const mine = await storage.tasks.create(newTask(accountId, tokenId));
      const theirs = await storage.tasks.create(newTask(otherAccountId, null));
      expect(await storage.tasks.get(otherAccountId, mine.id)).toBeUndefined();
      expect(await storage.tasks.get(accountId, theirs.id)).toBeUndefined();
      expect(await storage.tasks.get(accountId, 'video_missing')).toBeUndefined();
      expect(await storage.tasks.get(otherAccountId, theirs.id)).toStrictEqual(theirs);
    });

    it("getMany answers the account's own tasks among the ids, whatever else is asked", async () => {
      const [a, b] = [await storage.tasks.create(newTask(accountId, tokenId)), await storage.tasks.create(newTask(accountId, tokenId))];
      const theirs = await storage.tasks.create(newTask(otherAccountId, null));
      const found = await storage.tasks.getMany(accountId, [b.id, theirs.id, 'video_missing', a.id, a.id]);
      expect(ids(found).sort()).toEqual([a.id, b.id].sort());
      expect(found.find((task) => task.id === a.id)).toStrictEqual(a);
      expect(await storage.tasks.getMany(accountId, [])).toEqual([]);
      expect(await storage.tasks.getMany(otherAccountId, [a.id, b.id])).toEqual([]);
    });

    it('refuses a second task with the same id', async () => {
      const task = newTask(accountId, tokenId);
      await storage.tasks.create(task);
      await expect(storage.tasks.create({ ...task, accountId: otherAccountId })).rejects.toMatchObject({ message: expect.stringMatching(/unique|primary|duplicate/i) });
      expect(await storage.tasks.get(otherAccountId, task.id)).toBeUndefined();
    });
  });

  describe('markDeleted', () => {
    it('hides the task from get, getMany and list; once; never by another account', async () => {
      const [gone, kept] = [await storage.tasks.create(newTask(accountId, tokenId)), await storage.tasks.create(newTask(accountId, tokenId))];
      expect(await storage.tasks.markDeleted(otherAccountId, gone.id, at(5))).toBe(false);
      expect(await storage.tasks.get(accountId, gone.id)).toBeDefined();
      expect(await storage.tasks.markDeleted(accountId, gone.id, at(5))).toBe(true);
      expect(await storage.tasks.markDeleted(accountId, gone.id, at(6))).toBe(false);
      expect(await storage.tasks.markDeleted(accountId, 'video_missing', at(6))).toBe(false);
      expect(await storage.tasks.get(accountId, gone.id)).toBeUndefined();
      expect(ids(await storage.tasks.getMany(accountId, [gone.id, kept.id]))).toEqual([kept.id]);
      expect(ids((await storage.tasks.list({ accountId, kind: 'video', limit: 10, order: 'asc' })).rows)).toEqual([kept.id]);
    });

    it('still lets a deleted task be polled and settled: its reservation must end', async () => {
      const task = await storage.tasks.create(newTask(accountId, tokenId));
      await storage.tasks.markDeleted(accountId, task.id, at(1));
      expect(ids(await storage.tasks.claimDue(at(10), at(30_000), 10))).toEqual([task.id]);
      expect(await storage.tasks.update(task.id, { progress: 50 }, at(11))).toMatchObject({ progress: 50, deletedAt: at(1) });
      expect(await storage.tasks.settle(task.id, settlementOf(task, 0, 'cancelled'))).toMatchObject({ status: 'cancelled', deletedAt: at(1) });
    });
  });

  describe('list', () => {
    /** Seven videos of the account — three sharing one creation time, so the id breaks ties — and tasks that must never show. */
    let expectedAsc: string[];
    beforeEach(async () => {
      const created = [
        newTask(accountId, tokenId, { id: 'video_c', createdAt: at(2_000) }),
        newTask(accountId, tokenId, { id: 'video_b', createdAt: at(1_000) }),
        newTask(accountId, tokenId, { id: 'video_z', createdAt: at(1_000) }),
        newTask(accountId, tokenId, { id: 'video_a', createdAt: at(1_000) }),
        newTask(accountId, tokenId, { id: 'video_y', createdAt: at(0) }),
        newTask(accountId, tokenId, { id: 'video_x', createdAt: at(3_000) }),
        newTask(accountId, tokenId, { id: 'video_m', createdAt: at(2_500) }),
      ];
      for (const task of created) await storage.tasks.create(task);
      await storage.tasks.create(newTask(accountId, tokenId, { id: 'task_song', kind: 'music', createdAt: at(1_500) }));
      await storage.tasks.create(newTask(otherAccountId, null, { id: 'video_theirs', createdAt: at(1_500) }));
      expectedAsc = ['video_y', 'video_a', 'video_b', 'video_z', 'video_c', 'video_m', 'video_x'];
    });

    const pages = async (request: Omit<TaskListRequest, 'after'>) => {
      const seen: Array<{ ids: string[]; hasMore: boolean }> = [];
      let after: string | undefined;
      for (;;) {
        const page = await storage.tasks.list({ ...request, ...(after === undefined ? {} : { after }) });
        seen.push({ ids: ids(page.rows), hasMore: page.hasMore });
        if (!page.hasMore) return seen;
        after = page.rows[page.rows.length - 1]?.id;
        if (seen.length > 10) throw new Error('paging does not end');
      }
    };

    it('pages oldest first by creation time, then id: none skipped or repeated, hasMore exact', async () => {
      expect(await pages({ accountId, kind: 'video', limit: 3, order: 'asc' })).toEqual([
        { ids: expectedAsc.slice(0, 3), hasMore: true },
        { ids: expectedAsc.slice(3, 6), hasMore: true },
        { ids: expectedAsc.slice(6), hasMore: false },
      ]);
    });

    it('pages newest first the same way', async () => {
      const desc = [...expectedAsc].reverse();
      expect(await pages({ accountId, kind: 'video', limit: 2, order: 'desc' })).toEqual([
        { ids: desc.slice(0, 2), hasMore: true },
        { ids: desc.slice(2, 4), hasMore: true },
        { ids: desc.slice(4, 6), hasMore: true },
        { ids: desc.slice(6), hasMore: false },
      ]);
    });

    it('a page exactly as long as what is left has no more; one kind and one account only', async () => {
      expect(await storage.tasks.list({ accountId, kind: 'video', limit: 7, order: 'asc' })).toMatchObject({ hasMore: false });
      expect(ids((await storage.tasks.list({ accountId, kind: 'video', limit: 6, order: 'desc', after: 'video_x' })).rows)).toEqual(
        [...expectedAsc].reverse().slice(1),
      );
      expect(ids((await storage.tasks.list({ accountId, kind: 'music', limit: 10, order: 'asc' })).rows)).toEqual(['task_song']);
      expect(ids((await storage.tasks.list({ accountId: otherAccountId, kind: 'video', limit: 10, order: 'asc' })).rows)).toEqual(['video_theirs']);
    });

    it('after an id that is not a task of this listing (unknown, another kind, another account): an empty page', async () => {
      for (const after of ['video_missing', 'task_song', 'video_theirs']) {
        expect(await storage.tasks.list({ accountId, kind: 'video', limit: 3, order: 'asc', after })).toEqual({ rows: [], hasMore: false });
      }
    });

    it('after a task deleted since its page was read: the next page still starts right after it', async () => {
      await storage.tasks.markDeleted(accountId, 'video_b', at(9));
      expect(ids((await storage.tasks.list({ accountId, kind: 'video', limit: 2, order: 'asc', after: 'video_b' })).rows)).toEqual(['video_z', 'video_c']);
      expect(ids((await storage.tasks.list({ accountId, kind: 'video', limit: 9, order: 'desc', after: 'video_b' })).rows)).toEqual(['video_a', 'video_y']);
    });
  });

  describe('claimDue', () => {
    it('takes the due, unleased, unsettled tasks oldest poll first, up to the limit, and leases them', async () => {
      // Ids in another order than their due times: the order is the due time's (then the id's).
      for (const [id, due] of [['video_d', at(300)], ['video_c', at(100)], ['video_a', at(5_000)], ['video_e', at(200)], ['video_b', at(200)]] as const) {
        await storage.tasks.create(newTask(accountId, tokenId, { id, nextPollAt: due }));
      }
      const settled = await storage.tasks.create(newTask(accountId, tokenId, { id: 'video_0', nextPollAt: at(0) }));
      await storage.tasks.settle(settled.id, settlementOf(settled, 0, 'failed'));

      const claimed = await storage.tasks.claimDue(at(1_000), at(31_000), 3);
      expect(ids(claimed)).toEqual(['video_c', 'video_b', 'video_e']);
      expect(claimed.every((task) => task.leaseUntil === at(31_000))).toBe(true);
      expect((await storage.tasks.get(accountId, 'video_c'))?.leaseUntil).toBe(at(31_000));
      expect(ids(await storage.tasks.claimDue(at(1_000), at(31_000), 10))).toEqual(['video_d']);
      // All leased, one not due, one settled: nothing.
      expect(await storage.tasks.claimDue(at(2_000), at(32_000), 10)).toEqual([]);
      expect(await storage.tasks.countUnsettled()).toBe(5);
    });

    it('a leased task is not claimed again until its lease has ended (strictly before now)', async () => {
      const task = await storage.tasks.create(newTask(accountId, tokenId));
      expect(ids(await storage.tasks.claimDue(at(0), at(30_000), 10))).toEqual([task.id]);
      expect(await storage.tasks.claimDue(at(29_999), at(60_000), 10)).toEqual([]);
      expect(await storage.tasks.claimDue(at(30_000), at(60_000), 10)).toEqual([]);
      expect(ids(await storage.tasks.claimDue(at(30_001), at(60_001), 10))).toEqual([task.id]);
      // Given up by the poller (leaseUntil null): due again at once.
      await storage.tasks.update(task.id, { leaseUntil: null }, at(30_002));
      expect(ids(await storage.tasks.claimDue(at(30_003), at(60_003), 10))).toEqual([task.id]);
    });

    it('never claims a settled task, whatever its lease or due time', async () => {
      const task = await storage.tasks.create(newTask(accountId, tokenId));
      await storage.tasks.claimDue(at(0), at(30_000), 10);
      await storage.tasks.settle(task.id, settlementOf(task, 100));
      expect(await storage.tasks.claimDue(at(86_400_000), at(86_430_000), 10)).toEqual([]);
      expect(await storage.tasks.countUnsettled()).toBe(0);
    });

    it('two instances claiming at once never take the same task, and together take every due one', async () => {
      const b = await db.open('instance-b');
      const due = Array.from({ length: 60 }, (_, i) => newTask(accountId, tokenId, { nextPollAt: at(i) }));
      for (const task of due) await storage.tasks.create(task);
      const claims = await Promise.all(Array.from({ length: 12 }, (_, i) => (i % 2 === 0 ? storage : b).tasks.claimDue(at(10_000), at(40_000), 7)));
      const claimed = claims.flatMap(ids);
      expect(new Set(claimed).size).toBe(claimed.length);
      // Whatever was skipped while another held it is taken by a later claim.
      const rest = await storage.tasks.claimDue(at(10_000), at(40_000), 100);
      expect([...claimed, ...ids(rest)].sort()).toEqual(ids(due as TaskRecord[]).sort());
    }, 30_000);
  });

  describe('update', () => {
    it("applies a poll's news, moves updatedAt, and leaves every other field", async () => {
      const task = await storage.tasks.create(newTask(accountId, tokenId));
      const updated = await storage.tasks.update(
        task.id,
        { status: 'in_progress', progress: 35, startedAt: at(5), result: { progress: 35, id: 'up' }, nextPollAt: at(20_000), polls: 1, leaseUntil: null },
        at(10),
      );
      expect(updated).toStrictEqual({
        ...task,
        status: 'in_progress',
        progress: 35,
        startedAt: at(5),
        result: { progress: 35, id: 'up' },
        nextPollAt: at(20_000),
        polls: 1,
        updatedAt: at(10),
      });
      expect(await storage.tasks.get(accountId, task.id)).toStrictEqual(updated);
      // Only what is given changes; an error can be set and cleared.
      expect(await storage.tasks.update(task.id, { error: { code: 'slow', message: 'still queued' } }, at(11))).toStrictEqual({
        ...updated,
        error: { code: 'slow', message: 'still queued' },
        updatedAt: at(11),
      });
      expect((await storage.tasks.update(task.id, { error: null }, at(12)))?.error).toBeNull();
    });

    it('leaves a settled task as it was settled, and answers undefined for it or an unknown id', async () => {
      const task = await storage.tasks.create(newTask(accountId, tokenId));
      const settled = await storage.tasks.settle(task.id, settlementOf(task, 250));
      expect(await storage.tasks.update(task.id, { status: 'in_progress', progress: 10, leaseUntil: at(99) }, at(99))).toBeUndefined();
      expect(await storage.tasks.get(accountId, task.id)).toStrictEqual(settled);
      expect(await storage.tasks.update('video_missing', { progress: 1 }, at(99))).toBeUndefined();
    });
  });
}
