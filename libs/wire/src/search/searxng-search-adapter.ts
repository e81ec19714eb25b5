import type { SearchRequest, SearchResult } from '@chat-relay/contract';
import { z } from 'zod';
import type { EndpointAdapter, EndpointAnswer } from '../hub/endpoint-adapter';
import { trimBaseUrl } from '../hub/native-request-body';
import { mapSearchErrorResponse } from './search-error';
import { filterByDomain, malformedSearchAnswer, maxResultsOf, realKeys, ResultsEnvelopeSchema, searchAnswer, searchResult } from './search-common';

/** One result of SearXNG's `format=json`; `publishedDate` is null or an isoformat date, often without an offset. */
const SearxngResultSchema = z
  .object({
    url: z.string(),
    title: z.string().nullish(),
    content: z.string().nullish(),
    publishedDate: z.string().nullish(),
  })
  .passthrough();

/**
 * SearXNG's query string. Documented mapping: query → q, format json, recency → time_range (the
 * same four values). SearXNG has no result count nor domain filter: see readSearxngAnswer.
 */
export function searxngSearchQuery(request: SearchRequest): URLSearchParams {
  const query = new URLSearchParams({ q: request.query, format: 'json' });
  if (request.recency) query.set('time_range', request.recency);
  return query;
}

/**
 * SearXNG's answer → the relay's results: content → snippet, publishedDate → published_at (ISO,
 * UTC when it has no offset). The domain filters are applied here — a host is in a domain when it
 * is that domain or a subdomain of it — and the list cut to max_results (5 when absent): fewer
 * may come back than asked for when the filters leave fewer.
 */
export function readSearxngAnswer(text: string, request: SearchRequest, publicModel: string): EndpointAnswer {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { ok: false, error: malformedSearchAnswer('SearXNG') };
  }
  const envelope = ResultsEnvelopeSchema.safeParse(json);
  if (!envelope.success) return { ok: false, error: malformedSearchAnswer('SearXNG') };
  const results: SearchResult[] = [];
  for (const item of envelope.data.results) {
    const parsed = SearxngResultSchema.safeParse(item);
    if (!parsed.success) continue;
    const { url, title, content, publishedDate: published } = parsed.data;
    const result = searchResult({ url, title, snippet: content, published });
    if (result) results.push(result);
  }
  return searchAnswer(request, publicModel, filterByDomain(results, request).slice(0, maxResultsOf(request)));
}

/**
 * A SearXNG instance (`GET {base_url}/search?q=…&format=json`). SearXNG takes no key; one that is
 * not `none` is sent as a bearer token, for an authenticating proxy in front of the instance.
 */
export const searxngSearchAdapter: EndpointAdapter<SearchRequest> = {
  endpoint: 'search',
  buildRequest: ({ channel, key, request }) => {
    const [secret] = realKeys([key]);
    return {
      method: 'GET',
      url: `${trimBaseUrl(channel.baseUrl)}/search?${searxngSearchQuery(request).toString()}`,
      headers: { accept: 'application/json', ...(secret ? { authorization: `Bearer ${secret}` } : {}) },
      body: '',
    };
  },
  convertResponse: (text, { request, publicModel }) => readSearxngAnswer(text, request, publicModel),
  // Its error pages are HTML: the status says it all.
  mapErrorResponse: (status, _text, secrets) => mapSearchErrorResponse({ provider: 'SearXNG', status, message: undefined, secrets }),
};
