import { ModelCatalogue, seedCatalogueModels } from '@chat-relay/wire';
import type { PriceRecord, PriceStore } from '../storage/types';
import { costOf, NOT_KNOWN_YET, PriceBook, pricesEndpoint } from './price-book';

class MemoryPrices implements PriceStore {
  constructor(public prices: PriceRecord[]) {}
  async list() {
    return this.prices;
  }
  async replace(prices: readonly PriceRecord[]) {
    this.prices = [...prices];
  }
}

const price = (model: string, input: number | null, output: number | null, extra: Partial<PriceRecord> = {}): PriceRecord => ({
  model,
  input,
  output,
  cacheRead: null,
  cacheWrite: null,
  ...extra,
});

const catalogue = new ModelCatalogue(seedCatalogueModels());

/** Issue 28 defect 5: a request is priced by the upstream model that served it, not the name the caller used. */
describe('PriceBook.priceFor', () => {
  const table = [
    price('gpt-4o*', 2_500_000, 10_000_000),
    price('claude-sonnet-4*', 3_000_000, 15_000_000),
    price('claude-priced-alias', 1_000_000, 2_000_000),
    price('sora-2', null, null, { videoSecond: 100_000 }),
    price('local-llama', null, null, { free: true }),
  ];
  const book = new PriceBook(new MemoryPrices(table), undefined, catalogue);

  it('prices an alias as the upstream model it maps to (gpt-4o under claude-*), not the alias', async () => {
    expect(await book.priceFor('claude-sonnet-4-5', 'gpt-4o', 'chat')).toEqual({ price: table[0], pricedBy: 'gpt-4o* (table)' });
  });

  it('prices an alias the operator priced on purpose (an exact entry for the public name) at its own entry', async () => {
    expect(await book.priceFor('claude-priced-alias', 'gpt-4o', 'chat')).toEqual({ price: table[2], pricedBy: 'claude-priced-alias (table, alias)' });
  });

  it('does not take a glob matching the public name as an alias priced on purpose', async () => {
    expect((await book.priceFor('gpt-4o-mini', 'claude-sonnet-4-5', 'chat'))?.pricedBy).toBe('claude-sonnet-4* (table)');
  });

  it("falls back to the catalogue's list price for the upstream model, converted to micro-USD per million with its cache prices", async () => {
    const applied = await book.priceFor('gemini-3.1-pro-preview', 'gemini-3.1-pro-preview', 'chat');
    const listed = catalogue.facts('gemini-3.1-pro-preview').cost;
    expect(listed).toBeDefined();
    expect(applied?.pricedBy).toBe('gemini-3.1-pro-preview (catalogue)');
    expect(applied?.price).toMatchObject({ input: Math.round(listed!.input * 1e6), output: Math.round(listed!.output * 1e6) });
    if (listed?.cache_read !== undefined) expect(applied?.price.cacheRead).toBe(Math.round(listed.cache_read * 1e6));
    // A dated name the dataset does not list finds the undated entry.
    expect((await book.priceFor('claude-haiku-4-5-20990101', 'claude-haiku-4-5-20990101', 'chat'))?.pricedBy).toBe('claude-haiku-4-5 (catalogue)');
  });

  it('answers undefined (unpriced) for a model neither the table nor the catalogue prices', async () => {
    expect(await book.priceFor('made-up-model', 'made-up-model', 'chat')).toBeUndefined();
    expect(await book.priceFor('claude-sonnet-4-5', 'made-up-upstream', 'chat')).toBeUndefined();
  });

  it('an entry without token prices prices its units, never a token-priced request', async () => {
    expect((await book.priceFor('sora-2', 'sora-2', 'videos'))?.pricedBy).toBe('sora-2 (table)');
    expect(await book.priceFor('sora-2', 'sora-2', 'chat')).toBeUndefined();
    expect(pricesEndpoint(table[3]!, 'embeddings')).toBe(false);
  });

  it('a free entry prices anything, at nothing', async () => {
    const applied = await book.priceFor('local-llama', 'local-llama', 'chat');
    expect(applied?.pricedBy).toBe('local-llama (table, free)');
    expect(costOf(applied?.price, { promptTokens: 1_000_000, completionTokens: 1_000_000 })).toBe(0);
  });

  it('a reloaded table is read again', async () => {
    const store = new MemoryPrices([price('gpt-4o', 1, 1)]);
    const reloading = new PriceBook(store, undefined, catalogue);
    expect((await reloading.priceFor('alias', 'gpt-4o', 'chat'))?.pricedBy).toBe('gpt-4o (table)');
    store.prices = [price('alias', 5, 5)];
    reloading.invalidate();
    expect((await reloading.priceFor('alias', 'gpt-4o', 'chat'))?.pricedBy).toBe('alias (table, alias)');
  });
});

describe('PriceBook.knownPriceFor', () => {
  const table = [price('gpt-4o*', 2_500_000, 10_000_000), price('claude-priced-alias', 1_000_000, 2_000_000)];
  const asks: Array<[string, string]> = [
    ['gpt-4o', 'gpt-4o'],
    ['claude-priced-alias', 'gpt-4o'],
    ['claude-sonnet-4-5', 'gpt-4o-mini'],
    ['gemini-3.1-pro-preview', 'gemini-3.1-pro-preview'],
    ['no-such-model', 'no-such-model'],
  ];

  it('knows nothing before the table is loaded, then answers exactly what priceFor answered, for every kind of answer', async () => {
    const book = new PriceBook(new MemoryPrices(table), undefined, catalogue);
    for (const [publicModel, upstreamModel] of asks) expect(book.knownPriceFor(publicModel, upstreamModel, 'chat')).toBe(NOT_KNOWN_YET);
    for (const [publicModel, upstreamModel] of asks) {
      const answer = await book.priceFor(publicModel, upstreamModel, 'chat');
      expect(book.knownPriceFor(publicModel, upstreamModel, 'chat')).toEqual(answer);
      expect(book.knownPriceFor(publicModel, upstreamModel, 'videos')).toEqual(await book.priceFor(publicModel, upstreamModel, 'videos'));
    }
  });

  it('knows nothing again once the table is written (the next answer reads the new table)', async () => {
    const store = new MemoryPrices(table);
    const book = new PriceBook(store, undefined, catalogue);
    await book.priceFor('gpt-4o', 'gpt-4o', 'chat');
    await store.replace([price('gpt-4o', 1, 1)]);
    book.invalidate();
    expect(book.knownPriceFor('gpt-4o', 'gpt-4o', 'chat')).toBe(NOT_KNOWN_YET);
    expect((await book.priceFor('gpt-4o', 'gpt-4o', 'chat'))?.pricedBy).toBe('gpt-4o (table)');
    expect(book.knownPriceFor('gpt-4o', 'gpt-4o', 'chat')).toMatchObject({ pricedBy: 'gpt-4o (table)' });
  });
});
