import type { StoreBackend } from '../testing/store-backends';
import { AlreadyExistsError, type AssistantRecord, type NewAssistant, type Storage } from '../../../src/storage/types';
import { storageForEachTest, storageWithSqlForEachTest, type StorageWithSql } from './open-with-sql';
import { newAssistant } from '../../testing/assistant-record';

const assistant = newAssistant;

/** Property order a strict-mode answer follows: not sorted, and it must come back as written. */
const TOOLS: NewAssistant['tools'] = [
  {
    type: 'function',
    function: {
      name: 'lookup',
      description: 'Finds a record — "quoted", ü',
      parameters: { type: 'object', properties: { zeta: { type: 'string' }, alpha: { type: 'number' }, mid: { type: 'boolean' } }, required: ['zeta'] },
      strict: true,
    },
  },
  { type: 'custom', custom: { name: 'free_text' } },
];
const RESPONSE_FORMAT: NewAssistant['responseFormat'] = {
  type: 'json_schema',
  json_schema: { name: 'answer', strict: true, schema: { type: 'object', properties: { verdict: { type: 'string' }, because: { type: 'string' } } } },
};

const ids = (rows: readonly AssistantRecord[]) => rows.map((row) => `${row.accountId}:${row.id}`);

/** The behaviour every AssistantStore shows, on each backend (describeEachBackend). */
export function describeAssistantStore(backend: StoreBackend): void {
  describe('rows', () => {
    const storage = storageForEachTest(backend);
    let alice: number;
    let bob: number;
    let carol: number;
    beforeEach(async () => {
      alice = (await storage().accounts.createUser('alice')).id;
      bob = (await storage().accounts.createUser('bob')).id;
      carol = (await storage().accounts.createUser('carol')).id;
    });
    const create = (input: NewAssistant) => storage().assistants.create(input);

    it('gives back every field as created, JSON in the order written', async () => {
      const started = Date.now();
      const input = assistant(alice, 'full', {
        name: 'Full "one"',
        description: 'Grüße\nline two',
        instructions: 'Answer in {json}; never say "%s"',
        tools: TOOLS,
        temperature: 0.7,
        topP: 0.95,
        maxTokens: 4096,
        responseFormat: RESPONSE_FORMAT,
        models: ['gpt-4o', 'claude-*'],
        visibility: 'public',
      });
      const created = await create(input);
      expect(created).toEqual({ ...input, createdAt: expect.any(String), updatedAt: created.createdAt });
      expect(Date.parse(created.createdAt)).toBeGreaterThanOrEqual(started);
      const read = await storage().assistants.getOwned(alice, 'full');
      expect(read).toEqual(created);
      expect(JSON.stringify(read?.tools)).toBe(JSON.stringify(TOOLS));
      expect(JSON.stringify(read?.responseFormat)).toBe(JSON.stringify(RESPONSE_FORMAT));
    });

    it('keeps nulls and empty lists apart', async () => {
      const plain = await create(assistant(alice, 'plain'));
      expect(await storage().assistants.getOwned(alice, 'plain')).toEqual(plain);
      expect(plain).toMatchObject({ tools: [], temperature: null, topP: null, maxTokens: null, responseFormat: null, models: null });
      const empty = await create(assistant(alice, 'empty', { models: [], temperature: 0, topP: 1, maxTokens: 1 }));
      expect(await storage().assistants.getOwned(alice, 'empty')).toMatchObject({ models: [], temperature: 0, topP: 1, maxTokens: 1 });
      expect(empty.models).toEqual([]);
    });

    it('lets two owners each hold a private id, but never one owner twice', async () => {
      await create(assistant(alice, 'same'));
      await create(assistant(bob, 'same', { name: "bob's" }));
      await expect(create(assistant(alice, 'same'))).rejects.toBeInstanceOf(AlreadyExistsError);
      expect(ids(await storage().assistants.findById('same'))).toEqual([`${alice}:same`, `${bob}:same`]);
      expect((await storage().assistants.getOwned(bob, 'same'))?.name).toBe("bob's");
      expect(await storage().assistants.getOwned(carol, 'same')).toBeUndefined();
    });

    it("refuses another owner's public id, private or public, and a second public one", async () => {
      await create(assistant(alice, 'shared', { visibility: 'public' }));
      await expect(create(assistant(bob, 'shared'))).rejects.toBeInstanceOf(AlreadyExistsError);
      await expect(create(assistant(bob, 'shared', { visibility: 'public' }))).rejects.toBeInstanceOf(AlreadyExistsError);
      expect(ids(await storage().assistants.findById('shared'))).toEqual([`${alice}:shared`]);
    });

    it('issue 26: a create that takes the public id makes the other public one private to its owner, in one step', async () => {
      const squatted = await create(assistant(bob, 'help', { visibility: 'public', instructions: 'squatter' }));
      const taken = await storage().assistants.create(assistant(alice, 'help', { visibility: 'public', instructions: 'operator' }), { takePublicId: true });
      expect(taken).toMatchObject({ accountId: alice, visibility: 'public', instructions: 'operator' });
      const demoted = await storage().assistants.getOwned(bob, 'help');
      expect(demoted).toEqual({ ...squatted, visibility: 'private', updatedAt: demoted?.updatedAt });
      expect(await storage().assistants.resolveFor(carol, 'help')).toEqual(taken);
      expect(await storage().assistants.resolveFor(bob, 'help')).toEqual(demoted);
      // Without it, as before: refused, and nothing changes.
      await expect(create(assistant(carol, 'help', { visibility: 'public' }))).rejects.toBeInstanceOf(AlreadyExistsError);
      // A private create never takes anything.
      await expect(storage().assistants.create(assistant(carol, 'help'), { takePublicId: true })).rejects.toBeInstanceOf(AlreadyExistsError);
      expect(ids(await storage().assistants.findById('help'))).toEqual([`${alice}:help`, `${bob}:help`]);
    });

    it('lets a public id shadow nobody: an owner of a private one keeps it, the others get the public one', async () => {
      const mine = await create(assistant(bob, 'shared', { name: "bob's own" }));
      const shared = await create(assistant(alice, 'shared', { visibility: 'public' }));
      expect(await storage().assistants.resolveFor(bob, 'shared')).toEqual(mine);
      expect(await storage().assistants.resolveFor(alice, 'shared')).toEqual(shared);
      expect(await storage().assistants.resolveFor(carol, 'shared')).toEqual(shared);
      expect(await storage().assistants.resolveFor(carol, 'nothing')).toBeUndefined();
      await create(assistant(alice, 'private-one'));
      expect(await storage().assistants.resolveFor(bob, 'private-one')).toBeUndefined();
    });

    it('lists what an account may use, by id byte by byte: its own, and the public ones it does not shadow', async () => {
      // Bob's alpha first: once a public one has an id, nobody else may take it.
      await create(assistant(bob, 'alpha', { name: "bob's alpha" }));
      await create(assistant(alice, 'beta_1', { visibility: 'public' }));
      await create(assistant(alice, 'alpha', { visibility: 'public' }));
      await create(assistant(alice, 'Zeta'));
      await create(assistant(bob, 'beta-2'));
      await create(assistant(carol, 'carol-only'));
      expect(ids(await storage().assistants.listUsableBy(bob))).toEqual([`${bob}:alpha`, `${bob}:beta-2`, `${alice}:beta_1`]);
      expect(ids(await storage().assistants.listUsableBy(alice))).toEqual([`${alice}:Zeta`, `${alice}:alpha`, `${alice}:beta_1`]);
      expect(ids(await storage().assistants.listUsableBy(carol))).toEqual([`${alice}:alpha`, `${alice}:beta_1`, `${carol}:carol-only`]);
    });

    it("pages all assistants or one account's, oldest first, with the total", async () => {
      const made: AssistantRecord[] = [];
      for (const [owner, id] of [
        [alice, 'a1'],
        [bob, 'b1'],
        [alice, 'a2'],
        [alice, 'a3'],
      ] as const) {
        made.push(await create(assistant(owner, id)));
        // A millisecond apart at least: the order is by creation time.
        await new Promise((resolve) => setTimeout(resolve, 2));
      }
      expect(await storage().assistants.list({ page: 1, perPage: 3 })).toEqual({ rows: made.slice(0, 3), total: 4 });
      expect(await storage().assistants.list({ page: 2, perPage: 3 })).toEqual({ rows: made.slice(3), total: 4 });
      expect(await storage().assistants.list({ page: 1, perPage: 2, accountId: alice })).toEqual({ rows: [made[0], made[2]], total: 3 });
      expect(await storage().assistants.list({ page: 3, perPage: 2, accountId: alice })).toEqual({ rows: [], total: 3 });
      expect(await storage().assistants.list({ page: 1, perPage: 2, accountId: carol })).toEqual({ rows: [], total: 0 });
    });

    describe('update', () => {
      it('changes only what the patch names, for the owner only', async () => {
        const created = await create(assistant(alice, 'x', { tools: TOOLS, temperature: 0.2 }));
        const patched = await storage().assistants.update(alice, 'x', { name: 'renamed', temperature: null, responseFormat: RESPONSE_FORMAT });
        if (!patched) throw new Error('assistant missing');
        expect(patched).toEqual({ ...created, name: 'renamed', temperature: null, responseFormat: RESPONSE_FORMAT, updatedAt: patched.updatedAt });
        expect(Date.parse(patched.updatedAt)).toBeGreaterThanOrEqual(Date.parse(created.updatedAt));
        expect(JSON.stringify(patched.tools)).toBe(JSON.stringify(TOOLS));
        expect(await storage().assistants.getOwned(alice, 'x')).toEqual(patched);
        expect(await storage().assistants.update(bob, 'x', { name: 'hijacked' })).toBeUndefined();
        expect(await storage().assistants.update(alice, 'nothing', { name: 'x' })).toBeUndefined();
        expect((await storage().assistants.getOwned(alice, 'x'))?.name).toBe('renamed');
      });

      it('issue 26: an update that takes the public id makes the other public one private, in one step', async () => {
        await create(assistant(alice, 'guide'));
        await create(assistant(bob, 'guide', { visibility: 'public' }));
        const published = await storage().assistants.update(alice, 'guide', { visibility: 'public' }, { takePublicId: true });
        expect(published?.visibility).toBe('public');
        expect((await storage().assistants.getOwned(bob, 'guide'))?.visibility).toBe('private');
        expect(await storage().assistants.resolveFor(carol, 'guide')).toEqual(published);
        // Taking what it holds already changes no one else.
        expect((await storage().assistants.update(alice, 'guide', { name: 'again' }, { takePublicId: true }))?.name).toBe('again');
        expect(await storage().assistants.update(carol, 'guide', { visibility: 'public' }, { takePublicId: true })).toBeUndefined();
        expect((await storage().assistants.getOwned(alice, 'guide'))?.visibility).toBe('public');
      });

      it('refuses to make an id public while another public one has it, and changes nothing then', async () => {
        const bobs = await create(assistant(bob, 'shared'));
        await create(assistant(alice, 'shared', { visibility: 'public' }));
        await expect(storage().assistants.update(bob, 'shared', { visibility: 'public', name: 'x' })).rejects.toBeInstanceOf(AlreadyExistsError);
        expect(await storage().assistants.getOwned(bob, 'shared')).toEqual(bobs);
        await storage().assistants.update(alice, 'shared', { visibility: 'private' });
        expect((await storage().assistants.update(bob, 'shared', { visibility: 'public' }))?.visibility).toBe('public');
        expect(await storage().assistants.resolveFor(carol, 'shared')).toMatchObject({ accountId: bob });
      });
    });

    it('answers undefined, false or nothing for an account that does not exist, whatever the number', async () => {
      await create(assistant(alice, 'shared', { visibility: 'public' }));
      for (const nobody of [424242, 2 ** 40, 2 ** 70, 1e300]) {
        expect(await storage().assistants.getOwned(nobody, 'shared')).toBeUndefined();
        expect(await storage().assistants.resolveFor(nobody, 'shared')).toMatchObject({ accountId: alice });
        expect(await storage().assistants.list({ page: 1, perPage: 10, accountId: nobody })).toEqual({ rows: [], total: 0 });
        expect(ids(await storage().assistants.listUsableBy(nobody))).toEqual([`${alice}:shared`]);
        expect(await storage().assistants.update(nobody, 'shared', { name: 'x' })).toBeUndefined();
        expect(await storage().assistants.delete(nobody, 'shared')).toBe(false);
      }
    });

    it("deletes the owner's assistant only", async () => {
      await create(assistant(alice, 'same'));
      await create(assistant(bob, 'same'));
      expect(await storage().assistants.delete(carol, 'same')).toBe(false);
      expect(await storage().assistants.delete(alice, 'same')).toBe(true);
      expect(await storage().assistants.delete(alice, 'same')).toBe(false);
      expect(ids(await storage().assistants.findById('same'))).toEqual([`${bob}:same`]);
    });
  });

  describe('usageSince', () => {
    const opened = storageWithSqlForEachTest(backend);
    const SINCE = '2026-03-01T00:00:00.000Z';
    let rows = 0;

    /** A usage row as the usage log writes it (that store's own suite covers how). */
    const usage = (db: StorageWithSql, row: { accountId: number; assistantId: string; at: string; prompt: number; completion: number }) =>
      db.sql(
        `INSERT INTO usage_log (created_at, request_id, account_id, assistant_id, stream, status, prompt_tokens, completion_tokens,
           cache_read_tokens, cache_write_tokens, usage_estimated, cost, latency_ms, attempts)
         VALUES ($1, $2, $3, $4, $5, 200, $6, $7, $8, $9, $5, 1, 10, 1)`,
        [row.at, `req-${(rows += 1)}`, row.accountId, row.assistantId, false, row.prompt, row.completion, row.prompt * 2, row.prompt * 3],
      );

    async function fixture(storage: Storage) {
      const [alice, bob, carol] = [
        (await storage.accounts.createUser('alice')).id,
        (await storage.accounts.createUser('bob')).id,
        (await storage.accounts.createUser('carol')).id,
      ];
      const carols = await storage.assistants.create(assistant(carol, 'shared'));
      const shared = await storage.assistants.create(assistant(alice, 'shared', { visibility: 'public' }));
      const db = opened();
      await usage(db, { accountId: alice, assistantId: 'shared', at: SINCE, prompt: 1, completion: 10 });
      await usage(db, { accountId: alice, assistantId: 'shared', at: '2026-03-02T00:00:00.000Z', prompt: 2, completion: 20 });
      await usage(db, { accountId: alice, assistantId: 'shared', at: '2026-02-28T23:59:59.999Z', prompt: 1000, completion: 1000 });
      await usage(db, { accountId: alice, assistantId: 'other', at: '2026-03-02T00:00:00.000Z', prompt: 1000, completion: 1000 });
      await usage(db, { accountId: bob, assistantId: 'shared', at: '2026-03-03T00:00:00.000Z', prompt: 4, completion: 40 });
      await usage(db, { accountId: carol, assistantId: 'shared', at: '2026-03-03T00:00:00.000Z', prompt: 8, completion: 80 });
      return { alice, shared, carols };
    }

    it("counts a public assistant's requests: its owner's, and others' who have no own of that id, since the time given", async () => {
      const { storage } = opened();
      const { shared } = await fixture(storage);
      expect(await storage.assistants.usageSince(shared, SINCE)).toEqual({
        requests: 3,
        promptTokens: 7,
        completionTokens: 70,
        cacheReadTokens: 14,
        cacheWriteTokens: 21,
      });
    });

    it("counts a private assistant's own requests only", async () => {
      const { storage } = opened();
      const { alice, carols } = await fixture(storage);
      expect(await storage.assistants.usageSince(carols, SINCE)).toEqual({
        requests: 1,
        promptTokens: 8,
        completionTokens: 80,
        cacheReadTokens: 16,
        cacheWriteTokens: 24,
      });
      const madePrivate = await storage.assistants.update(alice, 'shared', { visibility: 'private' });
      if (!madePrivate) throw new Error('assistant missing');
      expect((await storage.assistants.usageSince(madePrivate, SINCE)).requests).toBe(2);
    });

    it('answers zeros, not nulls, when nothing was used', async () => {
      const { storage } = opened();
      const { shared } = await fixture(storage);
      expect(await storage.assistants.usageSince(shared, '2027-01-01T00:00:00.000Z')).toEqual({
        requests: 0,
        promptTokens: 0,
        completionTokens: 0,
        cacheReadTokens: 0,
        cacheWriteTokens: 0,
      });
    });
  });
}
