import { RelayError } from '@chat-relay/wire';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openSqliteStorage } from '../storage/sqlite/open-sqlite';
import type { Storage, TokenRecord } from '../storage/types';
import { PriceBook } from '../billing/price-book';
import { reserveAmount, type ReserveDeps } from './reserve-quota';

const LOWER = 'lower n or choose a smaller size';

/** `reserveAmount` against the real SQLite quota store: what an endpoint's bound takes, or the 429. */
describe('reserveAmount', () => {
  let dataDir: string;
  let storage: Storage;
  let deps: ReserveDeps;
  let tokenId: number;
  let accountId: number;

  beforeEach(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'relay-reserve-'));
    storage = openSqliteStorage(dataDir);
    deps = { quota: storage.quota, prices: new PriceBook(storage.prices) };
    const account = await storage.accounts.create({ name: 'team', role: 'user', status: 'active', quotaLimit: 1_000, keyDigest: 'd-acct', keyHint: 'h' });
    const token = await storage.tokens.create({ accountId: account.id, name: 't', keyDigest: 'd-token', keyHint: 'h', quotaLimit: 100 });
    tokenId = token.id;
    accountId = account.id;
  });
  afterEach(async () => {
    await storage.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  /** The token as the auth path reads it: with its account's limit. */
  const caller = async (): Promise<TokenRecord> => {
    const token = await storage.tokens.findByKeyDigest('d-token');
    if (!token) throw new Error('token not found');
    return token;
  };
  const used = async () => ({
    token: (await storage.tokens.get(tokenId))?.quotaUsed,
    account: (await storage.accounts.get(accountId))?.quotaUsed,
  });
  /** The reservations recorded (given back here, so each is counted once). */
  const reservations = () => storage.quota.releaseReservations(new Date(Date.now() + 60_000).toISOString());
  /** Reserves `amount` micro-USD (no tokens): what is held, or the refusal. */
  const reserve = async (requestId: string, amount: number): Promise<number> => (await reserveAmount(deps, await caller(), requestId, { amount, tokens: 0 }, LOWER)).amount;
  const refusal = async (promise: Promise<unknown>) => {
    const error = await promise.then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    if (!(error instanceof RelayError)) throw new Error(`expected a RelayError, got ${String(error)}`);
    return { status: error.status, ...error.toBody().error };
  };

  it('reserves nothing, and records nothing, for a token and account without limits', async () => {
    await storage.tokens.update(tokenId, { quotaLimit: null });
    await storage.accounts.update(accountId, { quotaLimit: null });
    expect(await reserve('req-1', 5_000_000)).toBe(0);
    expect(await used()).toEqual({ token: 0, account: 0 });
    expect(await reservations()).toEqual({ count: 0, amount: 0 });
  });

  it("reserves on an unlimited token when its account has a limit (the account's limit applies)", async () => {
    await storage.tokens.update(tokenId, { quotaLimit: null });
    expect(await reserve('req-1', 700)).toBe(700);
    expect(await used()).toEqual({ token: 700, account: 700 });
    const error = await refusal(reserve('req-2', 301));
    expect(error.message).toBe(`Not enough quota left on the account of this API key for this request. This request reserves 0.000301 USD until it is settled at its real cost; ${LOWER} to need less.`);
  });

  it('reserves what fits, from both the token and its account, and records it', async () => {
    expect(await reserve('req-1', 60)).toBe(60);
    expect(await reserve('req-2', 40)).toBe(40);
    expect(await used()).toEqual({ token: 100, account: 100 });
    expect(await reservations()).toEqual({ count: 2, amount: 100 });
  });

  it('refuses with 429 insufficient_quota when the rest of the quota is too little, saying what to lower', async () => {
    await reserve('req-1', 60);
    const error = await refusal(reserve('req-2', 50));
    expect(error).toEqual({
      status: 429,
      type: 'insufficient_quota',
      code: 'insufficient_quota',
      param: null,
      message: `Not enough quota left on this API key for this request. This request reserves 0.000050 USD until it is settled at its real cost; ${LOWER} to need less.`,
    });
    // Nothing more was taken.
    expect(await used()).toEqual({ token: 60, account: 60 });
    expect(await reservations()).toEqual({ count: 1, amount: 60 });
  });

  it("names the account when the account's quota is what is short", async () => {
    await storage.accounts.update(accountId, { quotaLimit: 80, quotaUsed: 50 });
    const error = await refusal(reserve('req-1', 40));
    expect(error.status).toBe(429);
    expect(error.message).toMatch(/^Not enough quota left on the account of this API key for this request\./);
    expect(await used()).toEqual({ token: 0, account: 50 });
  });

  it('says a request larger than the whole limit can never be admitted', async () => {
    const error = await refusal(reserve('req-1', 1_500_000));
    expect(error).toMatchObject({ status: 429, code: 'insufficient_quota' });
    expect(error.message).toBe(
      `This request reserves 1.500000 USD until it is settled at its real cost, more than the whole quota of this API key (0.000100 USD), so it can never be admitted: ${LOWER}.`,
    );
    await storage.tokens.update(tokenId, { quotaLimit: null });
    expect((await refusal(reserve('req-2', 1_500_000))).message).toBe(
      `This request reserves 1.500000 USD until it is settled at its real cost, more than the whole quota of the account of this API key (0.001000 USD), so it can never be admitted: ${LOWER}.`,
    );
    expect(await used()).toEqual({ token: 0, account: 0 });
  });

  it('a request of exactly the whole limit is only short of what is used, not impossible', async () => {
    await reserve('req-1', 1);
    const error = await refusal(reserve('req-2', 100));
    expect(error.message).toMatch(/^Not enough quota left on this API key/);
    await storage.tokens.update(tokenId, { quotaUsed: 0 });
    expect(await reserve('req-3', 100)).toBe(100);
  });
});
