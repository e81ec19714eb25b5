import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { NewChannel, Storage } from '../types';
import { openSqliteStorage } from './open-sqlite';

const channelInput: NewChannel = {
  name: 'glob',
  type: 'gemini',
  baseUrl: 'http://127.0.0.1:9/v1beta',
  keys: ['AIza-secret-0001'],
  models: ['gemini-*'],
  modelMapping: {},
  priority: 0,
  weight: 1,
  enabled: true,
  timeouts: { connectMs: 1000, firstByteMs: 1000, idleMs: 1000 },
};

describe('SqliteChannelStore.setSyncedModels', () => {
  let dataDir: string;
  let storage: Storage;

  beforeEach(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'relay-channels-'));
    storage = openSqliteStorage(dataDir);
  });
  afterEach(async () => {
    await storage.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('starts never synced, then keeps the list and its time across a reopen', async () => {
    const created = await storage.channels.create(channelInput);
    expect(created).toMatchObject({ syncedModels: null, modelsSyncedAt: null });

    const models = [
      { id: 'gemini-2.5-flash', endpoints: ['chat' as const, 'completions' as const] },
      { id: 'text-embedding-004', endpoints: ['embeddings' as const] },
    ];
    const synced = await storage.channels.setSyncedModels(created.id, models, '2026-03-01T10:00:00.000Z');
    expect(synced).toMatchObject({ syncedModels: models, modelsSyncedAt: '2026-03-01T10:00:00.000Z' });

    await storage.close();
    storage = openSqliteStorage(dataDir);
    expect(await storage.channels.get(created.id)).toMatchObject({ syncedModels: models, modelsSyncedAt: '2026-03-01T10:00:00.000Z' });
  });

  it('changes nothing else, and moves updatedAt strictly forward so routing rebuilds the channel', async () => {
    const created = await storage.channels.create(channelInput);
    const first = await storage.channels.setSyncedModels(created.id, [{ id: 'a', endpoints: null }], '2026-03-01T10:00:00.000Z');
    const second = await storage.channels.setSyncedModels(created.id, [], '2026-03-01T10:00:01.000Z');
    if (!first || !second) throw new Error('channel missing');
    expect(Date.parse(first.updatedAt)).toBeGreaterThan(Date.parse(created.updatedAt));
    expect(Date.parse(second.updatedAt)).toBeGreaterThan(Date.parse(first.updatedAt));
    const { updatedAt: _a, syncedModels: _b, modelsSyncedAt: _c, ...rest } = second;
    const { updatedAt: _d, syncedModels: _e, modelsSyncedAt: _f, ...before } = created;
    expect(rest).toEqual(before);
    expect(second.syncedModels).toEqual([]);
  });

  it('keeps the synced list when the admin patches the channel', async () => {
    const created = await storage.channels.create(channelInput);
    await storage.channels.setSyncedModels(created.id, [{ id: 'gemini-x', endpoints: ['chat'] }], '2026-03-01T10:00:00.000Z');
    const patched = await storage.channels.update(created.id, { name: 'renamed', models: ['*'] });
    expect(patched).toMatchObject({ name: 'renamed', syncedModels: [{ id: 'gemini-x', endpoints: ['chat'] }] });
  });

  it('answers undefined for a channel that does not exist', async () => {
    expect(await storage.channels.setSyncedModels(999, [], '2026-03-01T10:00:00.000Z')).toBeUndefined();
  });
});
