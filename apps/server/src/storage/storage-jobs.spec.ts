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

  it('deletes the periodic windows started more than WINDOWS_KEPT_DAYS ago, whatever the log retention, and keeps the others', async () => {
    const { storage } = opened;
    const account = await storage.accounts.createUser('windows');
    const token = await storage.tokens.create({ accountId: account.id, name: 'w', keyDigest: 'digest-w', keyHint: 'sk-…w' });
    // 70 days before 2026-06-01 is 2026-03-23.
    const starts = ['2026-02-01', '2026-03-22', '2026-03-23', '2026-06-01'];
    const keys = starts.map((start) => ({ owner: 'token' as const, ownerId: token.id, period: 'day' as const, start }));
    for (const key of keys) {
      const windows = [{ ...key, limits: { cost: null, requests: null, tokens: null } }];
      expect(await storage.quota.reserve({ requestId: key.start, tokenId: token.id, accountId: account.id, amount: 0, windows })).toEqual({ ok: true });
    }
    const jobs = startStorageJobs(storage, silent, { logRetentionDays: 0 });
    expect(await jobs.purgeOldWindows(Date.parse('2026-06-01T12:00:00.000Z'))).toBe(2);
    expect((await storage.quota.windowUsage(keys)).map((usage) => usage.requests)).toEqual([0, 0, 1, 1]);
    expect(await jobs.purgeOldWindows(Date.parse('2026-06-01T12:00:00.000Z'))).toBe(0);
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
