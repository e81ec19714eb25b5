import type { TokenStatus } from '@chat-relay/contract';
import type { StoreBackend } from '../testing/store-backends';
import type { NewToken, Storage, TokenRecord } from '../../../src/storage/types';
import { failureOf, storageForEachTest, storageWithSqlForEachTest } from './open-with-sql';

const NOW = '2026-03-01T12:00:00.000Z';
const BEFORE = '2026-03-01T11:59:59.999Z';
const AFTER = '2026-03-01T12:00:00.001Z';

const ids = (rows: readonly { id: number }[]) => rows.map((row) => row.id);

/** The behaviour every TokenStore shows, on each backend (describeEachBackend). */
export function describeTokenStore(backend: StoreBackend): void {
  describe('rows', () => {
    const storage = storageForEachTest(backend);
    let accountId: number;
    let otherAccountId: number;
    beforeEach(async () => {
      accountId = (await storage().accounts.createUser('owner')).id;
      otherAccountId = (await storage().accounts.createUser('someone else')).id;
    });
    let digests = 0;
    const create = (overrides: Partial<NewToken> = {}): Promise<TokenRecord> =>
      storage().tokens.create({ accountId, name: 'token', keyDigest: `digest-${(digests += 1)}`, keyHint: 'sk-…abcd', ...overrides });

    it('creates a token with the defaults: active, no expiry, no limits, never used', async () => {
      const started = Date.now();
      const token = await create({ name: 'plain' });
      expect(token).toEqual({
        id: expect.any(Number),
        accountId,
        name: 'plain',
        keyHint: 'sk-…abcd',
        status: 'active',
        expiresAt: null,
        quotaLimit: null,
        quotaUsed: 0,
        models: null,
        allowedIps: null,
        rateLimit: null,
        createdAt: expect.any(String),
        lastUsedAt: null,
        periodicLimits: [],
        timeZone: null,
        alertThresholds: null,
      });
      expect(Date.parse(token.createdAt)).toBeGreaterThanOrEqual(started);
      expect(new Date(token.createdAt).toISOString()).toBe(token.createdAt);
      expect(await storage().tokens.get(token.id)).toEqual(token);
    });

    it('gives back every policy field as set, rate limits filled out kind by kind', async () => {
      const token = await create({
        name: 'Grüße "quoted" \\ token',
        status: 'disabled',
        expiresAt: '2027-01-02T03:04:05.678Z',
        quotaLimit: Number.MAX_SAFE_INTEGER,
        models: ['gpt-4o', 'claude-*', ''],
        allowedIps: ['10.0.0.0/8', '::1', '192.168.1.7'],
        rateLimit: { rpm: 60 },
      });
      expect(token).toMatchObject({
        name: 'Grüße "quoted" \\ token',
        status: 'disabled',
        expiresAt: '2027-01-02T03:04:05.678Z',
        quotaLimit: Number.MAX_SAFE_INTEGER,
        models: ['gpt-4o', 'claude-*', ''],
        allowedIps: ['10.0.0.0/8', '::1', '192.168.1.7'],
        rateLimit: { rpm: 60, tpm: null, concurrency: null },
      });
      expect(await storage().tokens.get(token.id)).toEqual(token);
      // Empty lists are lists, not "no restriction".
      expect(await create({ models: [], allowedIps: [] })).toMatchObject({ models: [], allowedIps: [] });
      // Every kind without a limit is no rate limit at all.
      expect((await create({ rateLimit: { rpm: null, tpm: null, concurrency: null } })).rateLimit).toBeNull();
    });

    it('merges a rate limit change kind by kind; null removes a kind, or all of them', async () => {
      const token = await create({ rateLimit: { rpm: 60, tpm: 10_000 } });
      expect((await storage().tokens.update(token.id, { rateLimit: { concurrency: 2 } }))?.rateLimit).toEqual({ rpm: 60, tpm: 10_000, concurrency: 2 });
      expect((await storage().tokens.update(token.id, { rateLimit: { rpm: null } }))?.rateLimit).toEqual({ rpm: null, tpm: 10_000, concurrency: 2 });
      expect((await storage().tokens.update(token.id, { name: 'kept limits' }))?.rateLimit).toEqual({ rpm: null, tpm: 10_000, concurrency: 2 });
      expect((await storage().tokens.update(token.id, { rateLimit: null }))?.rateLimit).toBeNull();
      expect((await storage().tokens.get(token.id))?.rateLimit).toBeNull();
    });

    it('changes only what a patch names, and clears what it sets to null', async () => {
      const token = await create({ expiresAt: '2027-01-01T00:00:00.000Z', quotaLimit: 500, models: ['a'], allowedIps: ['::1'] });
      const patched = await storage().tokens.update(token.id, { quotaUsed: 499, name: 'renamed' });
      expect(patched).toEqual({ ...token, quotaUsed: 499, name: 'renamed' });
      const cleared = await storage().tokens.update(token.id, { expiresAt: null, quotaLimit: null, models: null, allowedIps: null });
      expect(cleared).toEqual({ ...token, quotaUsed: 499, name: 'renamed', expiresAt: null, quotaLimit: null, models: null, allowedIps: null });
      expect(await storage().tokens.get(token.id)).toEqual(cleared);
    });

    it('answers undefined, false or nothing for a token or account that does not exist, whatever the number', async () => {
      const token = await create();
      for (const id of [424242, 2 ** 40, 2 ** 70, 1e300]) {
        expect(await storage().tokens.get(id)).toBeUndefined();
        expect(await storage().tokens.update(id, { name: 'x' })).toBeUndefined();
        expect(await storage().tokens.delete(id)).toBe(false);
        expect(await storage().tokens.batch([id, token.id], 'disable', undefined, id)).toEqual([
          { id, status: 'not_found' },
          { id: token.id, status: 'not_found' },
        ]);
        expect(await storage().tokens.list({ page: 1, perPage: 10, now: NOW, accountId: id })).toEqual({ rows: [], total: 0 });
        expect(await storage().tokens.search({ page: 1, perPage: 10, q: '', accountId: id })).toEqual({ rows: [], total: 0 });
        await storage().tokens.touchLastUsed(new Map([[id, NOW]]));
      }
      expect(await storage().tokens.findByKeyDigest('no such digest')).toBeUndefined();
      expect(await storage().tokens.get(token.id)).toEqual(token);
    });

    it('refuses a second token with the same key digest, and a token of no account', async () => {
      await create({ keyDigest: 'same' });
      expect(await failureOf(create({ keyDigest: 'same' }))).toMatch(/unique/i);
      expect(await failureOf(create({ accountId: 424242 }))).toMatch(/foreign key/i);
      expect((await storage().tokens.list({ page: 1, perPage: 10, now: NOW })).total).toBe(1);
    });

    it("finds a token by its key digest with its account's status and quota limit", async () => {
      const token = await create({ keyDigest: 'auth' });
      expect(await storage().tokens.findByKeyDigest('auth')).toEqual({
        ...token,
        account: { status: 'active', quotaLimit: null, periodicLimits: [], timeZone: null },
      });
      await storage().accounts.update(accountId, { status: 'disabled', quotaLimit: 7 });
      expect((await storage().tokens.findByKeyDigest('auth'))?.account).toEqual({ status: 'disabled', quotaLimit: 7, periodicLimits: [], timeZone: null });
    });

    it("keeps periodic limits, time zone and alert thresholds through create, update, batch and the auth path's read (with the account's)", async () => {
      const daily = { period: 'day', metric: 'cost', limit: 1_000_000 } as const;
      const token = await create({ keyDigest: 'limited', periodicLimits: [daily], timeZone: 'Europe/Paris', alertThresholds: [50, 80, 100] });
      expect(token).toMatchObject({ periodicLimits: [daily], timeZone: 'Europe/Paris', alertThresholds: [50, 80, 100] });
      expect(await storage().tokens.get(token.id)).toEqual(token);

      const monthly = { period: 'month', metric: 'requests', limit: 100 } as const;
      // Left out (or undefined): kept; null: cleared.
      const updated = await storage().tokens.update(token.id, { periodicLimits: [daily, monthly], timeZone: undefined, alertThresholds: null });
      expect(updated).toMatchObject({ periodicLimits: [daily, monthly], timeZone: 'Europe/Paris', alertThresholds: null });

      const other = await create({ keyDigest: 'other' });
      const weekly = { period: 'week', metric: 'tokens', limit: 5_000 } as const;
      const outcomes = await storage().tokens.batch([token.id, other.id], 'update', { periodicLimits: [weekly], timeZone: 'Asia/Tokyo' });
      expect(outcomes.map((outcome) => outcome.token && [outcome.token.periodicLimits, outcome.token.timeZone])).toEqual([
        [[weekly], 'Asia/Tokyo'],
        [[weekly], 'Asia/Tokyo'],
      ]);

      await storage().accounts.update(accountId, { periodicLimits: [monthly], timeZone: 'America/New_York', alertThresholds: [90] });
      const found = await storage().tokens.findByKeyDigest('limited');
      expect(found).toMatchObject({ periodicLimits: [weekly], timeZone: 'Asia/Tokyo', alertThresholds: null });
      expect(found?.account).toEqual({ status: 'active', quotaLimit: null, periodicLimits: [monthly], timeZone: 'America/New_York' });
    });

    it('deletes a token once', async () => {
      const token = await create({ keyDigest: 'bye' });
      expect(await storage().tokens.delete(token.id)).toBe(true);
      expect(await storage().tokens.delete(token.id)).toBe(false);
      expect(await storage().tokens.get(token.id)).toBeUndefined();
      expect(await storage().tokens.findByKeyDigest('bye')).toBeUndefined();
    });

    describe('list', () => {
      /** One token per way of showing a status at NOW. */
      async function statusFixture(): Promise<Record<string, number>> {
        const made: Record<string, number> = {};
        const add = async (name: string, overrides: Partial<NewToken> & { quotaUsed?: number } = {}) => {
          const { quotaUsed, ...input } = overrides;
          const token = await create({ name, ...input });
          if (quotaUsed !== undefined) await storage().tokens.update(token.id, { quotaUsed });
          made[name] = token.id;
        };
        await add('plain');
        await add('expires later', { expiresAt: AFTER });
        await add('expired just now', { expiresAt: NOW });
        await add('expired before', { expiresAt: BEFORE });
        await add('used up', { quotaLimit: 10, quotaUsed: 10 });
        await add('almost used up', { quotaLimit: 10, quotaUsed: 9 });
        await add('disabled', { status: 'disabled' });
        await add('disabled and expired', { status: 'disabled', expiresAt: BEFORE });
        await add('expired and used up', { expiresAt: BEFORE, quotaLimit: 1, quotaUsed: 5 });
        return made;
      }

      it.each<[TokenStatus, string[]]>([
        ['active', ['plain', 'expires later', 'almost used up']],
        ['expired', ['expired just now', 'expired before', 'expired and used up']],
        ['exhausted', ['used up']],
        ['disabled', ['disabled', 'disabled and expired']],
      ])('shows as %s what the view would show so at the time given', async (status, names) => {
        const made = await statusFixture();
        const listed = await storage().tokens.list({ page: 1, perPage: 50, now: NOW, status });
        expect(listed).toEqual({ rows: names.map((name) => expect.objectContaining({ id: made[name], name })), total: names.length });
      });

      it('derives expiry from the time given, not the clock, and keeps the stored status', async () => {
        const made = await statusFixture();
        const later = await storage().tokens.list({ page: 1, perPage: 50, now: '2030-01-01T00:00:00.000Z', status: 'expired' });
        expect(ids(later.rows)).toContain(made['expires later']);
        expect(later.rows.find((row) => row.id === made['expires later'])?.status).toBe('active');
        const earlier = await storage().tokens.list({ page: 1, perPage: 50, now: '2020-01-01T00:00:00.000Z', status: 'expired' });
        expect(earlier.total).toBe(0);
      });

      it("pages in id order with the total, over all tokens or one account's", async () => {
        const mine = [await create(), await create(), await create()];
        const theirs = await create({ accountId: otherAccountId });
        expect(await storage().tokens.list({ page: 1, perPage: 2, now: NOW })).toEqual({
          rows: [expect.objectContaining({ id: mine[0]?.id }), expect.objectContaining({ id: mine[1]?.id })],
          total: 4,
        });
        expect(ids((await storage().tokens.list({ page: 2, perPage: 2, now: NOW })).rows)).toEqual([mine[2]?.id, theirs.id]);
        expect(await storage().tokens.list({ page: 3, perPage: 2, now: NOW })).toEqual({ rows: [], total: 4 });
        const scoped = await storage().tokens.list({ page: 1, perPage: 10, now: NOW, accountId: otherAccountId });
        expect(scoped).toEqual({ rows: [theirs], total: 1 });
        const scopedActive = await storage().tokens.list({ page: 1, perPage: 10, now: NOW, accountId, status: 'active' });
        expect(ids(scopedActive.rows)).toEqual(ids(mine));
      });
    });

    describe('search', () => {
      it('matches the name or the key hint, in any case, as plain text', async () => {
        const byName = await create({ name: 'Production Key', keyHint: 'sk-…0001' });
        const byHint = await create({ name: 'other', keyHint: 'sk-…PROD' });
        const percent = await create({ name: '100% off_peak', keyHint: 'sk-…0003' });
        await create({ name: 'unrelated', keyHint: 'sk-…0004' });
        const search = (q: string) => storage().tokens.search({ page: 1, perPage: 10, q });
        expect(ids((await search('prod')).rows)).toEqual([byName.id, byHint.id]);
        expect(ids((await search('PRODUCTION')).rows)).toEqual([byName.id]);
        // `%` and `_` are what they are, no wildcards.
        expect(ids((await search('0% off_')).rows)).toEqual([percent.id]);
        expect((await search('o_f')).total).toBe(0);
        expect((await search('%')).total).toBe(1);
        expect((await search('nothing like it')).total).toBe(0);
      });

      it("pages with the total, and keeps to one account's tokens when asked", async () => {
        const mine = [await create({ name: 'match 1' }), await create({ name: 'match 2' }), await create({ name: 'match 3' })];
        await create({ name: 'match theirs', accountId: otherAccountId });
        await create({ name: 'no' });
        expect(await storage().tokens.search({ page: 2, perPage: 2, q: 'MATCH' })).toEqual({
          rows: [expect.objectContaining({ id: mine[2]?.id }), expect.objectContaining({ name: 'match theirs' })],
          total: 4,
        });
        const scoped = await storage().tokens.search({ page: 1, perPage: 10, q: 'match', accountId });
        expect(scoped).toEqual({ rows: mine, total: 3 });
      });
    });

    describe('batch', () => {
      it('acts on every id once, in order, and reports the missing ones not_found', async () => {
        const [a, b] = [await create(), await create({ status: 'disabled' })];
        const disabled = await storage().tokens.batch([a.id, 424242, a.id, b.id], 'disable', undefined);
        expect(disabled).toEqual([
          { id: a.id, status: 'ok', token: { ...a, status: 'disabled' } },
          { id: 424242, status: 'not_found' },
          { id: b.id, status: 'ok', token: b },
        ]);
        const enabled = await storage().tokens.batch([b.id, a.id], 'enable', undefined);
        expect(enabled.map((outcome) => [outcome.id, outcome.token?.status])).toEqual([
          [b.id, 'active'],
          [a.id, 'active'],
        ]);
        expect((await storage().tokens.get(a.id))?.status).toBe('active');
      });

      it('applies an update patch, rate limits merged, and deletes', async () => {
        const [a, b] = [await create({ rateLimit: { rpm: 5 } }), await create()];
        const updated = await storage().tokens.batch([a.id, b.id], 'update', { quotaLimit: 99, rateLimit: { tpm: 1000 } });
        expect(updated.map((outcome) => outcome.token)).toEqual([
          { ...a, quotaLimit: 99, rateLimit: { rpm: 5, tpm: 1000, concurrency: null } },
          { ...b, quotaLimit: 99, rateLimit: { rpm: null, tpm: 1000, concurrency: null } },
        ]);
        expect(await storage().tokens.batch([b.id], 'update', undefined)).toEqual([{ id: b.id, status: 'ok', token: updated[1]?.token }]);
        expect(await storage().tokens.batch([a.id, b.id], 'delete', undefined)).toEqual([
          { id: a.id, status: 'ok' },
          { id: b.id, status: 'ok' },
        ]);
        expect((await storage().tokens.list({ page: 1, perPage: 10, now: NOW })).total).toBe(0);
      });

      it("treats another account's tokens as missing when scoped to an account", async () => {
        const mine = await create();
        const theirs = await create({ accountId: otherAccountId });
        const outcomes = await storage().tokens.batch([theirs.id, mine.id], 'delete', undefined, accountId);
        expect(outcomes).toEqual([
          { id: theirs.id, status: 'not_found' },
          { id: mine.id, status: 'ok' },
        ]);
        expect(await storage().tokens.get(theirs.id)).toEqual(theirs);
        expect(await storage().tokens.get(mine.id)).toBeUndefined();
        // Unscoped (the admin), every account's token is in reach.
        expect(await storage().tokens.batch([theirs.id], 'disable', undefined)).toEqual([
          { id: theirs.id, status: 'ok', token: { ...theirs, status: 'disabled' } },
        ]);
      });
      it('lets two batches over the same tokens in opposite orders both finish', async () => {
        const made = [await create(), await create(), await create(), await create()];
        const forward = made.map((token) => token.id);
        for (let round = 0; round < 5; round += 1) {
          const [first, second] = await Promise.all([
            storage().tokens.batch(forward, 'disable', undefined),
            storage().tokens.batch([...forward].reverse(), 'update', { name: `round ${round}` }),
          ]);
          expect(first.every((outcome) => outcome.status === 'ok')).toBe(true);
          expect(second.every((outcome) => outcome.status === 'ok')).toBe(true);
        }
        const after = await storage().tokens.list({ page: 1, perPage: 10, now: NOW });
        expect(after.rows.map((token) => [token.status, token.name])).toEqual(made.map(() => ['disabled', 'round 4']));
      });
    });

    describe('touchLastUsed', () => {
      it('sets each time in one go, never moving one backwards, and passes over unknown ids', async () => {
        const [a, b, c] = [await create(), await create(), await create()];
        await storage().tokens.touchLastUsed(new Map());
        await storage().tokens.touchLastUsed(
          new Map([
            [a.id, NOW],
            [b.id, BEFORE],
            [424242, NOW],
          ]),
        );
        await storage().tokens.touchLastUsed(
          new Map([
            [a.id, BEFORE],
            [b.id, AFTER],
          ]),
        );
        expect((await storage().tokens.get(a.id))?.lastUsedAt).toBe(NOW);
        expect((await storage().tokens.get(b.id))?.lastUsedAt).toBe(AFTER);
        expect((await storage().tokens.get(c.id))?.lastUsedAt).toBeNull();
        expect((await storage().tokens.get(c.id))?.quotaUsed).toBe(0);
      });
    });
  });

  describe('with the token key cache', () => {
    const opened = storageWithSqlForEachTest(backend);
    let storage: Storage;
    let accountId: number;
    beforeEach(async () => {
      storage = opened().storage;
      accountId = (await storage.accounts.createUser('cached')).id;
    });

    it('answers a repeated lookup from memory, without reading the database', async () => {
      await storage.tokens.create({ accountId, name: 'cached', keyDigest: 'k1', keyHint: 'sk-…' });
      expect((await storage.tokens.findByKeyDigest('k1'))?.status).toBe('active');
      await opened().sql("UPDATE tokens SET status = 'disabled' WHERE key_digest = $1", ['k1']);
      expect((await storage.tokens.findByKeyDigest('k1'))?.status).toBe('active');
    });

    it('refuses at once a token disabled, deleted, or whose account is disabled, through the stores', async () => {
      const token = await storage.tokens.create({ accountId, name: 'cached', keyDigest: 'k1', keyHint: 'sk-…' });
      expect((await storage.tokens.findByKeyDigest('k1'))?.status).toBe('active');
      await storage.tokens.update(token.id, { status: 'disabled' });
      expect((await storage.tokens.findByKeyDigest('k1'))?.status).toBe('disabled');
      await storage.tokens.batch([token.id], 'enable', undefined);
      expect((await storage.tokens.findByKeyDigest('k1'))?.status).toBe('active');
      await storage.accounts.update(accountId, { status: 'disabled' });
      expect((await storage.tokens.findByKeyDigest('k1'))?.account?.status).toBe('disabled');
      await storage.tokens.delete(token.id);
      expect(await storage.tokens.findByKeyDigest('k1')).toBeUndefined();
    });
  });

  describe('rows written before', () => {
    const opened = storageWithSqlForEachTest(backend);

    it('reads rate limits stored before concurrency existed as the full shape', async () => {
      const { storage } = opened();
      const accountId = (await storage.accounts.createUser('old')).id;
      const token = await storage.tokens.create({ accountId, name: 'old', keyDigest: 'old', keyHint: 'sk-…' });
      await opened().sql('UPDATE tokens SET rate_limit = $1 WHERE id = $2', ['{"rpm":5,"tpm":null}', token.id]);
      expect((await storage.tokens.get(token.id))?.rateLimit).toEqual({ rpm: 5, tpm: null, concurrency: null });
      await opened().sql('UPDATE tokens SET rate_limit = $1 WHERE id = $2', ['{}', token.id]);
      expect((await storage.tokens.get(token.id))?.rateLimit).toBeNull();
    });
  });
}
