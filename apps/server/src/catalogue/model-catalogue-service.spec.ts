import type { CatalogueModel } from '@chat-relay/contract';
import { LocalChangeFeed } from '../core/change-feed';
import { ModelCatalogueService, type CatalogueSource } from './model-catalogue-service';

class MemorySource implements CatalogueSource {
  stored: CatalogueModel[] | null = null;
  overriding: CatalogueModel[] = [];
  failing = false;
  reads = 0;
  async dataset() {
    this.reads += 1;
    if (this.failing) throw new Error('database gone');
    return this.stored;
  }
  async overrides() {
    return this.overriding;
  }
}

describe('ModelCatalogueService', () => {
  it('answers from the seed before anything is loaded, then from the stored dataset and overrides', async () => {
    const source = new MemorySource();
    const service = new ModelCatalogueService(source, new LocalChangeFeed());
    expect(service.facts('gpt-4o').maxOutputTokens).toBe(16_384);
    source.overriding = [{ id: 'gpt-4o', max_output_tokens: 1000 }];
    await service.load();
    expect(service.facts('gpt-4o')).toMatchObject({ maxOutputTokens: 1000, contextWindow: 128_000 });
    source.stored = [{ id: 'only-model', family: 'other', max_output_tokens: 7 }];
    await service.load();
    expect(service.facts('only-model').maxOutputTokens).toBe(7);
    expect(service.facts('gpt-4o').entry).toMatchObject({ id: 'gpt-4o', max_output_tokens: 1000 });
    expect(service.facts('gpt-4o').contextWindow).toBeUndefined();
  });

  it('reloads on every instance when one writes, and keeps what it had when a reload fails', async () => {
    const changes = new LocalChangeFeed();
    const source = new MemorySource();
    const errors: unknown[] = [];
    const service = new ModelCatalogueService(source, changes, (error) => errors.push(error));
    source.overriding = [{ id: 'claude-sonnet-4-5', max_output_tokens: 123 }];
    const other = new ModelCatalogueService(source, changes);
    other.invalidate();
    await service.load();
    expect(service.facts('claude-sonnet-4-5').maxOutputTokens).toBe(123);
    source.failing = true;
    source.overriding = [];
    await service.load();
    expect(errors).toHaveLength(1);
    expect(service.facts('claude-sonnet-4-5').maxOutputTokens).toBe(123);
  });

  it('without a store is the seed alone', async () => {
    const service = new ModelCatalogueService(undefined);
    await service.load();
    expect(service.facts('gemini-2.5-flash').family).toBe('gemini');
  });
});
