import { SearchResponseSchema, type Channel, type SearchResponse } from '@chat-relay/contract';
import { recencyMs, searxngPageSize, type UpstreamSim } from '@chat-relay/upstream-sim';
import OpenAI from 'openai';
import { SIM_KEY, startE2eRelay, type E2eRelay } from './e2e-relay';
import { usageRowsFor } from './usage-rows-for';

/**
 * SPEC §7a web search: `POST /v1/search` through the official `openai` package (its generic
 * `post`), over a Tavily and a SearXNG channel in front of the simulator — the results, the
 * filters and recency as each engine takes them, one usage row a query, errors in OpenAI's shape.
 */

const TAVILY_MODEL = 'web-search';
const SEARXNG_MODEL = 'searx-search';
/** A key the simulator's Tavily refuses (401), long enough to be redacted. */
const BAD_KEY = 'tvly-revoked-0123456789abcdef';

type Json = Record<string, unknown>;

describe('e2e: POST /v1/search', () => {
  let e2e: E2eRelay;
  let sim: UpstreamSim;
  let tavily: Channel;
  let searxng: Channel;
  let client: OpenAI;

  beforeAll(async () => {
    e2e = await startE2eRelay();
    sim = await e2e.startSim();
    tavily = await e2e.addChannel(sim.origin, { name: 'tavily', type: 'tavily', models: [TAVILY_MODEL], keys: [SIM_KEY] });
    searxng = await e2e.addChannel(sim.origin, { name: 'searxng', type: 'searxng', models: [SEARXNG_MODEL], keys: ['none'] });
    client = e2e.client();
  });
  afterAll(() => e2e.close());
  beforeEach(() => sim.reset());

  /** The search as the SDK sees it, with the request id the relay answered. */
  async function search(body: Json): Promise<{ answer: SearchResponse; requestId: string }> {
    const { data, response } = await client.post<SearchResponse>('/search', { body }).withResponse();
    return { answer: SearchResponseSchema.parse(data), requestId: response.headers.get('x-request-id') ?? '' };
  }
  const searches = () => sim.requests.filter((request) => request.path === '/search');
  const hostOf = (url: string) => new URL(url).hostname;
  const inDomain = (host: string, domain: string) => host === domain || host.endsWith(`.${domain}`);

  /** The request's one usage row: a search, one unit, on `channel`. */
  async function expectOneSearchRow(requestId: string, channel: Channel): Promise<void> {
    const [row] = await usageRowsFor(e2e, [requestId]);
    expect(row).toMatchObject({ endpoint: 'search', units: 1, promptTokens: 0, completionTokens: 0, status: 200, channelId: channel.id, attempts: 1, errorCode: null });
  }

  describe('through Tavily', () => {
    it('the model defaults to web-search: 5 results, the query as asked, Tavily’s documented body with the key as a bearer token', async () => {
      const { answer, requestId } = await search({ query: 'rust async runtimes' });
      expect(answer.object).toBe('search.result');
      expect(answer.query).toBe('rust async runtimes');
      expect(answer.model).toBe(TAVILY_MODEL);
      expect(answer.results).toHaveLength(5);
      for (const result of answer.results) {
        expect(result.title).toContain('rust async runtimes');
        expect(result.snippet).toContain('rust');
        expect(result.url).toMatch(/^https:\/\//);
      }
      const [sent] = searches();
      expect(sent?.method).toBe('POST');
      expect(sent?.headers['authorization']).toBe(`Bearer ${SIM_KEY}`);
      expect(sent?.body).toEqual({ query: 'rust async runtimes', max_results: 5, topic: 'general', search_depth: 'basic', include_answer: false });
      await expectOneSearchRow(requestId, tavily);
    });

    it('include_domains, exclude_domains, max_results and recency are passed on; published_at is ISO within the range', async () => {
      const { answer } = await search({ model: TAVILY_MODEL, query: 'release notes', max_results: 8, include_domains: ['example.com', 'example.org'], recency: 'week' });
      expect(answer.results).toHaveLength(8);
      for (const result of answer.results) {
        expect(['example.com', 'example.org'].some((domain) => inDomain(hostOf(result.url), domain))).toBe(true);
        expect(result.published_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.000Z$/);
        expect(Date.now() - Date.parse(result.published_at ?? '')).toBeLessThanOrEqual(recencyMs.week + 60_000);
      }
      expect(searches()[0]?.body).toMatchObject({ max_results: 8, include_domains: ['example.com', 'example.org'], time_range: 'week' });

      const { answer: without } = await search({ query: 'release notes', exclude_domains: ['wikipedia.org', 'example.com'] });
      expect(without.results.map((result) => hostOf(result.url)).filter((host) => inDomain(host, 'wikipedia.org') || inDomain(host, 'example.com'))).toEqual([]);
      expect(searches()[1]?.body).toMatchObject({ exclude_domains: ['wikipedia.org', 'example.com'] });
    });
  });

  describe('through SearXNG', () => {
    it('GET /search?q=…&format=json&time_range=…, no key sent; the relay cuts to max_results and dates in ISO', async () => {
      const { answer, requestId } = await search({ model: SEARXNG_MODEL, query: 'postgres vacuum', max_results: 3, recency: 'month' });
      expect(answer).toMatchObject({ object: 'search.result', query: 'postgres vacuum', model: SEARXNG_MODEL });
      expect(answer.results).toHaveLength(3);
      for (const result of answer.results) expect(Date.now() - Date.parse(result.published_at ?? '')).toBeLessThanOrEqual(recencyMs.month + 60_000);
      const [sent] = searches();
      expect(sent?.method).toBe('GET');
      expect(new URLSearchParams(sent?.query)).toEqual(new URLSearchParams({ q: 'postgres vacuum', format: 'json', time_range: 'month' }));
      expect(sent?.headers['authorization']).toBeUndefined();
      await expectOneSearchRow(requestId, searxng);
    });

    it('domain filters are applied by the relay: only the domain and its subdomains, never a look-alike; excluded ones dropped', async () => {
      const { answer: kept } = await search({ model: SEARXNG_MODEL, query: 'sqlite wal mode', max_results: 20, include_domains: ['example.org', 'wikipedia.org'] });
      expect(kept.results.length).toBeGreaterThan(0);
      expect(kept.results.length).toBeLessThan(searxngPageSize);
      for (const result of kept.results) expect(['docs.example.org', 'en.wikipedia.org']).toContain(hostOf(result.url));

      const { answer: dropped } = await search({ model: SEARXNG_MODEL, query: 'sqlite wal mode', max_results: 20, exclude_domains: ['example.com'] });
      const hosts = dropped.results.map((result) => hostOf(result.url));
      expect(hosts.filter((host) => inDomain(host, 'example.com'))).toEqual([]);
      // example.com is not a suffix match for other hosts (www.example.edu stays).
      expect(hosts.length).toBeGreaterThan(kept.results.length);
      // SearXNG was asked for the plain query: it cannot filter.
      expect(searches().map((request) => new URLSearchParams(request.query).get('q'))).toEqual(['sqlite wal mode', 'sqlite wal mode']);
    });
  });

  describe('errors, in OpenAI’s shape', () => {
    it('a model no search channel serves is a 404 model_not_found (NotFoundError), nothing sent upstream', async () => {
      const refused = await client.post('/search', { body: { model: 'gpt-4o', query: 'anything' } }).catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(OpenAI.NotFoundError);
      expect((refused as InstanceType<typeof OpenAI.NotFoundError>).error).toMatchObject({ type: 'invalid_request_error', code: 'model_not_found', param: 'model' });
      expect(searches()).toHaveLength(0);
    });

    it('a request the contract refuses is a 400 naming the field (BadRequestError)', async () => {
      const refused = await client.post('/search', { body: { query: 'x', include_domains: ['not a domain'] } }).catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(OpenAI.BadRequestError);
      expect((refused as InstanceType<typeof OpenAI.BadRequestError>).error).toMatchObject({ type: 'invalid_request_error', param: 'include_domains[0]' });
    });

    it('Tavily’s 401 disables the key, which is never shown, and the next key answers', async () => {
      const relay = await startE2eRelay();
      try {
        const own = await relay.startSim();
        const channel = await relay.addChannel(own.origin, { type: 'tavily', models: [TAVILY_MODEL], keys: [BAD_KEY, SIM_KEY] });
        const { data, response } = await relay.client().post<SearchResponse>('/search', { body: { query: 'key rotation' } }).withResponse();
        expect(SearchResponseSchema.parse(data).results).toHaveLength(5);
        expect(own.requests.map((request) => request.headers['authorization'])).toEqual([`Bearer ${BAD_KEY}`, `Bearer ${SIM_KEY}`]);
        const [row] = await usageRowsFor(relay, [response.headers.get('x-request-id')]);
        expect(row).toMatchObject({ endpoint: 'search', units: 1, status: 200, attempts: 2 });
        const shown = await fetch(`${relay.url}/api/channels/${channel.id}`, { headers: { authorization: `Bearer ${relay.relay.adminKey}` } });
        const text = await shown.text();
        expect((JSON.parse(text) as Channel).key_status.map((key) => [key.status, key.reason?.includes('upstream_auth_failed') ?? null])).toEqual([
          ['disabled', true],
          ['active', null],
        ]);
        expect(text).not.toContain(BAD_KEY);
      } finally {
        await relay.close();
      }
    });

    it('with its only key refused: a 502 upstream_auth_failed (InternalServerError), the key never quoted, one row', async () => {
      const relay = await startE2eRelay();
      try {
        const own = await relay.startSim();
        await relay.addChannel(own.origin, { type: 'tavily', models: [TAVILY_MODEL], keys: [BAD_KEY] });
        const raw = await fetch(`${relay.url}/v1/search`, {
          method: 'POST',
          headers: { authorization: `Bearer ${relay.token}`, 'content-type': 'application/json' },
          body: JSON.stringify({ query: 'key rotation' }),
        });
        const text = await raw.text();
        expect(raw.status).toBe(502);
        expect(JSON.parse(text)).toEqual({ error: { type: 'upstream_error', code: 'upstream_auth_failed', param: null, message: expect.any(String) } });
        expect(text).not.toContain(BAD_KEY);
        const [row] = await usageRowsFor(relay, [raw.headers.get('x-request-id')]);
        expect(row).toMatchObject({ endpoint: 'search', status: 502, errorCode: 'upstream_auth_failed', units: 0 });
      } finally {
        await relay.close();
      }
    });

    it('an engine failing with 503 is retried on the other search channel serving the model', async () => {
      const relay = await startE2eRelay();
      try {
        const own = await relay.startSim();
        await relay.addChannel(own.origin, { name: 'tavily', type: 'tavily', models: [TAVILY_MODEL], keys: [SIM_KEY], priority: 10 });
        const fallback = await relay.addChannel(own.origin, { name: 'searxng', type: 'searxng', models: [TAVILY_MODEL], keys: ['none'] });
        own.failNext({ kind: 'status', status: 503 });
        const { data, response } = await relay.client().post<SearchResponse>('/search', { body: { query: 'failover' } }).withResponse();
        expect(SearchResponseSchema.parse(data).results).toHaveLength(5);
        expect(own.requests.map((request) => request.method)).toEqual(['POST', 'GET']);
        const [row] = await usageRowsFor(relay, [response.headers.get('x-request-id')]);
        expect(row).toMatchObject({ endpoint: 'search', units: 1, status: 200, attempts: 2, channelId: fallback.id });
      } finally {
        await relay.close();
      }
    });
  });
});
