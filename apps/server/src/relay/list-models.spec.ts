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
