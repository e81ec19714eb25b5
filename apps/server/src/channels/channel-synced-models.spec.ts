import type { ChannelRecord } from '../storage/types';
import { LiveChannel } from './channel-registry';

const channel = (overrides: Partial<ChannelRecord>) =>
  new LiveChannel({
    id: 1,
    name: 'c',
    type: 'gemini',
    baseUrl: 'http://127.0.0.1:9/v1beta',
    keys: ['k'],
    keyStates: [],
    endpoints: null,
    syncedModels: null,
    modelsSyncedAt: null,
    models: ['*'],
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

const servedOn = (live: LiveChannel, model: string) => [...live.endpoints].filter((endpoint) => live.servesOn(model, endpoint));

describe('LiveChannel with a synced model list', () => {
  const syncedModels = [
    { id: 'gemini-2.5-flash', endpoints: ['chat' as const, 'completions' as const] },
    { id: 'text-embedding-004', endpoints: ['embeddings' as const] },
    { id: 'gemini-2.5-flash-image', endpoints: ['chat' as const, 'completions' as const, 'images' as const] },
    { id: 'unsaid', endpoints: null },
  ];

  it("serves a model its glob takes only on what the upstream said it serves", () => {
    const live = channel({ syncedModels });
    expect(servedOn(live, 'gemini-2.5-flash')).toEqual(['chat', 'completions']);
    expect(servedOn(live, 'text-embedding-004')).toEqual(['embeddings']);
    expect(servedOn(live, 'gemini-2.5-flash-image')).toEqual(['chat', 'completions', 'images']);
  });

  it('falls back to the name when the upstream said nothing of the model, or did not list it', () => {
    const live = channel({ syncedModels });
    expect(servedOn(live, 'unsaid')).toEqual(['chat', 'completions', 'embeddings', 'images']);
    expect(servedOn(live, 'text-embedding-005')).toEqual(['embeddings']);
    expect(servedOn(live, 'gemini-3-pro')).toEqual(['chat', 'completions', 'embeddings', 'images']);
  });

  it('serves a model the admin named or mapped on every endpoint the admin set for the channel, whatever the upstream said', () => {
    const endpoints: ChannelRecord['endpoints'] = ['chat', 'completions', 'embeddings', 'images'];
    const live = channel({ syncedModels, endpoints, models: ['gemini-2.5-flash', '*'], modelMapping: { 'text-embedding-004': 'text-embedding-004' } });
    expect(servedOn(live, 'gemini-2.5-flash')).toEqual(endpoints);
    expect(servedOn(live, 'text-embedding-004')).toEqual(endpoints);
  });

  it('with the type\'s default endpoints a named model still follows what its upstream said', () => {
    const live = channel({ syncedModels, models: ['text-embedding-004', '*'] });
    expect(servedOn(live, 'text-embedding-004')).toEqual(['embeddings']);
  });

  it('lists the synced names its globs take, once, after the names and mapping keys', () => {
    const live = channel({ syncedModels, models: ['gemini-2.5-flash', 'gemini-*'], modelMapping: { fast: 'gemini-2.5-flash' } });
    expect(live.listableModels()).toEqual(['gemini-2.5-flash', 'fast', 'gemini-2.5-flash-image']);
  });
});
