import type { StoreBackend } from '../testing/store-backends';
import { NOTHING_PASSES, type ChannelRecord, type NewChannel } from '../../../src/storage/types';
import { storageForEachTest, storageWithSqlForEachTest } from './open-with-sql';

const channel = (overrides: Partial<NewChannel> = {}): NewChannel => ({
  name: 'main',
  type: 'openai',
  baseUrl: 'http://127.0.0.1:9/v1',
  keys: ['sk-first-0001', 'sk-second-0002'],
  models: ['gpt-4o', 'gpt-4o-mini*'],
  // Not in any sorted order: the order is the admin's, and the model list follows it.
  modelMapping: { 'zeta-model': 'gpt-4o', alpha: 'gpt-4o-mini', 'mid-name': 'gpt-4o' },
  priority: -3,
  weight: 7,
  enabled: false,
  timeouts: { connectMs: 1500, firstByteMs: 30_000, idleMs: 45_000 },
  ...overrides,
});

const ACTIVE = { status: 'active', reason: null, changedAt: null } as const;

/** Everything but the times a write moves. */
const withoutTimes = ({ updatedAt: _u, ...rest }: ChannelRecord) => rest;

/** The behaviour every ChannelStore shows, on each backend (describeEachBackend). */
export function describeChannelStore(backend: StoreBackend): void {
  describe('rows', () => {
    const storage = storageForEachTest(backend);

    it('gives back every field as created, with the defaults of what was left out', async () => {
      const started = Date.now();
      const created = await storage().channels.create(channel());
      expect(created).toEqual({
        ...channel(),
        id: expect.any(Number),
        keyStates: [ACTIVE, ACTIVE],
        responsesApi: 'auto',
        endpoints: null,
        syncedModels: null,
        modelsSyncedAt: null,
        passthrough: NOTHING_PASSES,
        createdAt: expect.any(String),
        updatedAt: created.createdAt,
      });
      expect(Date.parse(created.createdAt)).toBeGreaterThanOrEqual(started);
      expect(Object.keys(created.modelMapping)).toEqual(['zeta-model', 'alpha', 'mid-name']);
      const read = await storage().channels.get(created.id);
      expect(read).toEqual(created);
      expect(Object.keys(read?.modelMapping ?? {})).toEqual(['zeta-model', 'alpha', 'mid-name']);
      expect(await storage().channels.listAll()).toEqual([created]);
    });

    it('keeps key states, endpoints and the Responses API choice as given; an empty endpoint list stays a list', async () => {
      const keyStates = [ACTIVE, { status: 'disabled' as const, reason: '401: "bad key" ü', changedAt: '2026-03-01T10:00:00.000Z' }];
      const created = await storage().channels.create(
        channel({ type: 'gemini', keyStates, endpoints: ['embeddings', 'chat'], responsesApi: 'bridged', enabled: true }),
      );
      expect(created).toMatchObject({ type: 'gemini', keyStates, endpoints: ['embeddings', 'chat'], responsesApi: 'bridged', enabled: true });
      expect(await storage().channels.get(created.id)).toEqual(created);
      const none = await storage().channels.create(channel({ endpoints: [], modelMapping: {} }));
      expect(await storage().channels.get(none.id)).toMatchObject({ endpoints: [], modelMapping: {} });
    });

    it("keeps a cloud channel's region and API version; none is absent, and an update may clear them", async () => {
      const created = await storage().channels.create(channel({ type: 'bedrock', cloud: { region: 'eu-west-3' } }));
      expect(created.cloud).toEqual({ region: 'eu-west-3' });
      expect(await storage().channels.get(created.id)).toEqual(created);
      const azure = await storage().channels.update(created.id, { type: 'azure', cloud: { apiVersion: '2024-10-21' } });
      expect(azure?.cloud).toEqual({ apiVersion: '2024-10-21' });
      const cleared = await storage().channels.update(created.id, { cloud: undefined });
      expect(cleared && 'cloud' in cleared).toBe(false);
      const plain = await storage().channels.create(channel({}));
      expect(plain && 'cloud' in plain).toBe(false);
    });

    it('keeps what passes through as given, and an update of it changes nothing else', async () => {
      const passthrough = { hostedTools: ['web_search' as const, 'code_execution' as const], serviceTiers: ['priority'], audioOutput: true, upstreamObjects: false };
      const created = await storage().channels.create(channel({ passthrough }));
      expect(created.passthrough).toEqual(passthrough);
      expect(await storage().channels.get(created.id)).toEqual(created);
      const opened = await storage().channels.update(created.id, { passthrough: { ...passthrough, upstreamObjects: true, hostedTools: [] } });
      expect(opened).toEqual({ ...created, passthrough: { ...passthrough, upstreamObjects: true, hostedTools: [] }, updatedAt: opened?.updatedAt });
      // Other writes keep it.
      expect((await storage().channels.update(created.id, { name: 'renamed' }))?.passthrough).toEqual(opened?.passthrough);
      expect((await storage().channels.setResponsesApi(created.id, 'bridged'))?.passthrough).toEqual(opened?.passthrough);
    });

    it.each([424242, 2 ** 40, 2 ** 70, 1e300])('answers undefined or false for a channel that does not exist (%d)', async (id) => {
      expect(await storage().channels.get(id)).toBeUndefined();
      expect(await storage().channels.update(id, { name: 'x' })).toBeUndefined();
      expect(await storage().channels.delete(id)).toBe(false);
      expect(await storage().channels.disableKey(id, 'sk-first-0001', 'gone')).toBeUndefined();
      expect(await storage().channels.setResponsesApi(id, 'native')).toBeUndefined();
      expect(await storage().channels.setSyncedModels(id, [], '2026-03-01T10:00:00.000Z')).toBeUndefined();
    });

    it('pages and counts in id order, and deletes once', async () => {
      const made: ChannelRecord[] = [];
      for (const name of ['a', 'b', 'c']) made.push(await storage().channels.create(channel({ name })));
      expect(await storage().channels.count()).toBe(3);
      expect(await storage().channels.list({ page: 1, perPage: 2 })).toEqual({ rows: made.slice(0, 2), total: 3 });
      expect(await storage().channels.list({ page: 2, perPage: 2 })).toEqual({ rows: made.slice(2), total: 3 });
      expect(await storage().channels.list({ page: 3, perPage: 2 })).toEqual({ rows: [], total: 3 });
      expect(await storage().channels.delete(made[1]?.id ?? 0)).toBe(true);
      expect(await storage().channels.delete(made[1]?.id ?? 0)).toBe(false);
      expect(await storage().channels.count()).toBe(2);
      expect((await storage().channels.listAll()).map((row) => row.name)).toEqual(['a', 'c']);
    });

    describe('update', () => {
      it('changes only what the patch names, keeps the key states, and moves updatedAt', async () => {
        const created = await storage().channels.create(channel());
        const disabled = await storage().channels.disableKey(created.id, 'sk-second-0002', 'revoked');
        const patched = await storage().channels.update(created.id, {
          name: 'renamed',
          enabled: true,
          modelMapping: { b: 'x', a: 'y' },
          timeouts: { connectMs: 1, firstByteMs: 2, idleMs: 3 },
          endpoints: ['images'],
          responsesApi: 'native',
        });
        if (!patched || !disabled) throw new Error('channel missing');
        expect(patched).toEqual({
          ...disabled,
          name: 'renamed',
          enabled: true,
          modelMapping: { b: 'x', a: 'y' },
          timeouts: { connectMs: 1, firstByteMs: 2, idleMs: 3 },
          endpoints: ['images'],
          responsesApi: 'native',
          updatedAt: patched.updatedAt,
        });
        expect(Object.keys(patched.modelMapping)).toEqual(['b', 'a']);
        expect(Date.parse(patched.updatedAt)).toBeGreaterThanOrEqual(Date.parse(disabled.updatedAt));
        expect(await storage().channels.get(created.id)).toEqual(patched);
        // Back to the type's defaults.
        expect((await storage().channels.update(created.id, { endpoints: null }))?.endpoints).toBeNull();
      });

      it('starts new keys active unless the patch gives their states', async () => {
        const created = await storage().channels.create(channel());
        await storage().channels.disableKey(created.id, 'sk-first-0001', 'revoked');
        const rekeyed = await storage().channels.update(created.id, { keys: ['sk-new-1', 'sk-new-2', 'sk-new-3'] });
        expect(rekeyed?.keyStates).toEqual([ACTIVE, ACTIVE, ACTIVE]);
        const given = [ACTIVE, { status: 'disabled' as const, reason: 'by hand', changedAt: '2026-03-01T00:00:00.000Z' }];
        const withStates = await storage().channels.update(created.id, { keys: ['k1', 'k2'], keyStates: given });
        expect(withStates?.keyStates).toEqual(given);
      });
    });

    describe('disableKey', () => {
      it('takes the key out by value, with the reason and when, leaving the others as they were', async () => {
        const created = await storage().channels.create(channel({ keys: ['k1', 'k2', 'k3'] }));
        const started = Date.now();
        const after = await storage().channels.disableKey(created.id, 'k2', '403: forbidden');
        if (!after) throw new Error('channel missing');
        expect(after.keyStates).toEqual([ACTIVE, { status: 'disabled', reason: '403: forbidden', changedAt: expect.any(String) }, ACTIVE]);
        expect(Date.parse(after.keyStates[1]?.changedAt ?? '')).toBeGreaterThanOrEqual(started);
        expect(after.updatedAt).toBe(after.keyStates[1]?.changedAt);
        expect(withoutTimes({ ...after, keyStates: created.keyStates })).toEqual(withoutTimes(created));
        expect(await storage().channels.get(created.id)).toEqual(after);
        expect(await storage().channels.disableKey(created.id, 'not-a-key-of-it', 'x')).toBeUndefined();
        expect((await storage().channels.get(created.id))?.keyStates).toEqual(after.keyStates);
      });

      it('loses none of four keys disabled at the same time', async () => {
        const created = await storage().channels.create(channel({ keys: ['k1', 'k2', 'k3', 'k4'] }));
        await Promise.all(['k1', 'k2', 'k3', 'k4'].map((key) => storage().channels.disableKey(created.id, key, `bad ${key}`)));
        const states = (await storage().channels.get(created.id))?.keyStates;
        expect(states?.map((state) => [state.status, state.reason])).toEqual([
          ['disabled', 'bad k1'],
          ['disabled', 'bad k2'],
          ['disabled', 'bad k3'],
          ['disabled', 'bad k4'],
        ]);
      });
    });

    it('setResponsesApi changes that alone, and updatedAt', async () => {
      const created = await storage().channels.create(channel());
      const set = await storage().channels.setResponsesApi(created.id, 'bridged');
      if (!set) throw new Error('channel missing');
      expect(set.responsesApi).toBe('bridged');
      expect(Date.parse(set.updatedAt)).toBeGreaterThanOrEqual(Date.parse(created.updatedAt));
      expect(withoutTimes({ ...set, responsesApi: 'auto' })).toEqual(withoutTimes(created));
      expect(await storage().channels.get(created.id)).toEqual(set);
    });

    describe('setSyncedModels', () => {
      it('keeps the list and its time', async () => {
        const created = await storage().channels.create(channel({ type: 'gemini' }));
        const models = [
          { id: 'gemini-2.5-flash', endpoints: ['chat' as const, 'completions' as const] },
          { id: 'text-embedding-004', endpoints: ['embeddings' as const] },
          { id: 'says-nothing', endpoints: null },
        ];
        const synced = await storage().channels.setSyncedModels(created.id, models, '2026-03-01T10:00:00.000Z');
        expect(synced).toMatchObject({ syncedModels: models, modelsSyncedAt: '2026-03-01T10:00:00.000Z' });
        expect(await storage().channels.get(created.id)).toEqual(synced);
      });

      it('changes nothing else, and moves updatedAt strictly forward so routing rebuilds the channel', async () => {
        const created = await storage().channels.create(channel());
        const first = await storage().channels.setSyncedModels(created.id, [{ id: 'a', endpoints: null }], '2026-03-01T10:00:00.000Z');
        const second = await storage().channels.setSyncedModels(created.id, [], '2026-03-01T10:00:01.000Z');
        if (!first || !second) throw new Error('channel missing');
        expect(Date.parse(first.updatedAt)).toBeGreaterThan(Date.parse(created.updatedAt));
        expect(Date.parse(second.updatedAt)).toBeGreaterThan(Date.parse(first.updatedAt));
        expect(withoutTimes({ ...second, syncedModels: null, modelsSyncedAt: null })).toEqual(withoutTimes(created));
        expect(second.syncedModels).toEqual([]);
      });

      it('keeps the synced list when the admin patches the channel', async () => {
        const created = await storage().channels.create(channel());
        await storage().channels.setSyncedModels(created.id, [{ id: 'gemini-x', endpoints: ['chat'] }], '2026-03-01T10:00:00.000Z');
        const patched = await storage().channels.update(created.id, { name: 'renamed', models: ['*'] });
        expect(patched).toMatchObject({ name: 'renamed', syncedModels: [{ id: 'gemini-x', endpoints: ['chat'] }], modelsSyncedAt: '2026-03-01T10:00:00.000Z' });
      });
    });
  });

  describe('rows written before', () => {
    const opened = storageWithSqlForEachTest(backend);

    it("moves updatedAt past one ahead of the clock (another instance's clock), by a millisecond", async () => {
      const { storage } = opened();
      const { id } = await storage.channels.create(channel());
      const ahead = new Date(Date.now() + 60_000).toISOString();
      await opened().sql('UPDATE channels SET updated_at = $1 WHERE id = $2', [ahead, id]);
      const synced = await storage.channels.setSyncedModels(id, [], '2026-03-01T10:00:00.000Z');
      expect(synced?.updatedAt).toBe(new Date(Date.parse(ahead) + 1).toISOString());
    });

    it('reads keys without a state (a channel from before key states) as active, and drops states without a key', async () => {
      const { storage } = opened();
      const created = await storage.channels.create(channel({ keys: ['k1', 'k2', 'k3'] }));
      await opened().sql('UPDATE channels SET key_states = $1 WHERE id = $2', ['[]', created.id]);
      expect((await storage.channels.get(created.id))?.keyStates).toEqual([ACTIVE, ACTIVE, ACTIVE]);
      const three = JSON.stringify([ACTIVE, ACTIVE, { status: 'disabled', reason: 'r', changedAt: '2026-03-01T00:00:00.000Z' }, ACTIVE]);
      await opened().sql('UPDATE channels SET key_states = $1 WHERE id = $2', [three, created.id]);
      expect((await storage.channels.get(created.id))?.keyStates).toEqual([
        ACTIVE,
        ACTIVE,
        { status: 'disabled', reason: 'r', changedAt: '2026-03-01T00:00:00.000Z' },
      ]);
    });
  });
}
