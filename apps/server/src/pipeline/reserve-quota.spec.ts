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

  describe('periodic windows (issue 32), in the same reserve call', () => {
    /** 23:00 in Paris on 29 November: an hour to the window's reset. */
    const now = Date.parse('2026-11-29T22:00:00Z');
    const windowed = (): ReserveDeps => ({ ...deps, limits: { defaultTimeZone: 'Europe/Paris', clock: () => now } });
    const hold = async (requestId: string, amount: number, tokens = 0) => reserveAmount(windowed(), await caller(), requestId, { amount, tokens }, LOWER);

    it('counts a free request in a requests window (nothing reserved in USD, yet held) and refuses the one past it, naming the window', async () => {
      await storage.tokens.update(tokenId, { quotaLimit: null, periodicLimits: [{ period: 'day', metric: 'requests', limit: 2 }] });
      await storage.accounts.update(accountId, { quotaLimit: null });
      expect(await hold('req-1', 0)).toEqual({ amount: 0, windowsReserved: true });
      expect(await hold('req-2', 0)).toEqual({ amount: 0, windowsReserved: true });
      const error = await refusal(hold('req-3', 0));
      expect(error).toEqual({
        status: 429,
        type: 'insufficient_quota',
        code: 'insufficient_quota',
        param: null,
        message: 'The daily request limit of this API key (2 requests per day, Europe/Paris) is reached: 2 requests used; it resets at 2026-11-30T00:00:00+01:00 (in 1h 0m).',
      });
      const thrown = await hold('req-4', 0).catch((caught: unknown) => caught);
      expect(thrown instanceof RelayError && thrown.headers).toEqual({
        'retry-after': '3600',
        'x-ratelimit-limit-requests-day': '2',
        'x-ratelimit-remaining-requests-day': '0',
        'x-ratelimit-reset-requests-day': '1h0m0s',
      });
      const [window] = await storage.quota.windowUsage([{ owner: 'token', ownerId: tokenId, period: 'day', start: '2026-11-29' }]);
      expect(window).toEqual({ cost: 0, requests: 2, tokens: 0 });
    });

    it("names the account's window in its time zone, and takes nothing when it refuses", async () => {
      await storage.accounts.update(accountId, { periodicLimits: [{ period: 'week', metric: 'tokens', limit: 1_000 }], timeZone: 'Asia/Tokyo' });
      expect(await hold('req-1', 10, 600)).toEqual({ amount: 10, windowsReserved: true });
      const error = await refusal(hold('req-2', 10, 600));
      // Monday 30 November in Tokyo already: a new week, which began at 15:00 UTC on the 29th.
      expect(error.message).toBe(
        'The weekly token limit of the account of this API key (1,000 tokens per week, Asia/Tokyo) has 400 tokens left (600 tokens used), less than this request may use (600 tokens); it resets at 2026-12-07T00:00:00+09:00 (in 6d 17h).',
      );
      expect(await used()).toEqual({ token: 10, account: 10 });
    });

    it('a token without any limit takes no reservation at all', async () => {
      await storage.tokens.update(tokenId, { quotaLimit: null });
      await storage.accounts.update(accountId, { quotaLimit: null });
      expect(await hold('req-1', 50, 50)).toEqual({ amount: 0, windowsReserved: false });
      expect(await reservations()).toEqual({ count: 0, amount: 0 });
    });
  });
});
