import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { openSqliteStorage } from '../../storage/sqlite/open-sqlite';
import type { ResponseStore, Storage, StoredResponseRecord } from '../../storage/types';
import { ROOMY } from '../../../test/storage/response-store.suite';
import { DEFAULT_STORED_RESPONSES, MAX_RESPONSE_CHAIN, StoredResponses } from './stored-responses';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/** A logger whose JSON lines land in `lines`. */
function memoryLogger() {
  const lines: Array<Record<string, unknown>> = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => lines.push(JSON.parse(line) as Record<string, unknown>) });
  return { logger, lines };
}

/** Resolves when `release()` is called: holds a write back for as long as a spec needs. */
function gate() {
  let release: () => void = () => undefined;
  const opened = new Promise<void>((resolve) => (release = resolve));
  return { opened, release };
}

/** `real` with some of its methods replaced. */
function delegating(real: ResponseStore, overrides: Partial<ResponseStore>): ResponseStore {
  return {
    put: (...args) => real.put(...args),
    usage: (...args) => real.usage(...args),
    get: (...args) => real.get(...args),
    chain: (...args) => real.chain(...args),
    findItems: (...args) => real.findItems(...args),
    delete: (...args) => real.delete(...args),
    purgeExpired: (...args) => real.purgeExpired(...args),
    ...overrides,
  };
}

/** Whether `promise` has settled after every pending callback has run. */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  void promise.then(
    () => (done = true),
    () => (done = true),
  );
  await new Promise((resolve) => setImmediate(resolve));
  return done;
}

describe('StoredResponses over the SQLite store', () => {
  let dataDir: string;
  let storage: Storage;
  let accountId: number;
  let otherAccountId: number;

  beforeEach(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'relay-stored-responses-'));
    storage = openSqliteStorage(dataDir);
    accountId = (await storage.accounts.createUser('caller')).id;
    otherAccountId = (await storage.accounts.createUser('someone else')).id;
  });

  afterEach(async () => {
    jest.useRealTimers();
    await storage.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const record = (id: string, overrides: Partial<StoredResponseRecord> = {}): StoredResponseRecord => ({
    id,
    accountId,
    tokenId: null,
    origin: 'bridged',
    channelId: null,
    keyDigest: null,
    model: 'gpt-4.1',
    previousResponseId: null,
    status: 'completed',
    response: { id, object: 'response', output: [] },
    inputItems: [{ id: `msg_${id}`, type: 'message', role: 'user', content: [{ type: 'input_text', text: id }] }],
    createdAt: new Date().toISOString(),
    expiresAt: new Date(Date.now() + DAY_MS).toISOString(),
    ...overrides,
  });

  /** The real store, its writes held until the returned gate opens. */
  function heldStore() {
    const real = storage.responses;
    const held = gate();
    const store = delegating(real, {
      put: async (stored, limits) => {
        await held.opened;
        return real.put(stored, limits);
      },
    });
    return { store, release: held.release };
  }

  it('a read of an id waits for its write under way, and then finds it', async () => {
    const { store, release } = heldStore();
    const responses = new StoredResponses(store, memoryLogger().logger);
    const write = responses.remember(record('resp_1'));
    const found = responses.find('resp_1', accountId);
    expect(await settled(found)).toBe(false);
    expect(await storage.responses.get('resp_1', accountId, new Date().toISOString())).toBeUndefined();

    release();
    await write;
    expect(await found).toMatchObject({ id: 'resp_1', accountId, origin: 'bridged', inputItems: [expect.objectContaining({ id: 'msg_resp_1' })] });
  });

  it('on a shared database, a miss is asked again: a response another instance is still writing is found', async () => {
    const options = { ...DEFAULT_STORED_RESPONSES, ttlMs: DAY_MS, otherWritersMs: 1_000 };
    const here = new StoredResponses(storage.responses, memoryLogger().logger, options);
    // The other instance's write lands 120 ms after this one first asks.
    const elsewhere = new Promise<void>((resolve) => setTimeout(() => void storage.responses.put(record('resp_elsewhere'), ROOMY).then(() => resolve()), 120));
    const started = Date.now();
    expect(await here.find('resp_elsewhere', accountId)).toMatchObject({ id: 'resp_elsewhere' });
    expect(Date.now() - started).toBeLessThan(1_000);
    await elsewhere;
  });

  it('on a shared database, an id nobody wrote is answered missing after otherWritersMs, not sooner and not much later', async () => {
    const here = new StoredResponses(storage.responses, memoryLogger().logger, { ...DEFAULT_STORED_RESPONSES, ttlMs: DAY_MS, otherWritersMs: 300 });
    const started = Date.now();
    expect(await here.find('resp_nobody', accountId)).toBeUndefined();
    const waited = Date.now() - started;
    expect(waited).toBeGreaterThanOrEqual(150);
    expect(waited).toBeLessThan(900);
  });

  it('one instance asks once: a miss is answered at once', async () => {
    const here = new StoredResponses(storage.responses, memoryLogger().logger);
    const started = Date.now();
    expect(await here.find('resp_nobody', accountId)).toBeUndefined();
    expect(Date.now() - started).toBeLessThan(100);
  });

  it('chain and delete of an id wait for its write too; other ids do not', async () => {
    const { store, release } = heldStore();
    const responses = new StoredResponses(store, memoryLogger().logger);
    await storage.responses.put(record('resp_1'), ROOMY);
    void responses.remember(record('resp_2', { previousResponseId: 'resp_1' }));
    const chain = responses.chain('resp_2', accountId);
    const other = responses.find('resp_1', accountId);
    expect(await other).toMatchObject({ id: 'resp_1' });
    expect(await settled(chain)).toBe(false);

    release();
    expect((await chain).map((stored) => stored.id)).toEqual(['resp_1', 'resp_2']);
    expect(await responses.delete('resp_2', accountId)).toBe(true);
    expect(await responses.find('resp_2', accountId)).toBeUndefined();
  });

  it('a read waits for the latest of two writes of the same id, even when the first is done', async () => {
    const real = storage.responses;
    const held = gate();
    // Only the second write (the completed response) is held back.
    const store = delegating(real, {
      put: async (stored, limits) => {
        if (stored.status === 'completed') await held.opened;
        return real.put(stored, limits);
      },
    });
    const responses = new StoredResponses(store, memoryLogger().logger);
    const first = responses.remember(record('resp_1', { status: 'in_progress' }));
    void responses.remember(record('resp_1', { status: 'completed' }));
    await first;
    const found = responses.find('resp_1', accountId);
    expect(await settled(found)).toBe(false);
    held.release();
    expect(await found).toMatchObject({ status: 'completed' });
  });

  it('scopes reads to the account and to rows not yet expired', async () => {
    const responses = new StoredResponses(storage.responses, memoryLogger().logger);
    await responses.remember(record('resp_mine'));
    await responses.remember(record('resp_old', { expiresAt: new Date(Date.now() - 1000).toISOString() }));
    expect(await responses.find('resp_mine', otherAccountId)).toBeUndefined();
    expect(await responses.delete('resp_mine', otherAccountId)).toBe(false);
    expect(await responses.find('resp_old', accountId)).toBeUndefined();
    expect(await responses.find('resp_mine', accountId)).toBeDefined();
  });

  it('logs a failing write and does not throw; a read of that id then finds nothing', async () => {
    const { logger, lines } = memoryLogger();
    const responses = new StoredResponses(storage.responses, logger);
    await expect(responses.remember(record('resp_orphan', { accountId: 999_999 }))).resolves.toBeUndefined();
    expect(lines).toEqual([expect.objectContaining({ level: 50, msg: 'could not store a response', responseId: 'resp_orphan', err: expect.objectContaining({ code: 'SQLITE_CONSTRAINT_FOREIGNKEY' }) })]);
    expect(await responses.find('resp_orphan', 999_999)).toBeUndefined();
    await expect(responses.close()).resolves.toBeUndefined();
  });

  it('gives a response its expiry from the TTL: 30 days unless told', () => {
    const created = Date.parse('2026-03-01T12:00:00.000Z');
    const { logger } = memoryLogger();
    expect(new StoredResponses(storage.responses, logger).expiresAt(created)).toBe('2026-03-31T12:00:00.000Z');
    expect(new StoredResponses(storage.responses, logger, { ...DEFAULT_STORED_RESPONSES, ttlMs: 90 * 60_000 }).expiresAt(created)).toBe('2026-03-01T13:30:00.000Z');
    expect(new StoredResponses(storage.responses, logger).options).toEqual({ store: true, ttlMs: 30 * DAY_MS, maxBytesPerAccount: 100 * 1024 * 1024, maxPerAccount: 10_000 });
  });

  it('reads a response whose expiry is past year 9999 as expired (why RELAY_RESPONSES_TTL stops at 100 years)', async () => {
    const responses = new StoredResponses(storage.responses, memoryLogger().logger, { ...DEFAULT_STORED_RESPONSES, ttlMs: 3_000_000 * DAY_MS });
    const expiresAt = responses.expiresAt(Date.now());
    expect(expiresAt).toMatch(/^\+0\d{5}-/);
    await responses.remember(record('resp_far', { expiresAt }));
    expect(await responses.find('resp_far', accountId)).toBeUndefined();
  });

  it('purges expired rows only, says how many, and says nothing when there were none', async () => {
    const { logger, lines } = memoryLogger();
    const responses = new StoredResponses(storage.responses, logger);
    const past = new Date(Date.now() - 1000).toISOString();
    for (const id of ['resp_a', 'resp_b', 'resp_c']) await responses.remember(record(id, { expiresAt: past }));
    await responses.remember(record('resp_kept'));

    await responses.purge();
    expect(lines).toEqual([expect.objectContaining({ level: 30, msg: 'expired stored responses purged', purged: 3 })]);
    expect(await storage.responses.purgeExpired(new Date(Date.now() + 2 * DAY_MS).toISOString())).toBe(1);

    await responses.purge();
    expect(lines).toHaveLength(1);
  });

  it('logs a failing purge and does not throw', async () => {
    const { logger, lines } = memoryLogger();
    const failing = delegating(storage.responses, { purgeExpired: () => Promise.reject(new Error('disk I/O error')) });
    await expect(new StoredResponses(failing, logger).purge()).resolves.toBeUndefined();
    expect(lines).toEqual([expect.objectContaining({ level: 50, msg: 'purging expired stored responses failed', err: expect.objectContaining({ message: 'disk I/O error' }) })]);
  });

  it('start() purges at once and then hourly, once however often called; close() stops it', async () => {
    jest.useFakeTimers({ doNotFake: ['setImmediate', 'nextTick', 'queueMicrotask'] });
    const purgeExpired = jest.spyOn(storage.responses, 'purgeExpired');
    const responses = new StoredResponses(storage.responses, memoryLogger().logger);
    responses.start();
    responses.start();
    expect(purgeExpired).toHaveBeenCalledTimes(1);
    jest.advanceTimersByTime(HOUR_MS);
    expect(purgeExpired).toHaveBeenCalledTimes(2);
    jest.advanceTimersByTime(2 * HOUR_MS);
    expect(purgeExpired).toHaveBeenCalledTimes(4);

    await responses.close();
    jest.advanceTimersByTime(5 * HOUR_MS);
    expect(purgeExpired).toHaveBeenCalledTimes(4);
    expect(jest.getTimerCount()).toBe(0);
  });

  it('close() waits for every write under way', async () => {
    const { store, release } = heldStore();
    const responses = new StoredResponses(store, memoryLogger().logger);
    void responses.remember(record('resp_1'));
    void responses.remember(record('resp_2'));
    const closing = responses.close();
    expect(await settled(closing)).toBe(false);

    release();
    await closing;
    const now = new Date().toISOString();
    expect(await storage.responses.get('resp_1', accountId, now)).toBeDefined();
    expect(await storage.responses.get('resp_2', accountId, now)).toBeDefined();
  });

  it(`replays chains of up to ${MAX_RESPONSE_CHAIN} responses, the newest ones`, async () => {
    const responses = new StoredResponses(storage.responses, memoryLogger().logger);
    const length = MAX_RESPONSE_CHAIN + 5;
    for (let index = 0; index < length; index++) {
      void responses.remember(record(`resp_${index}`, { previousResponseId: index === 0 ? null : `resp_${index - 1}` }));
    }
    const chain = await responses.chain(`resp_${length - 1}`, accountId);
    expect(chain).toHaveLength(MAX_RESPONSE_CHAIN);
    expect(chain[0]?.id).toBe('resp_5');
    expect(chain[chain.length - 1]?.id).toBe(`resp_${length - 1}`);
  });

  it('issue 26: keeps each account within RELAY_RESPONSES_MAX_PER_ACCOUNT, its oldest going first, and shows what it keeps', async () => {
    const responses = new StoredResponses(storage.responses, memoryLogger().logger, { ...DEFAULT_STORED_RESPONSES, maxPerAccount: 3 });
    const created = (minute: number) => new Date(Date.now() - (10 - minute) * 60_000).toISOString();
    for (let index = 0; index < 5; index++) await responses.remember(record(`resp_${index}`, { createdAt: created(index) }));
    await responses.remember(record('resp_theirs', { accountId: otherAccountId }));
    const found = await Promise.all([0, 1, 2, 3, 4].map((index) => responses.find(`resp_${index}`, accountId)));
    expect(found.map((stored) => stored?.id ?? null)).toEqual([null, null, 'resp_2', 'resp_3', 'resp_4']);
    const usage = await responses.usage([accountId, otherAccountId]);
    expect(usage.get(accountId)?.count).toBe(3);
    expect(usage.get(otherAccountId)?.count).toBe(1);
    expect(usage.get(accountId)?.bytes).toBeGreaterThan(3 * 50);
  });

  it('issue 26: answers a response larger than RELAY_RESPONSES_MAX_BYTES_PER_ACCOUNT without keeping it, and says so once in the log', async () => {
    const { logger, lines } = memoryLogger();
    const responses = new StoredResponses(storage.responses, logger, { ...DEFAULT_STORED_RESPONSES, maxBytesPerAccount: 1_000 });
    await responses.remember(record('resp_small'));
    const big = record('resp_big', { inputItems: [{ id: 'msg_big', type: 'message', role: 'user', content: 'x'.repeat(2_000) }] });
    await expect(responses.remember(big)).resolves.toBeUndefined();
    expect(await responses.find('resp_big', accountId)).toBeUndefined();
    expect(await responses.find('resp_small', accountId)).toBeDefined();
    expect(lines).toEqual([
      expect.objectContaining({ level: 40, msg: 'response not stored: larger than RELAY_RESPONSES_MAX_BYTES_PER_ACCOUNT', responseId: 'resp_big', accountId, maxBytes: 1_000 }),
    ]);
    expect(JSON.stringify(lines)).not.toContain('xxxx');
  });
});
