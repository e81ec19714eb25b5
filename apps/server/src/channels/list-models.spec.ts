import type { ChannelRecord } from '../storage/types';
import type { AssistantRecord } from '../storage/types';
import { LiveChannel } from './channel-registry';
import { listModels, MODEL_LIST_EXPANSION_LIMIT } from './list-models';

let nextId = 1;
const channel = (models: string[], overrides: Partial<ChannelRecord> = {}) =>
  new LiveChannel({
    id: nextId++,
    name: 'c',
    type: 'openai',
    baseUrl: 'http://127.0.0.1:9/v1',
    keys: ['k'],
    keyStates: [],
    endpoints: null,
    syncedModels: null,
    modelsSyncedAt: null,
    models,
    modelMapping: {},
    priority: 0,
    weight: 1,
    enabled: true,
    responsesApi: 'auto',
    timeouts: { connectMs: 1, firstByteMs: 1, idleMs: 1 },
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    ...overrides,
  });

const assistant = (id: string, models: string[] | null): AssistantRecord => ({
  id,
  accountId: 1,
  name: id,
  description: '',
  instructions: '',
  tools: [],
  temperature: null,
  topP: null,
  maxTokens: null,
  responseFormat: null,
  models,
  visibility: 'private',
  createdAt: '2026-01-02T00:00:00.000Z',
  updatedAt: '2026-01-02T00:00:00.000Z',
});

const ids = (channels: LiveChannel[], assistants: AssistantRecord[]) => listModels(channels, assistants).map((model) => model.id);

describe('listModels', () => {
  it('lists plain names and mapping keys once, not globs, not disabled channels', () => {
    const channels = [
      channel(['gpt-4o', 'gpt-4o-mini*'], { modelMapping: { alias: 'gpt-4o' } }),
      channel(['gpt-4o', 'o3']),
      channel(['hidden'], { enabled: false }),
    ];
    expect(ids(channels, [])).toEqual(['alias', 'gpt-4o', 'o3']);
  });

  it('lists an open assistant under every served family', () => {
    expect(ids([channel(['gpt-4o', 'o3'])], [assistant('g-a', null)])).toEqual([
      'gpt-4o',
      'o3',
      'gpt-4o-gizmo-g-a',
      'o3-gizmo-g-a',
    ]);
  });

  it('lists a restricted assistant only under allowed families some channel serves, globs included', () => {
    const channels = [channel(['gpt-4o', 'gpt-4o-mini', 'o3'])];
    expect(ids(channels, [assistant('g-r', ['gpt-4o*', 'not-served'])]).filter((id) => id.includes('gizmo'))).toEqual([
      'gpt-4o-gizmo-g-r',
      'gpt-4o-mini-gizmo-g-r',
    ]);
  });

  it('lists an allowed family served only by a glob channel', () => {
    expect(ids([channel(['*'])], [assistant('g-g', ['gpt-4o'])])).toEqual(['gpt-4o-gizmo-g-g']);
  });

  it('lists open assistants under their first family only when expanding would pass the limit', () => {
    const families = Array.from({ length: 30 }, (_, i) => `model-${String(i).padStart(2, '0')}`);
    const open = [assistant('g-1', null), assistant('g-2', null), assistant('g-3', null)];
    const listed = ids([channel(families)], open);
    expect(30 + 3 * 30).toBeGreaterThanOrEqual(MODEL_LIST_EXPANSION_LIMIT);
    expect(listed.filter((id) => id.includes('-gizmo-'))).toEqual([
      'model-00-gizmo-g-1',
      'model-00-gizmo-g-2',
      'model-00-gizmo-g-3',
    ]);
    const small = ids([channel(families.slice(0, 10))], open);
    expect(small.filter((id) => id.includes('-gizmo-'))).toHaveLength(30);
  });

  it('never uses a gizmo name a channel lists as a family', () => {
    expect(ids([channel(['gpt-4o', 'x-gizmo-g-remote'])], [assistant('g-a', null)])).toEqual([
      'gpt-4o',
      'x-gizmo-g-remote',
      'gpt-4o-gizmo-g-a',
    ]);
  });
});

describe('listModels with synced upstream lists', () => {
  const synced = (...names: string[]) => names.map((id) => ({ id, endpoints: null }));
  const byId = (channels: LiveChannel[]) => new Map(listModels(channels, []).map((model) => [model.id, model]));

  it('a `*` channel lists the names its upstream listed, and nothing before a sync', () => {
    expect(ids([channel(['*'])], [])).toEqual([]);
    expect(ids([channel(['*'], { syncedModels: synced('o3', 'gpt-4o') })], [])).toEqual(['gpt-4o', 'o3']);
  });

  it('globs filter the synced names; plain names and mapping keys are listed as before, once', () => {
    const channels = [
      channel(['gpt-4o*', 'o3', '*-gizmo-*'], {
        modelMapping: { house: 'gpt-4o' },
        syncedModels: synced('gpt-4o', 'gpt-4o-mini', 'claude-opus-4', 'o3', 'x-gizmo-g-upstream'),
      }),
    ];
    expect(ids(channels, [])).toEqual(['gpt-4o', 'gpt-4o-mini', 'house', 'o3']);
  });

  it("lists no synced name of a disabled channel, nor one the channel serves on none of its endpoints", () => {
    const channels = [
      channel(['*'], { enabled: false, syncedModels: synced('hidden') }),
      channel(['*'], { endpoints: ['chat'], syncedModels: synced('gpt-4o', 'text-embedding-3-small', 'dall-e-3') }),
    ];
    expect(ids(channels, [])).toEqual(['gpt-4o']);
  });

  it('says what each model is served for: the union over channels, narrowed by the name or the upstream', () => {
    const models = byId([
      channel(['gpt-*', 'text-embedding-*'], { endpoints: ['chat', 'embeddings'], syncedModels: synced('gpt-4o', 'text-embedding-3-small') }),
      channel(['gpt-4o'], { endpoints: ['images', 'chat'] }),
      channel(['gemini-*'], {
        type: 'gemini',
        endpoints: ['chat', 'embeddings'],
        syncedModels: [
          { id: 'gemini-2.5-flash', endpoints: ['chat', 'completions'] },
          { id: 'gemini-embedding-001', endpoints: ['embeddings'] },
        ],
      }),
    ]);
    expect(models.get('gpt-4o')?.endpoints).toEqual(['chat', 'embeddings', 'images']);
    expect(models.get('text-embedding-3-small')?.endpoints).toEqual(['embeddings']);
    // Not served for embeddings: its upstream says generateContent only.
    expect(models.get('gemini-2.5-flash')?.endpoints).toEqual(['chat']);
    expect(models.get('gemini-embedding-001')?.endpoints).toEqual(['embeddings']);
  });

  it('lists assistants under chat families only, with chat as their endpoint', () => {
    const listed = listModels([channel(['*'], { syncedModels: synced('gpt-4o', 'text-embedding-3-small') })], [assistant('g-a', null)]);
    expect(listed.filter((model) => model.id.includes('-gizmo-'))).toEqual([
      { id: 'gpt-4o-gizmo-g-a', object: 'model', created: expect.any(Number), owned_by: 'chat-relay', endpoints: ['chat'] },
    ]);
  });
});
