import { EMPTY_FILTERS, exportQueryOf, formFromSearch, logQueryFromSearch, searchFromForm } from './log-filters';

describe('log filters', () => {
  it('puts only the filled fields in the URL, times as ISO UTC', () => {
    const params = searchFromForm({ ...EMPTY_FILTERS, token_id: ' 5 ', model: 'gpt-4o', from: '2026-11-01T10:30' });

    expect([...params.keys()]).toEqual(['token_id', 'model', 'from']);
    expect(params.get('token_id')).toBe('5');
    expect(params.get('from')).toBe(new Date(2026, 10, 1, 10, 30).toISOString());
  });

  it('reads the URL back into the form, times in local time', () => {
    const iso = new Date(2026, 10, 1, 10, 30).toISOString();
    const form = formFromSearch(new URLSearchParams({ status: '429', endpoint: 'embeddings', to: iso }));

    expect(form).toEqual({ ...EMPTY_FILTERS, status: '429', endpoint: 'embeddings', to: '2026-11-01T10:30' });
  });

  it('makes the API query with the page size, the page and typed values', () => {
    const parsed = logQueryFromSearch(new URLSearchParams({ token_id: '5', status: '500', endpoint: 'chat', page: '3' }), true);

    expect(parsed).toEqual({ ok: true, query: { token_id: 5, status: 500, endpoint: 'chat', page: 3, per_page: 50 } });
  });

  it('leaves account_id out for an account, which only sees its own logs', () => {
    const parsed = logQueryFromSearch(new URLSearchParams({ account_id: '9' }), false);

    expect(parsed).toEqual({ ok: true, query: { page: 1, per_page: 50 } });
    expect(logQueryFromSearch(new URLSearchParams({ account_id: '9' }), true)).toMatchObject({ query: { account_id: 9 } });
  });

  it('names the field of a hand-edited link the API would refuse', () => {
    const parsed = logQueryFromSearch(new URLSearchParams({ status: '42', endpoint: 'fax' }), true);

    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.problems).toHaveLength(2);
    expect(parsed.problems[0]).toMatch(/^Status: /);
    expect(parsed.problems[1]).toMatch(/^Endpoint: /);
  });

  it('refuses a time the input cannot have produced', () => {
    expect(() => searchFromForm({ ...EMPTY_FILTERS, to: 'yesterday' })).toThrow('not a date and time');
  });

  it('exports with the same filters, without the paging', () => {
    expect(exportQueryOf({ model: 'gpt-4o', page: 2, per_page: 50 })).toEqual({ model: 'gpt-4o' });
  });
});
