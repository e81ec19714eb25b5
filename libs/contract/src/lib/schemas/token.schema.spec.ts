import { TokenCreateSchema, TokenListQuerySchema } from './token.schema';

describe('TokenCreateSchema', () => {
  it('accepts a name and trims it', () => {
    expect(TokenCreateSchema.parse({ name: '  ci bot ' })).toEqual({ name: 'ci bot' });
  });

  it('rejects unknown fields (strict): a client cannot choose its own key', () => {
    const result = TokenCreateSchema.safeParse({ name: 'ci', key: 'sk-chosen' });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]).toMatchObject({ code: 'unrecognized_keys', keys: ['key'] });
  });

  it.each([[{}], [{ name: '' }], [{ name: '   ' }], [{ name: 'x'.repeat(201) }]])('rejects the name of %j', (body) => {
    const result = TokenCreateSchema.safeParse(body);
    expect(result.error?.issues.map((issue) => issue.path)).toEqual([['name']]);
  });
});

describe('TokenListQuerySchema', () => {
  it('coerces the page query and keeps a status filter', () => {
    expect(TokenListQuerySchema.parse({ page: '3', per_page: '10', status: 'disabled' })).toEqual({
      page: 3,
      per_page: 10,
      status: 'disabled',
    });
  });

  it('rejects an unknown status', () => {
    expect(TokenListQuerySchema.safeParse({ status: 'deleted' }).success).toBe(false);
  });
});
