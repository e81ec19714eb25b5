import pino from 'pino';
import { daysAgo, usageEntry } from '../../test/testing/system-api';
import { startStorageJobs } from './storage-jobs';
import { describeEachBackend, type OpenedStorage } from '../../test/storage/testing/store-backends';

const silent = pino({ level: 'silent' });

describeEachBackend('Storage jobs', (backend) => {
  let opened: OpenedStorage;
  beforeEach(async () => {
    opened = await backend.open();
  });
  afterEach(() => opened.close());

  it('retention deletes the raw rows past RELAY_LOG_RETENTION_DAYS, keeps the rest, and the totals still count them all', async () => {
    const { storage } = opened;
    const rows = [100, 45, 31, 29, 2].map((days) => usageEntry({ createdAt: daysAgo(days), promptTokens: 10, completionTokens: 5, cost: 7 }));
    await storage.usageLog.insertBatch(rows);
    const totalsBefore = await storage.usageLog.aggregate({}, daysAgo(120), daysAgo(-1), 'model');

    const jobs = startStorageJobs(storage, silent, { logRetentionDays: 30 });
    expect(await jobs.purgeExpiredLog()).toBe(3);
    const left = await storage.usageLog.recent(10);
    expect(left.map((row) => row.requestId).sort()).toEqual([rows[3]?.requestId, rows[4]?.requestId].sort());
    // The hourly totals outlive the raw rows: usage over the whole range is unchanged.
    expect(await storage.usageLog.aggregate({}, daysAgo(120), daysAgo(-1), 'model')).toEqual(totalsBefore);
    expect(await jobs.purgeExpiredLog()).toBe(0);
    await jobs.close();
  });

  it('retention 0 keeps every row', async () => {
    const { storage } = opened;
    await storage.usageLog.insertBatch([usageEntry({ createdAt: daysAgo(4000) })]);
    const jobs = startStorageJobs(storage, silent, { logRetentionDays: 0 });
    expect(await jobs.purgeExpiredLog()).toBe(0);
    expect(await storage.usageLog.recent(5)).toHaveLength(1);
    await jobs.close();
  });

  if (backend.name === 'PostgreSQL') {
    it('closing after the usage log is drained gives back what the instance still reserved', async () => {
      const { storage } = opened;
      const account = await storage.accounts.create({ name: 'a', role: 'user', status: 'active', quotaLimit: 1_000, keyDigest: 'jobs-a', keyHint: 'h' });
      const token = await storage.tokens.create({ accountId: account.id, name: 't', keyDigest: 'jobs-t', keyHint: 'h', quotaLimit: 500 });
      const jobs = startStorageJobs(storage, silent, { logRetentionDays: 0 });
      expect(await storage.quota.reserve({ requestId: 'left-over', tokenId: token.id, accountId: account.id, amount: 120 })).toEqual({ ok: true });
      expect((await storage.tokens.get(token.id))?.quotaUsed).toBe(120);
      await jobs.close();
      expect((await storage.tokens.get(token.id))?.quotaUsed).toBe(0);
      expect((await storage.accounts.get(account.id))?.quotaUsed).toBe(0);
    });
  }
});
