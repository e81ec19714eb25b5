import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { usageEntry } from '../../testing/system-api';
import type { Storage } from '../types';
import { openSqliteStorage } from './open-sqlite';

/** The quota store on a real SQLite file: whole reservations, recorded, settled, given back. */
describe('SqliteQuotaStore', () => {
  let dataDir: string;
  let storage: Storage;
  let tokenId: number;
  let accountId: number;

  beforeEach(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'relay-quota-'));
    storage = openSqliteStorage(dataDir);
    const account = await storage.accounts.create({ name: 'team', role: 'user', status: 'active', quotaLimit: 1000, keyDigest: 'd-acct', keyHint: 'h' });
    const token = await storage.tokens.create({ accountId: account.id, name: 't', keyDigest: 'd-token', keyHint: 'h', quotaLimit: 100 });
    tokenId = token.id;
    accountId = account.id;
  });
  afterEach(async () => {
    await storage.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const reserve = (requestId: string, amount: number) => storage.quota.reserve({ requestId, tokenId, accountId, amount });
  const used = async () => ({
    token: (await storage.tokens.get(tokenId))!.quotaUsed,
    account: (await storage.accounts.get(accountId))!.quotaUsed,
  });

  it('admits a reservation only when all of it fits (quota_used + amount <= quota_limit)', async () => {
    expect(await reserve('a', 60)).toEqual({ ok: true });
    expect(await reserve('b', 41)).toEqual({ ok: false, exhausted: 'token' });
    expect(await reserve('c', 40)).toEqual({ ok: true });
    // The limit reached: nothing more, not even a free request.
    expect(await reserve('d', 0)).toEqual({ ok: false, exhausted: 'token' });
    expect(await used()).toEqual({ token: 100, account: 100 });
  });

  it("refuses on the account's limit and takes nothing from the token then", async () => {
    await storage.accounts.update(accountId, { quotaLimit: 50 });
    expect(await reserve('a', 60)).toEqual({ ok: false, exhausted: 'account' });
    expect(await used()).toEqual({ token: 0, account: 0 });
  });

  it('the usage row settles its reservation: quota_used becomes the cost, nothing is left to give back', async () => {
    await reserve('a', 70);
    await storage.usageLog.insertBatch([usageEntry({ requestId: 'a', tokenId, accountId, cost: 12, quotaReserved: 70 })]);
    expect(await used()).toEqual({ token: 12, account: 12 });
    expect(await storage.quota.releaseReservations(new Date(Date.now() + 1000).toISOString())).toEqual({ count: 0, amount: 0 });
    expect(await used()).toEqual({ token: 12, account: 12 });
  });

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
    // The newer one is still recorded and settles as usual.
    await storage.usageLog.insertBatch([usageEntry({ requestId: 'new', tokenId, accountId, cost: 5, quotaReserved: 25 })]);
    expect(await used()).toEqual({ token: 5, account: 5 });
    expect(await storage.quota.releaseReservations(new Date(Date.now() + 1000).toISOString())).toEqual({ count: 0, amount: 0 });
  });

  it('settlement never takes quota_used below zero (an admin reset it while a request ran)', async () => {
    await reserve('a', 70);
    await storage.tokens.update(tokenId, { quotaUsed: 0 });
    await storage.usageLog.insertBatch([usageEntry({ requestId: 'a', tokenId, accountId, cost: 10, quotaReserved: 70 })]);
    expect((await used()).token).toBe(0);
  });
});
