import { IdParamSchema, PageQuerySchema } from './common.schema';

describe('PageQuerySchema', () => {
  it('coerces query strings to numbers', () => {
    expect(PageQuerySchema.parse({ page: '2', per_page: '50' })).toEqual({ page: 2, per_page: 50 });
  });

  it('defaults to page 1 of 20', () => {
    expect(PageQuerySchema.parse({})).toEqual({ page: 1, per_page: 20 });
  });

  it('accepts per_page 100, the maximum', () => {
    expect(PageQuerySchema.parse({ per_page: '100' }).per_page).toBe(100);
  });

  it.each([
    ['per_page 101', { per_page: '101' }, ['per_page']],
    ['per_page 0', { per_page: '0' }, ['per_page']],
    ['page 0', { page: '0' }, ['page']],
    ['a page that is not a number', { page: 'two' }, ['page']],
    ['a fractional page', { page: '1.5' }, ['page']],
    // Found by the fuzz suite: GET /api/logs?page=1e300 reached the database as an OFFSET and gave a 500.
    ['page 1e300', { page: '1e300' }, ['page']],
    ['page 1,000,001', { page: '1000001' }, ['page']],
  ])('rejects %s', (_name, query, path) => {
    const result = PageQuerySchema.safeParse(query);
    expect(result.error?.issues.map((issue) => issue.path)).toEqual([path]);
  });

  it('rejects unknown query parameters (strict)', () => {
    expect(PageQuerySchema.safeParse({ page: '1', sort: 'name' }).success).toBe(false);
  });
});

describe('IdParamSchema', () => {
  it('coerces a path id', () => {
    expect(IdParamSchema.parse({ id: '42' })).toEqual({ id: 42 });
  });

  it.each(['0', '-1', 'abc', '1.5'])('rejects id %s', (id) => {
    expect(IdParamSchema.safeParse({ id }).success).toBe(false);
  });
});
