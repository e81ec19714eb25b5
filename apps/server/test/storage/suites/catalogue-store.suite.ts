import type { CatalogueModel } from '@chat-relay/contract';
import type { StoreBackend } from '../testing/store-backends';
import type { CatalogueDatasetRecord } from '../../../src/storage/types';
import { storageForEachTest } from './open-with-sql';

const SONNET: CatalogueModel = {
  id: 'claude-sonnet-4-5',
  provider: 'anthropic',
  family: 'anthropic',
  context_window: 200_000,
  max_output_tokens: 64_000,
  reasoning: true,
  reasoning_options: [{ type: 'budget_tokens', min: 1024 }],
  params: { temperature_with_top_p: false, top_k: true },
  modalities: { input: ['text', 'image'], output: ['text'] },
  cost: { input: 3, output: 15, cache_read: 0.3, cache_write: 3.75 },
};

const DATASET: CatalogueDatasetRecord = {
  models: [SONNET, { id: 'gpt-4o', family: 'openai', max_output_tokens: 16_384, cost: { input: 2.5, output: 10 } }],
  origin: 'https://models.dev/api.json',
  refreshedAt: '2026-11-29T07:00:00.000Z',
  skipped: 3,
};

/** The behaviour every CatalogueStore shows, on each backend (describeEachBackend). */
export function describeCatalogueStore(backend: StoreBackend): void {
  const storage = storageForEachTest(backend);

  it('starts with no dataset (the seed) and no overrides', async () => {
    expect(await storage().catalogue.dataset()).toBeNull();
    expect(await storage().catalogue.datasetInfo()).toBeNull();
    expect(await storage().catalogue.overrides()).toEqual([]);
    expect(await storage().catalogue.clearDataset()).toBe(false);
  });

  it('keeps a refreshed dataset whole, replaces it, and goes back to the seed', async () => {
    await storage().catalogue.replaceDataset(DATASET);
    expect(await storage().catalogue.dataset()).toStrictEqual(DATASET);
    expect(await storage().catalogue.datasetInfo()).toStrictEqual({
      origin: 'https://models.dev/api.json',
      refreshedAt: '2026-11-29T07:00:00.000Z',
      skipped: 3,
      modelCount: 2,
    });
    const next: CatalogueDatasetRecord = { models: [SONNET], origin: 'upload', refreshedAt: '2026-11-29T08:00:00.000Z', skipped: 0 };
    await storage().catalogue.replaceDataset(next);
    expect(await storage().catalogue.dataset()).toStrictEqual(next);
    expect(await storage().catalogue.clearDataset()).toBe(true);
    expect(await storage().catalogue.dataset()).toBeNull();
  });

  it('writes, replaces and deletes overrides by id, keeping the order they were first written', async () => {
    const store = storage().catalogue;
    expect(await store.putOverride({ id: 'claude-*', max_output_tokens: 1000 }, '2026-11-29T07:00:00.000Z')).toBe('created');
    expect(await store.putOverride({ id: 'gpt-4o', context_window: 1 }, '2026-11-29T07:00:01.000Z')).toBe('created');
    expect(await store.putOverride(SONNET, '2026-11-29T07:00:02.000Z')).toBe('created');
    expect(await store.putOverride({ id: 'claude-*', max_output_tokens: 2000, params: { top_k: false } }, '2026-11-29T07:00:03.000Z')).toBe('replaced');
    expect(await store.overrides()).toStrictEqual([
      { id: 'claude-*', max_output_tokens: 2000, params: { top_k: false } },
      { id: 'gpt-4o', context_window: 1 },
      SONNET,
    ]);
    expect(await store.deleteOverride('gpt-4o')).toBe(true);
    expect(await store.deleteOverride('gpt-4o')).toBe(false);
    // Ids are exact: another case is another override.
    expect(await store.deleteOverride('CLAUDE-*')).toBe(false);
    expect((await store.overrides()).map((model) => model.id)).toEqual(['claude-*', 'claude-sonnet-4-5']);
  });

  it('answers concurrent writes of one id with one override', async () => {
    const store = storage().catalogue;
    const outcomes = await Promise.all([1, 2, 3, 4].map((n) => store.putOverride({ id: 'o3', max_output_tokens: n }, '2026-11-29T07:00:00.000Z')));
    expect(outcomes.filter((outcome) => outcome === 'created')).toHaveLength(1);
    expect(await store.overrides()).toHaveLength(1);
  });
}
