import { AnthropicModelListSchema, AnthropicModelSchema, type Model } from '@chat-relay/contract';
import { anthropicModelPage, toAnthropicModel } from './anthropic-model-list';

const model = (id: string, created = 1_700_000_000): Model => ({ id, object: 'model', created, owned_by: 'anthropic' });
const models = ['m01', 'm02', 'm03', 'm04', 'm05', 'm06', 'm07'].map((id) => model(id));

/** The page, checked against the contract's schema, as its ids. */
function page(query: Parameters<typeof anthropicModelPage>[1], list: readonly Model[] = models) {
  const result = anthropicModelPage(list, query);
  expect(AnthropicModelListSchema.parse(result)).toEqual(result);
  return { ids: result.data.map((entry) => entry.id), has_more: result.has_more, first_id: result.first_id, last_id: result.last_id };
}

describe('toAnthropicModel', () => {
  it('describes a model as Anthropic does: its id as display name, created as RFC 3339', () => {
    const described = toAnthropicModel(model('claude-sonnet-4-5', 1_759_104_000));
    expect(described).toEqual({ type: 'model', id: 'claude-sonnet-4-5', display_name: 'claude-sonnet-4-5', created_at: '2025-09-29T00:00:00.000Z' });
    expect(AnthropicModelSchema.parse(described)).toEqual(described);
  });
});

describe('anthropicModelPage', () => {
  it('gives the whole list in order when it fits the default page of 20', () => {
    expect(page({})).toEqual({ ids: models.map((entry) => entry.id), has_more: false, first_id: 'm01', last_id: 'm07' });
  });

  it('cuts the default page at 20', () => {
    const many = Array.from({ length: 25 }, (_, index) => model(`model-${index}`));
    expect(page({}, many)).toMatchObject({ has_more: true, first_id: 'model-0', last_id: 'model-19' });
    expect(page({}, many).ids).toHaveLength(20);
  });

  it('pages forward with limit and after_id until has_more is false', () => {
    expect(page({ limit: 3 })).toEqual({ ids: ['m01', 'm02', 'm03'], has_more: true, first_id: 'm01', last_id: 'm03' });
    expect(page({ limit: 3, after_id: 'm03' })).toEqual({ ids: ['m04', 'm05', 'm06'], has_more: true, first_id: 'm04', last_id: 'm06' });
    expect(page({ limit: 3, after_id: 'm06' })).toEqual({ ids: ['m07'], has_more: false, first_id: 'm07', last_id: 'm07' });
    expect(page({ limit: 3, after_id: 'm07' })).toEqual({ ids: [], has_more: false, first_id: null, last_id: null });
  });

  it('a page ending exactly at the last model has no more', () => {
    expect(page({ limit: 2, after_id: 'm05' })).toEqual({ ids: ['m06', 'm07'], has_more: false, first_id: 'm06', last_id: 'm07' });
  });

  it('pages backward with before_id: the limit models just before it, has_more while earlier ones remain', () => {
    expect(page({ limit: 3, before_id: 'm07' })).toEqual({ ids: ['m04', 'm05', 'm06'], has_more: true, first_id: 'm04', last_id: 'm06' });
    expect(page({ limit: 3, before_id: 'm04' })).toEqual({ ids: ['m01', 'm02', 'm03'], has_more: false, first_id: 'm01', last_id: 'm03' });
    expect(page({ limit: 3, before_id: 'm02' })).toEqual({ ids: ['m01'], has_more: false, first_id: 'm01', last_id: 'm01' });
    expect(page({ limit: 3, before_id: 'm01' })).toEqual({ ids: [], has_more: false, first_id: null, last_id: null });
  });

  it('an unknown before_id counts back from the end of the list', () => {
    expect(page({ limit: 2, before_id: 'gone' })).toEqual({ ids: ['m06', 'm07'], has_more: true, first_id: 'm06', last_id: 'm07' });
  });

  it('an unknown after_id pages from the start of the list', () => {
    expect(page({ limit: 2, after_id: 'gone' })).toEqual({ ids: ['m01', 'm02'], has_more: true, first_id: 'm01', last_id: 'm02' });
  });

  it('after_id and before_id together bound the page on both sides', () => {
    expect(page({ after_id: 'm02', before_id: 'm06' })).toEqual({ ids: ['m03', 'm04', 'm05'], has_more: true, first_id: 'm03', last_id: 'm05' });
  });

  it('an empty list is an empty page with null bounds', () => {
    for (const query of [{}, { limit: 5, after_id: 'x' }, { before_id: 'x' }]) {
      expect(page(query, [])).toEqual({ ids: [], has_more: false, first_id: null, last_id: null });
    }
  });
});
