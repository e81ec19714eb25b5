import { RelayError } from '@chat-relay/wire';
import { NOT_KNOWN_YET, type AppliedPrice, type PriceBook } from '../billing/price-book';
import { modelPriceNotSet, priceCandidates, type MappedChannel } from './price-candidates';

const channel = (mapping: Record<string, string> = {}): MappedChannel => ({ upstreamModel: (model) => mapping[model] ?? model });

/** A price book pricing only `priced`, counting what it was asked. */
function bookOf(priced: Record<string, number>): { book: PriceBook; asked: string[] } {
  const asked: string[] = [];
  const book = {
    knownPriceFor: () => NOT_KNOWN_YET,
    priceFor: async (_publicModel: string, upstreamModel: string): Promise<AppliedPrice | undefined> => {
      asked.push(upstreamModel);
      const input = priced[upstreamModel];
      return input === undefined ? undefined : { price: { model: upstreamModel, input, output: input, cacheRead: null, cacheWrite: null }, pricedBy: `${upstreamModel} (table)` };
    },
  } as unknown as PriceBook;
  return { book, asked };
}

describe('priceCandidates', () => {
  it('prices each distinct upstream model the candidates send, once', async () => {
    const { book, asked } = bookOf({ 'gpt-4o': 1, 'gpt-4o-mini': 2 });
    const prices = await priceCandidates({ prices: book }, 'claude-x', 'chat', [
      channel({ 'claude-x': 'gpt-4o' }),
      channel({ 'claude-x': 'gpt-4o' }),
      channel({ 'claude-x': 'gpt-4o-mini' }),
    ]);
    expect(prices.map((price) => price.upstreamModel)).toEqual(['gpt-4o', 'gpt-4o-mini']);
    expect(asked).toEqual(['gpt-4o', 'gpt-4o-mini']);
  });

  it('answers at once, not with a promise, when every price is known; looks up only the ones that are not', async () => {
    const { book, asked } = bookOf({ 'gpt-4o': 1, 'gpt-4o-mini': 2 });
    const known = (model: string) => ({ price: { model, input: 1, output: 1, cacheRead: null, cacheWrite: null }, pricedBy: `${model} (table)` });
    book.knownPriceFor = (_publicModel: string, upstreamModel: string) => (upstreamModel === 'gpt-4o' ? known(upstreamModel) : NOT_KNOWN_YET);
    const now = priceCandidates({ prices: book }, 'claude-x', 'chat', [channel({ 'claude-x': 'gpt-4o' }), channel({ 'claude-x': 'gpt-4o' })]);
    expect(now).not.toBeInstanceOf(Promise);
    expect((now as Awaited<typeof now>).map((price) => price.upstreamModel)).toEqual(['gpt-4o']);
    const later = priceCandidates({ prices: book }, 'claude-x', 'chat', [channel({ 'claude-x': 'gpt-4o' }), channel({ 'claude-x': 'gpt-4o-mini' }), channel({ 'claude-x': 'gpt-4o' })]);
    expect(later).toBeInstanceOf(Promise);
    expect((await later).map((price) => price.upstreamModel)).toEqual(['gpt-4o', 'gpt-4o-mini']);
    expect(asked).toEqual(['gpt-4o-mini']);
  });

  it('refuses the request when any candidate is unpriced (by default), naming the model and how to price it', async () => {
    const { book } = bookOf({ 'gpt-4o': 1 });
    // Refused as a rejection or a throw at once (a price known already): the caller awaits either way.
    const refusal = await Promise.resolve()
      .then(() => priceCandidates({ prices: book }, 'claude-x', 'chat', [channel({ 'claude-x': 'gpt-4o' }), channel({ 'claude-x': 'house' })]))
      .then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(refusal).toBeInstanceOf(RelayError);
    expect((refusal as RelayError).toBody().error).toMatchObject({ type: 'invalid_request_error', code: 'model_price_not_set', param: 'model' });
    expect((refusal as RelayError).status).toBe(403);
    expect((refusal as RelayError).message).toContain("'claude-x' (served as 'house')");
  });

  it('leaves an unpriced one out when the install serves unpriced models free', async () => {
    const { book } = bookOf({});
    expect(await priceCandidates({ prices: book, unpricedModels: 'free' }, 'house', 'embeddings', [channel()])).toEqual([]);
  });

  it('names the unit to set for an endpoint priced by its units', () => {
    expect(modelPriceNotSet('sora-2', 'sora-2', 'videos').message).toContain("the endpoint's unit price");
    expect(modelPriceNotSet('m', 'm', 'chat').message).toContain('input and output');
  });
});
