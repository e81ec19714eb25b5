import { SearchRequestSchema, SearchResponseSchema, type SearchRequest } from '@chat-relay/contract';
import type { EndpointAnswer } from '../hub/endpoint-adapter';
import { searxngSearchAdapter } from './searxng-search-adapter';

const requestOf = (fields: Partial<SearchRequest> = {}): SearchRequest => SearchRequestSchema.parse({ query: 'rust async book', ...fields });
const build = (request: SearchRequest, key = 'none') =>
  searxngSearchAdapter.buildRequest({ channel: { baseUrl: 'http://searx.local:8080/' }, key, request, upstreamModel: 'web-search' });
const results = (request: SearchRequest, items: unknown[]) => {
  const answer: EndpointAnswer = searxngSearchAdapter.convertResponse(JSON.stringify({ query: request.query, number_of_results: 0, results: items, answers: [], suggestions: [] }), {
    request,
    publicModel: 'web-search',
    contentType: 'application/json',
  });
  if (!answer.ok || answer.kind !== 'json') throw new Error(`not a JSON answer: ${JSON.stringify(answer)}`);
  return { body: SearchResponseSchema.parse(answer.body), usage: answer.usage };
};
const hit = (url: string, fields: Record<string, unknown> = {}) => ({ url, title: url, content: 'c', engine: 'duckduckgo', score: 1, category: 'general', ...fields });
const urlsOf = (request: SearchRequest, urls: string[]) => results(request, urls.map((url) => hit(url))).body.results.map((result) => result.url);

describe('searxngSearchAdapter.buildRequest', () => {
  it('GETs {base_url}/search?q=…&format=json&time_range=…, with no body and no key when the key is none', () => {
    const built = build(requestOf({ recency: 'month', include_domains: ['docs.rs'] }));
    expect(built.method).toBe('GET');
    expect(built.url).toBe('http://searx.local:8080/search?q=rust+async+book&format=json&time_range=month');
    expect(built.headers).toEqual({ accept: 'application/json' });
    expect(built.body).toBe('');
    expect(build(requestOf()).url).toBe('http://searx.local:8080/search?q=rust+async+book&format=json');
  });

  it('sends a real key as a bearer token, for a proxy in front of the instance', () => {
    expect(build(requestOf(), 'proxy-secret-1234').headers).toEqual({ accept: 'application/json', authorization: 'Bearer proxy-secret-1234' });
    expect(build(requestOf(), 'NONE').headers['authorization']).toBeUndefined();
  });
});

describe('searxngSearchAdapter.convertResponse', () => {
  it('maps content to snippet, publishedDate to ISO (no offset read as UTC), one unit, 5 results by default', () => {
    const request = requestOf();
    const { body, usage } = results(request, [
      hit('https://rust-lang.github.io/async-book/', { title: 'Asynchronous Programming in Rust', content: '  The async book.  ', publishedDate: '2024-03-01T08:30:00' }),
      hit('https://tokio.rs/tokio/tutorial', { publishedDate: '2023-11-02T10:00:00+02:00' }),
      hit('https://example.com/none', { publishedDate: null }),
      hit('https://example.com/bad', { publishedDate: 'yesterday-ish' }),
      ...Array.from({ length: 5 }, (_, index) => hit(`https://example.com/${index}`)),
    ]);
    expect(body.object).toBe('search.result');
    expect(body.results).toHaveLength(5);
    expect(body.results[0]).toEqual({
      title: 'Asynchronous Programming in Rust',
      url: 'https://rust-lang.github.io/async-book/',
      snippet: 'The async book.',
      published_at: '2024-03-01T08:30:00.000Z',
    });
    expect(body.results[1]?.published_at).toBe('2023-11-02T08:00:00.000Z');
    expect(body.results[2]).not.toHaveProperty('published_at');
    expect(body.results[3]).not.toHaveProperty('published_at');
    expect(usage).toEqual({ promptTokens: 0, completionTokens: 0, units: 1 });
  });

  it('include_domains keeps the domain and its subdomains only — not a look-alike host', () => {
    const urls = [
      'https://example.com/a',
      'https://sub.example.com/b',
      'https://WWW.Example.COM./c',
      'https://example.com.evil.net/d',
      'https://notexample.com/e',
      'https://evil.net/?u=example.com',
      'https://user@evil.net/example.com',
    ];
    expect(urlsOf(requestOf({ include_domains: ['example.com'], max_results: 20 }), urls)).toEqual(['https://example.com/a', 'https://sub.example.com/b', 'https://WWW.Example.COM./c']);
  });

  it('exclude_domains drops the domain and its subdomains, and keeps look-alikes', () => {
    const urls = ['https://example.com/a', 'https://sub.example.com/b', 'https://example.com.evil.net/d', 'https://notexample.com/e'];
    expect(urlsOf(requestOf({ exclude_domains: ['example.com'], max_results: 20 }), urls)).toEqual(['https://example.com.evil.net/d', 'https://notexample.com/e']);
  });

  it('both filters: a subdomain excluded inside an included domain; the cut to max_results comes after filtering', () => {
    const urls = ['https://a.org/1', 'https://docs.example.com/2', 'https://blog.example.com/3', 'https://example.com/4', 'https://example.com/5', 'https://example.com/6'];
    expect(urlsOf(requestOf({ include_domains: ['example.com'], exclude_domains: ['blog.example.com'], max_results: 3 }), urls)).toEqual([
      'https://docs.example.com/2',
      'https://example.com/4',
      'https://example.com/5',
    ]);
  });

  it('a malformed answer (no results list, an HTML page) is a retryable bad_response', () => {
    for (const text of ['<!DOCTYPE html><html></html>', '{"query":"x"}']) {
      const answer = searxngSearchAdapter.convertResponse(text, { request: requestOf(), publicModel: 'web-search', contentType: 'text/html' });
      expect(answer.ok ? undefined : answer.error.code).toBe('bad_response');
    }
  });
});

describe('searxngSearchAdapter.mapErrorResponse', () => {
  it('403 with no key: the instance refuses JSON — a channel fault naming the setting, no key disabled', () => {
    const failure = searxngSearchAdapter.mapErrorResponse(403, '<html>Forbidden</html>', ['none']);
    expect(failure).toMatchObject({ retryable: true, channelFault: true });
    expect(failure.keyRejected).toBeUndefined();
    expect(failure.error.message).toContain('search.formats');
    expect(failure.error.message).not.toContain('[redacted]');
  });

  it('401 behind a proxy with a key: the key is rejected and never quoted', () => {
    const failure = searxngSearchAdapter.mapErrorResponse(401, 'bad token proxy-secret-1234', ['proxy-secret-1234']);
    expect(failure.keyRejected).toBe(true);
    expect(JSON.stringify(failure.error.toBody())).not.toContain('proxy-secret-1234');
  });

  it('429 (its limiter) is retryable; an HTML 400 keeps its status without quoting the page', () => {
    expect(searxngSearchAdapter.mapErrorResponse(429, 'Too Many Requests', ['none'])).toMatchObject({ retryable: true, channelFault: true });
    const bad = searxngSearchAdapter.mapErrorResponse(400, '<html>Bad Request</html>', ['none']);
    expect({ status: bad.error.status, message: bad.error.message }).toEqual({ status: 400, message: 'The upstream SearXNG rejected the search with status 400.' });
  });
});
