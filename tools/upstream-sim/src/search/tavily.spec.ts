import { startUpstreamSim } from '../sim-server';
import { readAll, testKey } from '../sim-test-client';
import type { UpstreamSim } from '../sim-types';
import { isUnderDomain, recencyMs, searchHosts, simulatedSearchHits } from './search-results';

let sim: UpstreamSim;
beforeAll(async () => {
  sim = await startUpstreamSim({ acceptedKeys: [testKey] });
});
afterAll(() => sim.close());
beforeEach(() => sim.reset());

interface TavilyResult {
  title: string;
  url: string;
  content: string;
  score: number;
  raw_content: string | null;
  published_date?: string;
}
interface TavilyAnswer {
  query: string;
  follow_up_questions: null;
  answer: string | null;
  images: unknown[];
  results: TavilyResult[];
  response_time: string;
  request_id: string;
}

/** `key` null: no Authorization header. */
function postSearch(body: unknown, key: string | null = testKey, signal?: AbortSignal): Promise<Response> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (key !== null) headers['authorization'] = `Bearer ${key}`;
  return fetch(`${sim.origin}/search`, { method: 'POST', headers, body: typeof body === 'string' ? body : JSON.stringify(body), signal });
}

async function search(body: Record<string, unknown>): Promise<TavilyAnswer> {
  const response = await postSearch(body);
  expect(response.status).toBe(200);
  return (await response.json()) as TavilyAnswer;
}

const hostOf = (url: string) => new URL(url).hostname;

describe('POST /search (Tavily)', () => {
  it('answers five results about the query by default, in Tavily’s shape, the same for the same query', async () => {
    const answer = await search({ query: 'solar panels efficiency' });
    expect(answer).toEqual({
      query: 'solar panels efficiency',
      follow_up_questions: null,
      answer: null,
      images: [],
      results: expect.any(Array),
      response_time: '0.01',
      request_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
    });
    expect(answer.results).toHaveLength(5);
    for (const result of answer.results) {
      expect(result.title).toContain('solar panels efficiency');
      expect(result.content).toContain('solar, panels, efficiency');
      expect(result.raw_content).toBeNull();
    }
    const scores = answer.results.map((result) => result.score);
    expect(scores).toEqual([...scores].sort((left, right) => right - left));
    expect(new Set(answer.results.map((result) => hostOf(result.url))).size).toBeGreaterThan(3);
    const again = await search({ query: 'solar panels efficiency' });
    expect(again.results.map((result) => [result.url, result.title, result.score])).toEqual(answer.results.map((result) => [result.url, result.title, result.score]));
    const expected = simulatedSearchHits({ query: 'solar panels efficiency', count: 5, dated: 'some', withinMs: recencyMs.year });
    expect(answer.results.map((result) => result.url)).toEqual(expected.map((hit) => hit.url));
    expect(answer.results.filter((result) => result.published_date !== undefined).length).toBeGreaterThan(0);
    expect(answer.results.filter((result) => result.published_date === undefined).length).toBeGreaterThan(0);
  });

  it('honours max_results up to 20 and refuses more', async () => {
    expect((await search({ query: 'q', max_results: 20 })).results).toHaveLength(20);
    expect((await search({ query: 'q', max_results: 2 })).results).toHaveLength(2);
    const tooMany = await postSearch({ query: 'q', max_results: 21 });
    expect(tooMany.status).toBe(400);
    expect(await tooMany.json()).toEqual({ detail: { error: expect.stringContaining('max_results') } });
  });

  it('keeps to include_domains (subdomains count) and away from exclude_domains', async () => {
    const included = await search({ query: 'rust borrow checker', max_results: 6, include_domains: ['wikipedia.org', 'docs.rs'] });
    expect(included.results).toHaveLength(6);
    expect(new Set(included.results.map((result) => hostOf(result.url)))).toEqual(new Set(['wikipedia.org', 'docs.rs']));
    const excluded = await search({ query: 'rust borrow checker', max_results: 20, exclude_domains: ['wikipedia.org', 'example.com'] });
    const hosts = excluded.results.map((result) => hostOf(result.url));
    expect(hosts).toHaveLength(20);
    expect(hosts.some((host) => isUnderDomain(host, 'wikipedia.org') || host === 'example.com')).toBe(false);
    expect(hosts).toContain('docs.example.org');
    const nothing = await search({ query: 'x', include_domains: ['a.example'], exclude_domains: ['a.example'] });
    expect(nothing.results).toEqual([]);
    expect(searchHosts).toContain('en.wikipedia.org');
  });

  it('dates every result within time_range (day … year, or d/w/m/y), and news within days', async () => {
    for (const [timeRange, span] of [['day', recencyMs.day], ['w', recencyMs.week], ['month', recencyMs.month], ['y', recencyMs.year]] as const) {
      const before = Date.now();
      const answer = await search({ query: 'election results', time_range: timeRange, max_results: 10 });
      for (const result of answer.results) {
        const published = Date.parse(result.published_date ?? '');
        expect(published).toBeLessThanOrEqual(Date.now());
        expect(before - published).toBeLessThan(span);
      }
    }
    const news = await search({ query: 'election results', topic: 'news', days: 2, max_results: 10 });
    for (const result of news.results) {
      expect(result.published_date).toMatch(/^\w{3}, \d{2} \w{3} \d{4} \d{2}:\d{2}:\d{2} GMT$/);
      expect(Date.now() - Date.parse(result.published_date ?? '')).toBeLessThan(2 * recencyMs.day);
    }
    expect((await postSearch({ query: 'x', time_range: 'decade' })).status).toBe(400);
  });

  it('adds an answer and raw content when asked', async () => {
    const answer = await search({ query: 'tides', include_answer: 'advanced', include_raw_content: true, search_depth: 'advanced', max_results: 2 });
    expect(answer.answer).toContain('Simulated answer about tides');
    expect(answer.results.map((result) => result.raw_content)).toEqual(answer.results.map((result) => `# ${result.title}\n\n${result.content}`));
  });

  it('takes the key as a bearer token or as the legacy api_key field; otherwise 401 in Tavily’s words', async () => {
    expect((await postSearch({ query: 'q', api_key: testKey }, null)).status).toBe(200);
    for (const [body, key] of [[{ query: 'q' }, null], [{ query: 'q' }, 'tvly-wrong'], [{ query: 'q', api_key: 'tvly-wrong' }, null]] as const) {
      const response = await postSearch(body, key);
      expect(response.status).toBe(401);
      expect(await response.json()).toEqual({ detail: { error: 'Unauthorized: missing or invalid API key.' } });
    }
  });

  it('answers 400 {detail: {error}} without a query or with a body that is not JSON', async () => {
    for (const body of [{}, { query: '  ' }, '{nope']) {
      const response = await postSearch(body);
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual({ detail: { error: expect.any(String) } });
    }
  });

  it('plays faults from markers in the query or x_sim, and failNext, leaving markers out of the results', async () => {
    const failed = await postSearch({ query: 'q [sim:fault=status:429]' });
    expect(failed.status).toBe(429);
    expect(await failed.json()).toEqual({ detail: { error: 'Rate limit exceeded.' } });
    const malformed = await postSearch({ query: 'q', x_sim: { fault: 'malformed' } });
    await expect(malformed.json()).rejects.toThrow();
    sim.failNext({ kind: 'cut' });
    expect((await readAll(await postSearch({ query: 'q' }))).error).toBeDefined();
    await expect(postSearch({ query: 'q [sim:fault=timeout]' }, testKey, AbortSignal.timeout(150))).rejects.toThrow();
    const marked = await search({ query: 'tides [sim:latency=1]' });
    expect(marked.query).toBe('tides [sim:latency=1]');
    expect(marked.results[0]?.title.startsWith('tides — ')).toBe(true);
    expect(marked.results.map((result) => result.url)).toEqual((await search({ query: 'tides' })).results.map((result) => result.url));
    expect(sim.requests.every((request) => request.method === 'POST' && request.path === '/search')).toBe(true);
  });
});
