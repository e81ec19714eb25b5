import { SearchRequestSchema, SearchResponseSchema, type SearchRequest } from '@chat-relay/contract';
import type { EndpointAnswer } from '../hub/endpoint-adapter';
import { tavilySearchAdapter } from './tavily-search-adapter';

const KEY = 'tvly-dev-0123456789abcdefSECRET';
const requestOf = (fields: Partial<SearchRequest> = {}): SearchRequest => SearchRequestSchema.parse({ query: 'latest node release', ...fields });
const build = (request: SearchRequest, baseUrl = 'https://api.tavily.com/') =>
  tavilySearchAdapter.buildRequest({ channel: { baseUrl }, key: KEY, request, upstreamModel: 'web-search' });
const convert = (body: unknown, request = requestOf()) =>
  tavilySearchAdapter.convertResponse(typeof body === 'string' ? body : JSON.stringify(body), { request, publicModel: 'web-search', contentType: 'application/json' });
const okBody = (answer: EndpointAnswer) => {
  if (!answer.ok || answer.kind !== 'json') throw new Error(`not a JSON answer: ${JSON.stringify(answer)}`);
  return { body: SearchResponseSchema.parse(answer.body), usage: answer.usage };
};

/** The shape of Tavily's documented answer to POST /search (topic news: with published_date). */
const tavilyAnswer = {
  query: 'latest node release',
  follow_up_questions: null,
  answer: null,
  images: [],
  results: [
    {
      url: 'https://nodejs.org/en/blog/release/v22.0.0',
      title: 'Node.js 22 is now available!',
      content: 'We are excited to announce the release of Node.js 22.',
      score: 0.98,
      raw_content: null,
      published_date: 'Wed, 24 Apr 2024 12:00:00 GMT',
    },
    { url: 'https://github.com/nodejs/node/releases', title: 'Releases · nodejs/node', content: 'Node.js JavaScript runtime', score: 0.91, raw_content: null },
  ],
  response_time: 1.09,
  request_id: '123e4567-e89b-12d3-a456-426614174111',
};

describe('tavilySearchAdapter.buildRequest', () => {
  it('posts to {base_url}/search with the key as a bearer token and the documented body', () => {
    const built = build(requestOf({ max_results: 8, include_domains: ['nodejs.org'], exclude_domains: ['w3schools.com'], recency: 'week' }));
    expect(built.method).toBe('POST');
    expect(built.url).toBe('https://api.tavily.com/search');
    expect(built.headers).toEqual({ authorization: `Bearer ${KEY}`, 'content-type': 'application/json' });
    expect(JSON.parse(String(built.body))).toEqual({
      query: 'latest node release',
      max_results: 8,
      include_domains: ['nodejs.org'],
      exclude_domains: ['w3schools.com'],
      time_range: 'week',
      topic: 'general',
      search_depth: 'basic',
      include_answer: false,
    });
  });

  it('asks for 5 results when the request names no max_results, and sends no empty filters nor time_range', () => {
    const body: unknown = JSON.parse(String(build(requestOf({ include_domains: [] })).body));
    expect(body).toEqual({ query: 'latest node release', max_results: 5, topic: 'general', search_depth: 'basic', include_answer: false });
  });
});

describe('tavilySearchAdapter.convertResponse', () => {
  it('maps content to snippet and published_date to an ISO published_at, the caller’s query and model, one unit', () => {
    const { body, usage } = okBody(convert(tavilyAnswer));
    expect(body).toEqual({
      object: 'search.result',
      query: 'latest node release',
      model: 'web-search',
      results: [
        {
          title: 'Node.js 22 is now available!',
          url: 'https://nodejs.org/en/blog/release/v22.0.0',
          snippet: 'We are excited to announce the release of Node.js 22.',
          published_at: '2024-04-24T12:00:00.000Z',
        },
        { title: 'Releases · nodejs/node', url: 'https://github.com/nodejs/node/releases', snippet: 'Node.js JavaScript runtime' },
      ],
    });
    expect(usage).toEqual({ promptTokens: 0, completionTokens: 0, units: 1 });
  });

  it('skips results it cannot use (no url, not http, bad date left out) and keeps the others', () => {
    const results = [
      { title: 'no url', content: 'x' },
      { url: 'javascript:alert(1)', title: 'script', content: 'x' },
      { url: 'https://example.com/a', title: null, content: null, published_date: 'not a date' },
      'garbage',
    ];
    const { body } = okBody(convert({ results }));
    expect(body.results).toEqual([{ title: 'https://example.com/a', url: 'https://example.com/a', snippet: '' }]);
  });

  it('cuts to max_results when Tavily sends more', () => {
    const results = Array.from({ length: 7 }, (_, index) => ({ url: `https://example.com/${index}`, title: `r${index}`, content: 'c' }));
    expect(okBody(convert({ results }, requestOf({ max_results: 3 }))).body.results.map((result) => result.title)).toEqual(['r0', 'r1', 'r2']);
  });

  it('refuses an answer without a results list as a malformed answer another channel may replace', () => {
    for (const text of ['{"answer":"x"}', 'not json', '[]']) {
      const answer = convert(text);
      expect(answer.ok).toBe(false);
      if (!answer.ok) expect({ status: answer.error.status, code: answer.error.code }).toEqual({ status: 502, code: 'bad_response' });
    }
  });
});

describe('tavilySearchAdapter.mapErrorResponse', () => {
  const map = (status: number, body: unknown) => tavilySearchAdapter.mapErrorResponse(status, JSON.stringify(body), [KEY]);

  it('401 {"detail":{"error":…}} rejects the key, and never repeats it', () => {
    const failure = map(401, { detail: { error: `Unauthorized: invalid API key ${KEY}.` } });
    expect(failure).toMatchObject({ keyRejected: true, retryable: true, channelFault: false });
    expect(failure.error.toBody().error).toMatchObject({ type: 'upstream_error', code: 'upstream_auth_failed' });
    expect(JSON.stringify(failure.error.toBody())).not.toContain(KEY);
  });

  it('a 400 about the request keeps its status and Tavily’s message, redacted', () => {
    const failure = map(400, { detail: { error: `Query is too long. Max query length is 400 characters (key ${KEY}).` } });
    expect(failure).toMatchObject({ retryable: false, channelFault: false });
    expect(failure.error.status).toBe(400);
    expect(failure.error.toBody().error).toEqual({
      message: 'Query is too long. Max query length is 400 characters (key [redacted]).',
      type: 'invalid_request_error',
      param: null,
      code: null,
    });
  });

  it('429, 432 and 433 (plan and pay-as-you-go limits) and 5xx are retryable channel faults', () => {
    for (const status of [429, 432, 433, 500, 503]) {
      const failure = map(status, { detail: { error: 'This request exceeds your plan’s set usage limit.' } });
      expect({ status, retryable: failure.retryable, channelFault: failure.channelFault, http: failure.error.status }).toEqual({ status, retryable: true, channelFault: true, http: 502 });
      expect(failure.error.message).toContain('exceeds your plan');
    }
  });

  it('reads FastAPI’s other shapes, and says the status when the body is no JSON', () => {
    expect(map(422, { detail: [{ loc: ['body', 'query'], msg: 'field required', type: 'value_error.missing' }] }).error.message).toBe('field required');
    expect(map(404, { detail: 'Not Found' }).error.message).toBe('Not Found');
    const html = tavilySearchAdapter.mapErrorResponse(400, '<html>bad</html>', [KEY]);
    expect(html.error.message).toBe('The upstream Tavily rejected the search with status 400.');
  });
});
