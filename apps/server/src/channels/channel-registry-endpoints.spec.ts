import { DEFAULT_CHANNEL_ENDPOINTS, ENDPOINTS, type Endpoint } from '@chat-relay/contract';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openSqliteStorage } from '../storage/sqlite/open-sqlite';
import type { NewChannel, Storage } from '../storage/types';
import { ChannelRegistry, channelEndpoints } from './channel-registry';

/** What each channel serves, as routing reads it from the SQLite store (SPEC §7a). */

const newChannel = (overrides: Partial<NewChannel> = {}): NewChannel => ({
  name: 'sim',
  type: 'openai',
  baseUrl: 'http://127.0.0.1:9/v1',
  keys: ['sk-one'],
  models: ['*'],
  modelMapping: {},
  priority: 0,
  weight: 1,
  enabled: true,
  timeouts: { connectMs: 1000, firstByteMs: 1000, idleMs: 1000 },
  ...overrides,
});

describe('channelEndpoints', () => {
  it("is the admin's list when set, else the type's defaults", () => {
    expect(channelEndpoints({ type: 'openai', endpoints: null })).toEqual(DEFAULT_CHANNEL_ENDPOINTS.openai);
    expect(channelEndpoints({ type: 'anthropic', endpoints: null })).toEqual(['chat', 'completions']);
    expect(channelEndpoints({ type: 'gemini', endpoints: null })).toEqual(['chat', 'completions', 'embeddings', 'images']);
    expect(channelEndpoints({ type: 'openai', endpoints: ['rerank'] })).toEqual(['rerank']);
    // An empty list serves nothing: it is not "the defaults".
    expect(channelEndpoints({ type: 'openai', endpoints: [] })).toEqual([]);
  });

  it('no type serves rerank by default (OpenAI has no such route)', () => {
    for (const endpoints of Object.values(DEFAULT_CHANNEL_ENDPOINTS)) expect(endpoints).not.toContain('rerank');
  });
});

describe('ChannelRegistry: channels by endpoint', () => {
  let dataDir: string;
  let storage: Storage;
  let registry: ChannelRegistry;

  beforeEach(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'relay-endpoints-'));
    storage = openSqliteStorage(dataDir);
    registry = new ChannelRegistry(storage.channels);
  });
  afterEach(async () => {
    await storage.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const ids = async (model: string, endpoint?: Endpoint) => (await registry.candidatesFor(model, endpoint)).map((channel) => channel.id);
  const servedOn = async (model: string) => [...(await registry.endpointsServing(model))].sort();

  it('serves what the channel type serves by default, when the channel says nothing', async () => {
    const openai = await storage.channels.create(newChannel({ name: 'openai', type: 'openai', models: ['gpt-4o'] }));
    const anthropic = await storage.channels.create(newChannel({ name: 'claude', type: 'anthropic', models: ['gpt-4o'] }));
    const gemini = await storage.channels.create(newChannel({ name: 'gemini', type: 'gemini', models: ['gpt-4o'] }));
    const [liveOpenai, liveAnthropic, liveGemini] = await registry.all();
    expect([...(liveOpenai?.endpoints ?? [])]).toEqual(DEFAULT_CHANNEL_ENDPOINTS.openai);
    expect([...(liveAnthropic?.endpoints ?? [])]).toEqual(DEFAULT_CHANNEL_ENDPOINTS.anthropic);
    expect([...(liveGemini?.endpoints ?? [])]).toEqual(DEFAULT_CHANNEL_ENDPOINTS.gemini);

    expect(await ids('gpt-4o', 'chat')).toEqual([openai.id, anthropic.id, gemini.id]);
    expect(await ids('gpt-4o', 'completions')).toEqual([openai.id, anthropic.id, gemini.id]);
    expect(await ids('gpt-4o', 'embeddings')).toEqual([openai.id, gemini.id]);
    expect(await ids('gpt-4o', 'images')).toEqual([openai.id, gemini.id]);
    expect(await ids('gpt-4o', 'audio_speech')).toEqual([openai.id]);
    expect(await ids('gpt-4o', 'audio_transcriptions')).toEqual([openai.id]);
    expect(await ids('gpt-4o', 'moderations')).toEqual([openai.id]);
    expect(await ids('gpt-4o', 'rerank')).toEqual([]);
  });

  it('asks for chat when no endpoint is given', async () => {
    const chat = await storage.channels.create(newChannel({ endpoints: ['chat'] }));
    await storage.channels.create(newChannel({ endpoints: ['embeddings'] }));
    expect(await ids('gpt-4o')).toEqual([chat.id]);
  });

  it("serves only the endpoints of an explicit list, whatever the type's defaults", async () => {
    const reranker = await storage.channels.create(newChannel({ name: 'tei', endpoints: ['rerank', 'embeddings'] }));
    expect(await ids('bge-reranker-v2-m3', 'rerank')).toEqual([reranker.id]);
    expect(await ids('gpt-4o', 'chat')).toEqual([]);
    expect(await ids('gpt-4o', 'rerank')).toEqual([reranker.id]);
    expect(await servedOn('gpt-4o')).toEqual(['embeddings', 'rerank']);
    // The list survives a reload from the store.
    registry.invalidate();
    expect([...((await registry.all())[0]?.endpoints ?? [])]).toEqual(['rerank', 'embeddings']);
  });

  it('through a glob, takes a model only for what its name says it is for', async () => {
    const catchAll = await storage.channels.create(newChannel({ models: ['*'] }));
    expect(await ids('text-embedding-3-small', 'chat')).toEqual([]);
    expect(await ids('text-embedding-3-small', 'embeddings')).toEqual([catchAll.id]);
    expect(await servedOn('text-embedding-3-small')).toEqual(['embeddings']);
    expect(await ids('whisper-1', 'audio_transcriptions')).toEqual([catchAll.id]);
    expect(await ids('whisper-1', 'audio_speech')).toEqual([]);
    expect(await servedOn('gemini-2.5-flash-image')).toEqual(['chat', 'images']);
    // A name that says nothing is served on everything the channel serves.
    expect(await servedOn('gpt-4o')).toEqual([...DEFAULT_CHANNEL_ENDPOINTS.openai].sort());
  });

  it('through a narrower glob as well', async () => {
    const textModels = await storage.channels.create(newChannel({ models: ['text-*'] }));
    expect(await ids('text-embedding-3-large', 'chat')).toEqual([]);
    expect(await ids('text-embedding-3-large', 'embeddings')).toEqual([textModels.id]);
    expect(await ids('text-moderation-stable', 'moderations')).toEqual([textModels.id]);
  });

  it('a model whose name asks for endpoints its only channel lacks is served nowhere', async () => {
    await storage.channels.create(newChannel({ type: 'anthropic', models: ['*'] }));
    expect(await servedOn('text-embedding-3-small')).toEqual([]);
    expect(await servedOn('dall-e-3')).toEqual([]);
    expect(await servedOn('claude-sonnet-4-5')).toEqual(['chat', 'completions']);
  });

  it('a model the admin named, or mapped, is served on every endpoint of its channel', async () => {
    const named = await storage.channels.create(newChannel({ name: 'named', models: ['text-embedding-3-small'], endpoints: ['chat', 'embeddings'] }));
    const mapped = await storage.channels.create(
      newChannel({ name: 'mapped', models: [], modelMapping: { 'house-embedder': 'text-embedding-3-large' }, endpoints: ['chat', 'embeddings', 'images'] }),
    );
    expect(await ids('text-embedding-3-small', 'chat')).toEqual([named.id]);
    expect(await ids('text-embedding-3-small', 'embeddings')).toEqual([named.id]);
    expect(await ids('text-embedding-3-small', 'images')).toEqual([]);
    expect(await servedOn('house-embedder')).toEqual(['chat', 'embeddings', 'images']);
    expect(await ids('house-embedder', 'images')).toEqual([mapped.id]);
  });

  it('a mapping whose key says what it is for is still served on every endpoint (the admin chose it)', async () => {
    const mapped = await storage.channels.create(newChannel({ models: [], modelMapping: { 'my-embedding': 'gpt-4o' }, endpoints: ['chat'] }));
    expect(await ids('my-embedding', 'chat')).toEqual([mapped.id]);
  });

  it('a model named on a channel with default endpoints still goes only where its name says (dall-e-3 is no chat model)', async () => {
    const glob = await storage.channels.create(newChannel({ name: 'glob', models: ['*'] }));
    const named = await storage.channels.create(newChannel({ name: 'named', models: ['text-embedding-3-small', 'dall-e-3'] }));
    expect(await ids('text-embedding-3-small', 'chat')).toEqual([]);
    expect(await ids('text-embedding-3-small', 'embeddings')).toEqual([glob.id, named.id]);
    expect(await ids('dall-e-3', 'chat')).toEqual([]);
    expect(await ids('dall-e-3', 'images')).toEqual([glob.id, named.id]);
    expect(await servedOn('dall-e-3')).toEqual(['images']);
  });

  it('leaves disabled channels out of both', async () => {
    const disabled = await storage.channels.create(newChannel({ name: 'off', enabled: false, endpoints: ['rerank'] }));
    const enabled = await storage.channels.create(newChannel({ name: 'on', endpoints: ['embeddings'] }));
    expect(await ids('bge-reranker-base', 'rerank')).toEqual([]);
    expect(await servedOn('bge-reranker-base')).toEqual([]);
    expect(await servedOn('gpt-4o')).toEqual(['embeddings']);
    await storage.channels.update(disabled.id, { enabled: true });
    await storage.channels.update(enabled.id, { enabled: false });
    registry.invalidate();
    expect(await ids('bge-reranker-base', 'rerank')).toEqual([disabled.id]);
    expect(await servedOn('gpt-4o')).toEqual(['rerank']);
  });

  it('serves nothing for a model no channel takes', async () => {
    await storage.channels.create(newChannel({ models: ['gpt-4o'] }));
    for (const endpoint of ENDPOINTS) expect(await ids('gpt-5', endpoint)).toEqual([]);
    expect(await servedOn('gpt-5')).toEqual([]);
  });

  it('a catch-all glob does not take an assistant (gizmo) name on any endpoint', async () => {
    await storage.channels.create(newChannel({ models: ['*'] }));
    expect(await servedOn('gpt-4o-gizmo-g-abc123')).toEqual([]);
    const gizmos = await storage.channels.create(newChannel({ models: ['*-gizmo-*'], endpoints: ['chat'] }));
    registry.invalidate();
    expect(await ids('gpt-4o-gizmo-g-abc123', 'chat')).toEqual([gizmos.id]);
  });

  it('works out the candidates of a model and endpoint once per loaded list: the same frozen answer, new after invalidate()', async () => {
    const chat = await storage.channels.create(newChannel({ models: ['gpt-4o'], endpoints: ['chat'] }));
    const first = await registry.candidatesFor('gpt-4o', 'chat');
    expect(first.map((channel) => channel.id)).toEqual([chat.id]);
    expect(await registry.candidatesFor('gpt-4o', 'chat')).toBe(first);
    expect(Object.isFrozen(first)).toBe(true);
    // Another endpoint, another answer: the memo is keyed by both.
    expect(await ids('gpt-4o', 'embeddings')).toEqual([]);
    const second = await storage.channels.create(newChannel({ name: 'two', models: ['gpt-4o'], endpoints: ['chat'] }));
    registry.invalidate();
    const after = await registry.candidatesFor('gpt-4o', 'chat');
    expect(after).not.toBe(first);
    expect(after.map((channel) => channel.id)).toEqual([chat.id, second.id]);
  });

  it('stays right past the number of models it remembers (callers choose model names)', async () => {
    const channel = await storage.channels.create(newChannel({ models: ['m-*'], endpoints: ['chat'] }));
    for (let index = 0; index < 2500; index += 1) {
      const model = index % 2 === 0 ? `m-${index}` : `x-${index}`;
      expect(await ids(model, 'chat')).toEqual(index % 2 === 0 ? [channel.id] : []);
    }
    expect(await ids('m-0', 'chat')).toEqual([channel.id]);
  });

  describe('two writes within one millisecond', () => {
    // Date frozen (timers left real): every write stamps the same updated_at.
    beforeEach(() => {
      jest.useFakeTimers({
        now: new Date('2026-03-01T00:00:00.000Z'),
        doNotFake: ['hrtime', 'nextTick', 'performance', 'queueMicrotask', 'setImmediate', 'clearImmediate', 'setInterval', 'clearInterval', 'setTimeout', 'clearTimeout'],
      });
    });
    afterEach(() => jest.useRealTimers());

    it("routing sees an admin's change of endpoints or of enabled after invalidate(), even with the same updated_at", async () => {
      const channel = await storage.channels.create(newChannel({ endpoints: ['chat'] }));
      expect(await ids('gpt-4o', 'chat')).toEqual([channel.id]);
      const updated = await storage.channels.update(channel.id, { endpoints: ['embeddings'] });
      expect(updated?.updatedAt).toBe(channel.updatedAt);
      registry.invalidate();
      expect(await ids('gpt-4o', 'chat')).toEqual([]);
      expect(await ids('gpt-4o', 'embeddings')).toEqual([channel.id]);

      await storage.channels.update(channel.id, { enabled: false });
      registry.invalidate();
      expect(await servedOn('gpt-4o')).toEqual([]);
    });
  });
});
