import Database from 'better-sqlite3';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openSqliteStorage, SQLITE_FILE_NAME } from './sqlite/open-sqlite';
import { withTokenKeyCache } from './token-key-cache';
import type { Storage, TokenRecord } from './types';

describe('token lookups by key, cached in memory', () => {
  let dataDir: string;
  let storage: Storage;
  let accountId: number;
  /** A second connection: changes the cache cannot have heard of. */
  let outOfBand: Database.Database;

  beforeEach(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'chat-relay-key-cache-'));
    storage = openSqliteStorage(dataDir);
    accountId = (await storage.accounts.createUser('alice')).id;
    outOfBand = new Database(path.join(dataDir, SQLITE_FILE_NAME));
  });

  afterEach(async () => {
    outOfBand.close();
    await storage.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const createToken = (keyDigest: string) => storage.tokens.create({ accountId, name: keyDigest, keyDigest, keyHint: 'sk-…' });
  const disableOutOfBand = (digest: string) =>
    outOfBand.prepare("UPDATE tokens SET status = 'disabled' WHERE key_digest = ?").run(digest);

  it('answers a repeated lookup from memory, without reading the database', async () => {
    await createToken('d1');
    expect((await storage.tokens.findByKeyDigest('d1'))?.status).toBe('active');
    disableOutOfBand('d1');
    // From memory at once: the auth path goes on without a promise (issue 30).
    const hit = storage.tokens.findByKeyDigest('d1');
    expect(hit).not.toBeInstanceOf(Promise);
    expect((hit as TokenRecord | undefined)?.status).toBe('active');
  });

  it('forgets everything when a token changes through the store', async () => {
    const token = await createToken('d1');
    await storage.tokens.findByKeyDigest('d1');
    await storage.tokens.update(token.id, { models: ['gpt-4o'] });
    expect((await storage.tokens.findByKeyDigest('d1'))?.models).toEqual(['gpt-4o']);
    await storage.tokens.batch([token.id], 'disable', undefined);
    expect((await storage.tokens.findByKeyDigest('d1'))?.status).toBe('disabled');
    await storage.tokens.delete(token.id);
    expect(await storage.tokens.findByKeyDigest('d1')).toBeUndefined();
  });

  it('sees a change of the owning account (status, quota limit, periodic limits, time zone) at once', async () => {
    await createToken('d1');
    expect((await storage.tokens.findByKeyDigest('d1'))?.account).toEqual({ status: 'active', quotaLimit: null, periodicLimits: [], timeZone: null });
    const daily = { period: 'day', metric: 'requests', limit: 100 } as const;
    await storage.accounts.update(accountId, { status: 'disabled', quotaLimit: 5, periodicLimits: [daily], timeZone: 'Europe/Paris' });
    expect((await storage.tokens.findByKeyDigest('d1'))?.account).toEqual({
      status: 'disabled',
      quotaLimit: 5,
      periodicLimits: [daily],
      timeZone: 'Europe/Paris',
    });
  });

  it("sees a change of the token's periodic limits at once", async () => {
    const token = await createToken('d2');
    expect((await storage.tokens.findByKeyDigest('d2'))?.periodicLimits).toEqual([]);
    const daily = { period: 'day', metric: 'cost', limit: 1_000_000 } as const;
    await storage.tokens.update(token.id, { periodicLimits: [daily], timeZone: 'Asia/Tokyo' });
    expect(await storage.tokens.findByKeyDigest('d2')).toMatchObject({ periodicLimits: [daily], timeZone: 'Asia/Tokyo' });
    await storage.tokens.batch([token.id], 'update', { periodicLimits: [] });
    expect((await storage.tokens.findByKeyDigest('d2'))?.periodicLimits).toEqual([]);
  });

  it('never caches an unknown key, so a token created elsewhere is found at once', async () => {
    expect(await storage.tokens.findByKeyDigest('d2')).toBeUndefined();
    outOfBand
      .prepare("INSERT INTO tokens (account_id, name, key_digest, key_hint, status, created_at) VALUES (?, 'x', 'd2', 'h', 'active', ?)")
      .run(accountId, new Date().toISOString());
    expect((await storage.tokens.findByKeyDigest('d2'))?.name).toBe('x');
  });

  it('asks the database again once an entry is older than maxAgeMs', async () => {
    await storage.close();
    const shortLived = (storage = openSqliteStorage(dataDir, { keyCache: { maxAgeMs: 30 } }));
    await createToken('d1');
    await shortLived.tokens.findByKeyDigest('d1');
    disableOutOfBand('d1');
    expect((await shortLived.tokens.findByKeyDigest('d1'))?.status).toBe('active');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect((await shortLived.tokens.findByKeyDigest('d1'))?.status).toBe('disabled');
  });

  it('keeps at most maxEntries tokens, dropping the oldest', async () => {
    await storage.close();
    const small = (storage = openSqliteStorage(dataDir, { keyCache: { maxEntries: 2 } }));
    for (const digest of ['a', 'b', 'c']) await createToken(digest);
    for (const digest of ['a', 'b', 'c']) await small.tokens.findByKeyDigest(digest);
    disableOutOfBand('a');
    disableOutOfBand('c');
    expect((await small.tokens.findByKeyDigest('a'))?.status).toBe('disabled');
    expect((await small.tokens.findByKeyDigest('c'))?.status).toBe('active');
  });

  it('does not keep a row read while a change was being made', async () => {
    const token = await createToken('d1');
    let release: () => void = () => undefined;
    const slowRead = new Promise<void>((resolve) => (release = resolve));
    const racing = withTokenKeyCache({
      ...storage,
      tokens: {
        ...storage.tokens,
        findByKeyDigest: async (digest: string): Promise<TokenRecord | undefined> => {
          const before = await storage.tokens.get(token.id);
          await slowRead;
          return before && digest === 'd1' ? before : undefined;
        },
        update: (id, patch) => storage.tokens.update(id, patch),
      },
    });
    const inFlight = racing.tokens.findByKeyDigest('d1');
    await racing.tokens.update(token.id, { status: 'disabled' });
    release();
    expect((await inFlight)?.status).toBe('active');
    // The stale row was not cached: the next lookup reads again (and the stub now sees the change).
    const next = racing.tokens.findByKeyDigest('d1');
    release();
    expect((await next)?.status).toBe('disabled');
  });
});
