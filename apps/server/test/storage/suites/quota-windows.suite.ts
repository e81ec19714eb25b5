import type { LimitMetric } from '@chat-relay/contract';
import { usageEntry } from '../../testing/system-api';
import type { StoreBackend } from '../testing/store-backends';
import type { Storage, WindowKey, WindowReservation, WindowUsage } from '../../../src/storage/types';
import { createAccount, createToken, openMoneyDb, quotaUsed, reservations, type MoneyDb } from './money-fixture';

const DAY = '2026-03-01';
const NEXT_DAY = '2026-03-02';
const EMPTY: WindowUsage = { cost: 0, requests: 0, tokens: 0 };
const noLimits = (): Record<LimitMetric, number | null> => ({ cost: null, requests: null, tokens: null });

/**
 * Periodic windows (issue 32) on each backend: checked and counted with the lifetime quota in the
 * reservation, whole or not at all; settled by usage rows, given back with their reservation; a
 * new window by its key; exact under two instances reserving at once. One database for the whole
 * suite (each test its own account and token, so its own windows): opening one per test would
 * cost more than the tests.
 */
export function describeQuotaWindows(backend: StoreBackend): void {
  let db: MoneyDb;
  let storage: Storage;
  let accountId: number;
  let tokenId: number;

  beforeAll(async () => {
    db = await openMoneyDb(backend.name);
    storage = db.storage;
  });
  afterAll(() => db.close());
  beforeEach(async () => {
    accountId = await createAccount(db.sql, null);
    tokenId = await createToken(db.sql, accountId, null);
  });

  const tokenWindow = (limits: Partial<Record<LimitMetric, number>>, start = DAY): WindowReservation => ({
    owner: 'token',
    ownerId: tokenId,
    period: 'day',
    start,
    limits: { ...noLimits(), ...limits },
  });
  const accountWindow = (limits: Partial<Record<LimitMetric, number>>, period: WindowKey['period'] = 'month'): WindowReservation => ({
    owner: 'account',
    ownerId: accountId,
    period,
    start: '2026-03-01',
    limits: { ...noLimits(), ...limits },
  });
  const reserve = (requestId: string, amount: number, windows: readonly WindowReservation[], tokens = 0, on: Storage = storage) =>
    on.quota.reserve({ requestId, tokenId, accountId, amount, windows, tokens });
  const usage = (...keys: WindowKey[]) => storage.quota.windowUsage(keys);
  const mine = async () => (await reservations(db.sql)).filter((row) => row.requestId.startsWith(`${tokenId}:`));
  const id = (name: string) => `${tokenId}:${name}`;

  it('a window refuses on cost, requests or tokens when used + needed passes its limit, naming the window, the metric and what it used', async () => {
    const cost = tokenWindow({ cost: 100 });
    expect(await reserve(id('a'), 60, [cost])).toEqual({ ok: true });
    expect(await reserve(id('b'), 41, [cost])).toEqual({ ok: false, exhausted: 'window', window: cost, metric: 'cost', used: 60 });
    expect(await reserve(id('c'), 40, [cost])).toEqual({ ok: true });
    // Used up: not even a free request (cost needs at least 1).
    expect(await reserve(id('d'), 0, [cost])).toEqual({ ok: false, exhausted: 'window', window: cost, metric: 'cost', used: 100 });

    const requests = tokenWindow({ requests: 2 }, NEXT_DAY);
    expect(await reserve(id('e'), 5, [requests])).toEqual({ ok: true });
    expect(await reserve(id('f'), 0, [requests])).toEqual({ ok: true });
    expect(await reserve(id('g'), 0, [requests])).toEqual({ ok: false, exhausted: 'window', window: requests, metric: 'requests', used: 2 });

    const tokens = accountWindow({ tokens: 1000 });
    expect(await reserve(id('h'), 0, [tokens], 600)).toEqual({ ok: true });
    expect(await reserve(id('i'), 0, [tokens], 401)).toEqual({ ok: false, exhausted: 'window', window: tokens, metric: 'tokens', used: 600 });
    expect(await reserve(id('j'), 0, [tokens], 400)).toEqual({ ok: true });
    // Full: a request with no token bound still needs one.
    expect(await reserve(id('k'), 0, [tokens], 0)).toMatchObject({ ok: false, metric: 'tokens', used: 1000 });
    expect(await usage(cost, requests, tokens)).toEqual([
      { cost: 100, requests: 2, tokens: 0 },
      { cost: 5, requests: 2, tokens: 0 },
      { cost: 0, requests: 2, tokens: 1000 },
    ]);
  });

  it('takes nothing at all when a window refuses: the lifetime quota, the other windows and the reservations stay as they were', async () => {
    await db.sql.run('UPDATE tokens SET quota_limit = 1000 WHERE id = ?', [tokenId]);
    const roomy = accountWindow({ cost: 10_000 });
    const tight = tokenWindow({ requests: 1 });
    expect(await reserve(id('first'), 30, [tight, roomy], 10)).toEqual({ ok: true });
    const before = { used: await quotaUsed(db.sql, tokenId, accountId), windows: await usage(roomy, tight), held: await mine() };
    // Sent out of order: the store sorts them (account before token), so the refusal names the token's.
    const refused = await reserve(id('second'), 50, [tight, roomy], 10);
    expect(refused).toEqual({ ok: false, exhausted: 'window', window: tight, metric: 'requests', used: 1 });
    expect(await quotaUsed(db.sql, tokenId, accountId)).toEqual(before.used);
    expect(await usage(roomy, tight)).toEqual(before.windows);
    expect(await mine()).toEqual(before.held);
    expect(before.used).toEqual({ token: 30, account: 30 });
    expect(before.windows).toEqual([
      { cost: 30, requests: 1, tokens: 10 },
      { cost: 30, requests: 1, tokens: 10 },
    ]);
  });

  it('the lifetime quota refuses before any window is counted', async () => {
    await db.sql.run('UPDATE tokens SET quota_limit = 10 WHERE id = ?', [tokenId]);
    const window = tokenWindow({ cost: 1000 });
    expect(await reserve(id('big'), 11, [window])).toEqual({ ok: false, exhausted: 'token' });
    expect(await usage(window)).toEqual([EMPTY]);
  });

  it("settling moves the cost's and the tokens' difference into every window; the request stays counted", async () => {
    const day = tokenWindow({ cost: 1000 });
    const month = accountWindow({ tokens: 100_000 });
    expect(await reserve(id('r'), 200, [day, month], 4096)).toEqual({ ok: true });
    expect(await usage(day, month)).toEqual([
      { cost: 200, requests: 1, tokens: 4096 },
      { cost: 200, requests: 1, tokens: 4096 },
    ]);
    await storage.usageLog.insertBatch([
      usageEntry({ requestId: id('r'), tokenId, accountId, quotaReserved: 200, windowsReserved: true, cost: 37, promptTokens: 300, completionTokens: 120 }),
    ]);
    expect(await usage(day, month)).toEqual([
      { cost: 37, requests: 1, tokens: 420 },
      { cost: 37, requests: 1, tokens: 420 },
    ]);
    expect(await quotaUsed(db.sql, tokenId, accountId)).toEqual({ token: 37, account: 37 });
    expect(await mine()).toEqual([]);
    // Above the reservation: charged whole, past the limit if it must be.
    expect(await reserve(id('s'), 10, [day], 10)).toEqual({ ok: true });
    await storage.usageLog.insertBatch([usageEntry({ requestId: id('s'), tokenId, accountId, quotaReserved: 10, cost: 2000, promptTokens: 50 })]);
    expect(await usage(day)).toEqual([{ cost: 2037, requests: 2, tokens: 470 }]);
  });

  it('a free request counts one request, and is recorded and settled though nothing was reserved in money', async () => {
    const window = tokenWindow({ requests: 100, tokens: 10_000 });
    expect(await reserve(id('free'), 0, [window], 500)).toEqual({ ok: true });
    expect(await quotaUsed(db.sql, tokenId, accountId)).toEqual({ token: 0, account: 0 });
    expect(await mine()).toEqual([{ requestId: id('free'), amount: 0, instanceId: 'instance-a' }]);
    await storage.usageLog.insertBatch([
      usageEntry({ requestId: id('free'), tokenId, accountId, quotaReserved: 0, windowsReserved: true, cost: 0, promptTokens: 20, completionTokens: 5 }),
    ]);
    expect(await usage(window)).toEqual([{ cost: 0, requests: 1, tokens: 25 }]);
    expect(await mine()).toEqual([]);
  });

  it('a new window starts empty by its key: the next day admits again, the day before keeps its count', async () => {
    const today = tokenWindow({ requests: 1 });
    const tomorrow = tokenWindow({ requests: 1 }, NEXT_DAY);
    expect(await reserve(id('today'), 0, [today])).toEqual({ ok: true });
    expect(await reserve(id('again'), 0, [today])).toMatchObject({ ok: false, exhausted: 'window', metric: 'requests' });
    expect(await usage(tomorrow)).toEqual([EMPTY]);
    expect(await reserve(id('tomorrow'), 0, [tomorrow])).toEqual({ ok: true });
    expect(await usage(today, tomorrow)).toEqual([
      { cost: 0, requests: 1, tokens: 0 },
      { cost: 0, requests: 1, tokens: 0 },
    ]);
  });

  it("giving a reservation back returns its cost, tokens and request to its windows, never below 0; a row arriving after is charged to the lifetime quota only", async () => {
    const other = await db.open(`dying-${tokenId}`);
    const window = tokenWindow({ cost: 1000 });
    const account = accountWindow({});
    expect(await reserve(id('kept'), 100, [window], 50)).toEqual({ ok: true });
    expect(await reserve(id('back'), 300, [window, account], 700, other)).toEqual({ ok: true });
    expect(await usage(window, account)).toEqual([
      { cost: 400, requests: 2, tokens: 750 },
      { cost: 300, requests: 1, tokens: 700 },
    ]);
    // An admin cleared the account's window meanwhile: giving back stops at 0.
    await db.sql.run("UPDATE quota_windows SET cost = 100 WHERE owner = 'account' AND owner_id = ?", [accountId]);
    expect(await other.quota.retire()).toEqual({ count: 1, amount: 300 });
    expect(await usage(window, account)).toEqual([
      { cost: 100, requests: 1, tokens: 50 },
      EMPTY,
    ]);
    expect(await quotaUsed(db.sql, tokenId, accountId)).toEqual({ token: 100, account: 100 });
    // The dying instance's row comes after all: lifetime charged whole, the windows nothing.
    await other.usageLog.insertBatch([
      usageEntry({ requestId: id('back'), tokenId, accountId, quotaReserved: 300, windowsReserved: true, cost: 80, promptTokens: 9 }),
    ]);
    expect(await quotaUsed(db.sql, tokenId, accountId)).toEqual({ token: 180, account: 180 });
    expect(await usage(window, account)).toEqual([{ cost: 100, requests: 1, tokens: 50 }, EMPTY]);
  });

  it('windowUsage answers in the order asked, zeros where nothing counted, in one call for many keys', async () => {
    const counted = tokenWindow({});
    expect(await reserve(id('x'), 7, [counted], 3)).toEqual({ ok: true });
    const never: WindowKey = { owner: 'token', ownerId: tokenId, period: 'week', start: DAY };
    const otherOwner: WindowKey = { owner: 'account', ownerId: tokenId + 1_000_000, period: 'day', start: DAY };
    expect(await storage.quota.windowUsage([])).toEqual([]);
    expect(await usage(never, counted, otherOwner, counted)).toEqual([EMPTY, { cost: 7, requests: 1, tokens: 3 }, EMPTY, { cost: 7, requests: 1, tokens: 3 }]);
    const many = Array.from({ length: 300 }, (_, day): WindowKey => ({ owner: 'token', ownerId: tokenId, period: 'day', start: `2025-01-${day}` }));
    expect(await storage.quota.windowUsage([...many, counted])).toEqual([...many.map(() => EMPTY), { cost: 7, requests: 1, tokens: 3 }]);
  });

  it('two instances, 100 reservations at once: exactly what the cost window admits, then exactly what the requests window admits', async () => {
    const other = await db.open(`busy-${tokenId}`);
    const at = (i: number) => (i % 2 === 0 ? storage : other);
    const costly = [accountWindow({ cost: 355 }, 'day'), tokenWindow({ requests: 100 })];
    const first = await Promise.all(Array.from({ length: 100 }, (_, i) => reserve(id(`c-${i}`), 10, costly, 1, at(i))));
    expect(first.filter((outcome) => outcome.ok)).toHaveLength(35);
    expect(first.every((outcome) => outcome.ok || (outcome.exhausted === 'window' && outcome.metric === 'cost'))).toBe(true);
    expect(await usage(...costly)).toEqual([
      { cost: 350, requests: 35, tokens: 35 },
      { cost: 350, requests: 35, tokens: 35 },
    ]);

    const counted = [tokenWindow({ requests: 100 })];
    const second = await Promise.all(Array.from({ length: 100 }, (_, i) => reserve(id(`r-${i}`), 0, counted, 0, at(i))));
    expect(second.filter((outcome) => outcome.ok)).toHaveLength(65);
    expect(second.every((outcome) => outcome.ok || (outcome.exhausted === 'window' && outcome.metric === 'requests'))).toBe(true);
    expect(await usage(...counted)).toEqual([{ cost: 350, requests: 100, tokens: 35 }]);
    expect(await quotaUsed(db.sql, tokenId, accountId)).toEqual({ token: 350, account: 350 });
    expect(await mine()).toHaveLength(100);
  }, 30_000);
}
