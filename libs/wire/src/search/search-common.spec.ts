import { filterByDomain, hostOf, isInDomain, isoDate } from './search-common';
import { searchAdapterFor } from '../providers';

describe('isoDate', () => {
  it.each([
    ['2024-03-01T08:30:00', '2024-03-01T08:30:00.000Z'],
    ['2024-03-01 08:30', '2024-03-01T08:30:00.000Z'],
    ['2024-03-01', '2024-03-01T00:00:00.000Z'],
    ['2024-03-01T08:30:00.5+01:00', '2024-03-01T07:30:00.500Z'],
    ['Wed, 24 Apr 2024 12:00:00 GMT', '2024-04-24T12:00:00.000Z'],
  ])('%s → %s', (text, iso) => expect(isoDate(text)).toBe(iso));

  it.each([[null], [undefined], [''], ['  '], ['soon'], ['2024-13-45T99:00:00']])('%p → none', (text) => expect(isoDate(text)).toBeUndefined());
});

describe('domains', () => {
  it('hostOf reads http(s) hosts only, lower-cased, trailing dot dropped', () => {
    expect(hostOf('https://Docs.Example.com./x?y')).toBe('docs.example.com');
    expect(hostOf('http://[::1]:8080/')).toBe('[::1]');
    expect(hostOf('ftp://example.com/')).toBeUndefined();
    expect(hostOf('not a url')).toBeUndefined();
  });

  it('isInDomain: the domain itself and subdomains, on label boundaries', () => {
    expect(isInDomain('example.com', 'example.com')).toBe(true);
    expect(isInDomain('a.b.example.com', 'example.com')).toBe(true);
    expect(isInDomain('badexample.com', 'example.com')).toBe(false);
    expect(isInDomain('example.com.evil.net', 'example.com')).toBe(false);
    expect(isInDomain('example.com', 'sub.example.com')).toBe(false);
  });

  it('filterByDomain passes everything when no filter is given, and drops unparsable URLs when one is', () => {
    const results = [{ title: 't', url: 'https://example.com', snippet: '' }, { title: 't', url: 'nope', snippet: '' }];
    expect(filterByDomain(results, {})).toEqual(results);
    expect(filterByDomain(results, { exclude_domains: ['evil.net'] })).toEqual([results[0]]);
  });
});

describe('searchAdapterFor', () => {
  it('gives the search engines their adapter and every other channel type none', () => {
    expect(searchAdapterFor('tavily')?.endpoint).toBe('search');
    expect(searchAdapterFor('searxng')?.endpoint).toBe('search');
    for (const type of ['openai', 'anthropic', 'gemini', 'suno'] as const) expect(searchAdapterFor(type)).toBeUndefined();
  });
});
