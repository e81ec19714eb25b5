import { startUpstreamSim } from '../sim-server';
import { readAll, testKey } from '../sim-test-client';
import type { UpstreamSim } from '../sim-types';
import { searxngPageSize } from './handle-searxng';
import { recencyMs, simulatedSearchHits } from './search-results';

let sim: UpstreamSim;
beforeAll(async () => {
  // acceptedKeys set: SearXNG ignores keys all the same.
  sim = await startUpstreamSim({ acceptedKeys: [testKey] });
});
afterAll(() => sim.close());
beforeEach(() => sim.reset());

interface SearxngResult {
  url: string;
  title: string;
  content: string;
  engine: string;
  engines: string[];
  score: number;
  category: string;
  publishedDate: string | null;
  parsed_url: string[];
  template: string;
  positions: number[];
}
interface SearxngAnswer {
  query: string;
  number_of_results: number;
  results: SearxngResult[];
  answers: unknown[];
  corrections: unknown[];
  infoboxes: unknown[];
  suggestions: unknown[];
  unresponsive_engines: unknown[];
}

function getSearch(params: Record<string, string>, init: RequestInit = {}): Promise<Response> {
  return fetch(`${sim.origin}/search?${new URLSearchParams(params).toString()}`, init);
}

async function search(params: Record<string, string>): Promise<SearxngAnswer> {
  const response = await getSearch({ format: 'json', ...params });
  expect(response.status).toBe(200);
  return (await response.json()) as SearxngAnswer;
}

describe('GET /search (SearXNG)', () => {
  it('answers ten results about q from several sites, in SearXNG’s JSON shape, without a key', async () => {
    const answer = await search({ q: 'open source databases' });
    expect(answer).toMatchObject({ query: 'open source databases', answers: [], corrections: [], infoboxes: [], suggestions: [], unresponsive_engines: [] });
    expect(answer.number_of_results).toBeGreaterThan(0);
    expect(answer.results).toHaveLength(searxngPageSize);
    const hosts = new Set(answer.results.map((result) => new URL(result.url).hostname));
    expect(hosts.size).toBeGreaterThanOrEqual(5);
    expect([...hosts]).toEqual(expect.arrayContaining(['example.com', 'docs.example.org', 'news.example.net', 'en.wikipedia.org']));
    for (const [index, result] of answer.results.entries()) {
      expect(result).toMatchObject({ category: 'general', template: 'default.html', positions: [index + 1] });
      expect(result.title).toContain('open source databases');
      expect(result.engines).toContain(result.engine);
      const url = new URL(result.url);
      expect(result.parsed_url).toEqual(['https', url.host, url.pathname, '', '', '']);
    }
    expect(answer.results.find((result) => result.url.includes('wikipedia.org'))?.engine).toBe('wikipedia');
    const dates = answer.results.map((result) => result.publishedDate);
    expect(dates.filter((date) => date === null).length).toBeGreaterThan(0);
    expect(dates.filter((date) => date !== null).every((date) => new Date(date ?? '').toISOString() === date)).toBe(true);
    expect((await search({ q: 'open source databases' })).results.map((result) => result.url)).toEqual(answer.results.map((result) => result.url));
    expect(answer.results.map((result) => result.url)).toEqual(
      simulatedSearchHits({ query: 'open source databases', count: 10, dated: 'some', withinMs: recencyMs.year }).map((hit) => hit.url),
    );
    const withWrongKey = await getSearch({ format: 'json', q: 'x' }, { headers: { authorization: 'Bearer whatever' } });
    expect(withWrongKey.status).toBe(200);
  });

  it('pages with pageno, positions counting on', async () => {
    const second = await search({ q: 'kettles', pageno: '2' });
    expect(second.results.map((result) => result.positions[0])).toEqual(Array.from({ length: 10 }, (_, index) => 11 + index));
    const first = await search({ q: 'kettles' });
    expect(new Set([...first.results, ...second.results].map((result) => result.url)).size).toBe(20);
    expect((await getSearch({ format: 'json', q: 'x', pageno: '0' })).status).toBe(400);
  });

  it('dates every result within time_range', async () => {
    for (const range of ['day', 'week', 'month', 'year'] as const) {
      const before = Date.now();
      const answer = await search({ q: 'storm warning', time_range: range, language: 'en', safesearch: '1', categories: 'news' });
      for (const result of answer.results) {
        expect(result.category).toBe('news');
        expect(before - Date.parse(result.publishedDate ?? '')).toBeLessThan(recencyMs[range]);
      }
    }
    const invalid = await getSearch({ format: 'json', q: 'x', time_range: 'decade' });
    expect([invalid.status, await invalid.json()]).toEqual([400, { error: 'Invalid value "decade" for parameter time_range' }]);
  });

  it('answers 403 without format=json, as an instance without the JSON format does, and 400 without q', async () => {
    const asked: Record<string, string>[] = [{ q: 'x' }, { q: 'x', format: 'html' }, { q: 'x', format: 'csv' }];
    for (const params of asked) {
      const response = await getSearch(params);
      expect(response.status).toBe(403);
      expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    }
    const missing = await getSearch({ format: 'json' });
    expect([missing.status, await missing.json()]).toEqual([400, { error: 'No query' }]);
  });

  it('plays faults from markers in q and failNext, and is recorded with its query string', async () => {
    const failed = await getSearch({ format: 'json', q: 'x [sim:fault=status:502]' });
    expect([failed.status, await failed.json()]).toEqual([502, { error: 'The simulator answered 502.' }]);
    sim.failNext({ kind: 'malformed' });
    await expect((await getSearch({ format: 'json', q: 'x' })).json()).rejects.toThrow();
    expect((await readAll(await getSearch({ format: 'json', q: 'x [sim:fault=cut]' }))).error).toBeDefined();
    await expect(getSearch({ format: 'json', q: 'x [sim:fault=timeout]' }, { signal: AbortSignal.timeout(150) })).rejects.toThrow();
    const marked = await search({ q: 'kettles [sim:latency=1]' });
    expect(marked.results.map((result) => result.url)).toEqual((await search({ q: 'kettles' })).results.map((result) => result.url));
    expect(sim.requests[0]).toMatchObject({ method: 'GET', path: '/search', query: 'format=json&q=x+%5Bsim%3Afault%3Dstatus%3A502%5D' });
  });

  it('does not take Tavily’s POST for SearXNG, nor SearXNG’s GET for Tavily', async () => {
    const tavily = await fetch(`${sim.origin}/search`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: 'x' }) });
    expect(tavily.status).toBe(401);
    expect(await tavily.json()).toEqual({ detail: { error: 'Unauthorized: missing or invalid API key.' } });
    expect((await fetch(`${sim.origin}/search`, { method: 'DELETE' })).status).toBe(404);
  });
});
