import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openSqliteStorage } from '../storage/sqlite/open-sqlite';
import type { ChannelRecord, NewChannel, Storage } from '../storage/types';
import { ChannelRegistry, channelKeyDigest, LiveChannel } from './channel-registry';

const newChannel = (overrides: Partial<NewChannel> = {}): NewChannel => ({
  name: 'sim',
  type: 'openai',
  baseUrl: 'http://127.0.0.1:9/v1',
  keys: ['sk-one', 'sk-two', 'sk-three'],
  models: ['gpt-4.1'],
  modelMapping: {},
  priority: 0,
  weight: 1,
  enabled: true,
  timeouts: { connectMs: 1000, firstByteMs: 1000, idleMs: 1000 },
  ...overrides,
});

const liveChannel = (keys: string[], disabled: number[] = []): LiveChannel => {
  const record: ChannelRecord = {
    ...newChannel({ keys }),
    id: 1,
    keyStates: keys.map((_, index) =>
      disabled.includes(index) ? { status: 'disabled', reason: 'upstream 401', changedAt: '2026-01-01T00:00:00.000Z' } : { status: 'active', reason: null, changedAt: null },
    ),
    responsesApi: 'auto',
    endpoints: null,
    syncedModels: null,
    modelsSyncedAt: null,
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
  };
  return new LiveChannel(record);
};

describe('channelKeyDigest', () => {
  it('is the sha256 of the key in lower-case hex, never the key itself', () => {
    expect(channelKeyDigest('sk-one')).toBe(createHash('sha256').update('sk-one').digest('hex'));
    expect(channelKeyDigest('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(channelKeyDigest('sk-one')).toMatch(/^[0-9a-f]{64}$/);
    expect(channelKeyDigest('sk-one')).not.toContain('sk-one');
    expect(channelKeyDigest('sk-one')).not.toBe(channelKeyDigest('sk-two'));
  });
});

describe('LiveChannel.keyWithDigest', () => {
  it('finds the key whose digest is given, whatever the rotation', () => {
    const channel = liveChannel(['sk-one', 'sk-two', 'sk-three']);
    channel.nextKey();
    expect(channel.keyWithDigest(channelKeyDigest('sk-three'))).toBe('sk-three');
    expect(channel.keyWithDigest(channelKeyDigest('sk-one'))).toBe('sk-one');
    expect(channel.nextKey()).toBe('sk-two');
  });

  it('finds no key for an unknown digest, nor the key itself given as a digest', () => {
    const channel = liveChannel(['sk-one']);
    expect(channel.keyWithDigest(channelKeyDigest('sk-other'))).toBeUndefined();
    expect(channel.keyWithDigest('sk-one')).toBeUndefined();
    expect(channel.keyWithDigest('')).toBeUndefined();
  });

  it('finds no key disabled in the store or dropped since', () => {
    const channel = liveChannel(['sk-one', 'sk-two'], [0]);
    expect(channel.keyWithDigest(channelKeyDigest('sk-one'))).toBeUndefined();
    expect(channel.keyWithDigest(channelKeyDigest('sk-two'))).toBe('sk-two');
    channel.dropKey('sk-two');
    expect(channel.keyWithDigest(channelKeyDigest('sk-two'))).toBeUndefined();
  });
});

describe('ChannelRegistry.setResponsesApi over the SQLite store', () => {
  let dataDir: string;
  let storage: Storage;
  let registry: ChannelRegistry;

  beforeEach(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'relay-registry-'));
    storage = openSqliteStorage(dataDir);
    registry = new ChannelRegistry(storage.channels);
  });

  afterEach(async () => {
    await storage.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const liveOf = async (id: number): Promise<LiveChannel> => {
    const live = (await registry.all()).find((channel) => channel.id === id);
    if (!live) throw new Error(`channel ${id} not loaded`);
    return live;
  };

  it('switches a channel on auto to bridged, in the store and in what routing reads next', async () => {
    const created = await storage.channels.create(newChannel());
    expect(created.responsesApi).toBe('auto');
    const live = await liveOf(created.id);

    await registry.setResponsesApi(live, 'bridged');
    expect((await storage.channels.get(created.id))?.responsesApi).toBe('bridged');
    const reloaded = await liveOf(created.id);
    expect(reloaded).not.toBe(live);
    expect(reloaded.record.responsesApi).toBe('bridged');
  });

  it.each(['native', 'bridged'] as const)("leaves a channel an admin set to %s as it is, and routing's copy too", async (explicit) => {
    const created = await storage.channels.create(newChannel({ responsesApi: explicit }));
    const live = await liveOf(created.id);
    await registry.setResponsesApi(live, explicit === 'native' ? 'bridged' : 'native');
    expect(await storage.channels.get(created.id)).toEqual(created);
    expect(await liveOf(created.id)).toBe(live);
  });

  it("reads the store, not routing's copy: an admin's choice made since the channel was loaded stands", async () => {
    const created = await storage.channels.create(newChannel());
    const live = await liveOf(created.id);
    expect(live.record.responsesApi).toBe('auto');
    // Another process (or a write this registry was not told of) set it explicitly.
    await storage.channels.update(created.id, { responsesApi: 'native' });

    await registry.setResponsesApi(live, 'bridged');
    expect((await storage.channels.get(created.id))?.responsesApi).toBe('native');
  });

  it('does nothing for a channel deleted since it was loaded', async () => {
    const created = await storage.channels.create(newChannel());
    const live = await liveOf(created.id);
    await storage.channels.delete(created.id);
    await expect(registry.setResponsesApi(live, 'bridged')).resolves.toBeUndefined();
    expect(await storage.channels.get(created.id)).toBeUndefined();
  });

  it("changes nothing else of the channel, and leaves the other channels' rotation as it was", async () => {
    const switched = await storage.channels.create(newChannel({ name: 'switched' }));
    const other = await storage.channels.create(newChannel({ name: 'other' }));
    const otherLive = await liveOf(other.id);
    expect(otherLive.nextKey()).toBe('sk-one');

    await registry.setResponsesApi(await liveOf(switched.id), 'bridged');
    const stored = await storage.channels.get(switched.id);
    expect({ ...stored, responsesApi: 'auto', updatedAt: switched.updatedAt }).toEqual(switched);
    const otherAfter = await liveOf(other.id);
    expect(otherAfter).toBe(otherLive);
    expect(otherAfter.nextKey()).toBe('sk-two');
  });
});
