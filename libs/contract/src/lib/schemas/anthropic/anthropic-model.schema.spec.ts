import { AnthropicModelListSchema, AnthropicModelSchema } from './anthropic-model.schema';

const model = {
  type: 'model',
  id: 'claude-sonnet-4-5',
  display_name: 'Claude Sonnet 4.5',
  created_at: '2025-09-29T00:00:00Z',
};

describe('AnthropicModelListSchema', () => {
  it('accepts a page, unchanged, and an empty one with null bounds', () => {
    const haiku = { ...model, id: 'claude-haiku-4-5', created_at: '2025-10-01T12:30:00+02:00' };
    const page = { data: [model, haiku], has_more: false, first_id: 'claude-sonnet-4-5', last_id: 'claude-haiku-4-5' };
    expect(AnthropicModelListSchema.parse(page)).toEqual(page);
    const empty = { data: [], has_more: false, first_id: null, last_id: null };
    expect(AnthropicModelListSchema.parse(empty)).toEqual(empty);
  });

  it('requires has_more and both bounds', () => {
    const result = AnthropicModelListSchema.safeParse({ data: [] });
    expect(result.error?.issues.map((issue) => issue.path)).toEqual([['has_more'], ['first_id'], ['last_id']]);
  });
});

describe('AnthropicModelSchema', () => {
  it('keeps fields added later (max_tokens, capabilities)', () => {
    const described = { ...model, max_tokens: 64000, capabilities: null };
    expect(AnthropicModelSchema.parse(described)).toEqual(described);
  });

  it.each(['2025-09-29', '1759104000', 'Mon, 29 Sep 2025 00:00:00 GMT'])('refuses created_at %s (not RFC 3339)', (createdAt) => {
    const result = AnthropicModelSchema.safeParse({ ...model, created_at: createdAt });
    expect(result.error?.issues.map((issue) => issue.path)).toEqual([['created_at']]);
  });
});
