import type { SearchRequest, SearchResult } from '@chat-relay/contract';
import { z } from 'zod';
import type { EndpointAdapter, EndpointAnswer } from '../hub/endpoint-adapter';
import { trimBaseUrl } from '../hub/native-request-body';
import { mapSearchErrorResponse, tavilyErrorMessage } from './search-error';
import { malformedSearchAnswer, maxResultsOf, ResultsEnvelopeSchema, searchAnswer, searchResult } from './search-common';
import { tavilyAuthHeaders } from '../providers/provider-auth';

/** One result of Tavily's `POST /search`; `published_date` only with `topic: news` (an RFC 1123 date). */
const TavilyResultSchema = z
  .object({
    url: z.string(),
    title: z.string().nullish(),
    content: z.string().nullish(),
    published_date: z.string().nullish(),
  })
  .passthrough();

/**
 * The body of Tavily's search. Documented mapping: query, max_results (5 when absent),
 * include_domains, exclude_domains as they are; recency → time_range (the same four values);
 * always topic `general`, search_depth `basic` (one credit a query) and include_answer false —
 * the relay answers results, never Tavily's own summary. The channel's model name means nothing
 * to Tavily and is not sent.
 */
export function tavilySearchBody(request: SearchRequest): Record<string, unknown> {
  return {
    query: request.query,
    max_results: maxResultsOf(request),
    ...(request.include_domains?.length ? { include_domains: request.include_domains } : {}),
    ...(request.exclude_domains?.length ? { exclude_domains: request.exclude_domains } : {}),
    ...(request.recency ? { time_range: request.recency } : {}),
    topic: 'general',
    search_depth: 'basic',
    include_answer: false,
  };
}

/** Tavily's answer → the relay's results: content → snippet, published_date → published_at (ISO). */
export function readTavilyAnswer(text: string, request: SearchRequest, publicModel: string): EndpointAnswer {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { ok: false, error: malformedSearchAnswer('Tavily') };
  }
  const envelope = ResultsEnvelopeSchema.safeParse(json);
  if (!envelope.success) return { ok: false, error: malformedSearchAnswer('Tavily') };
  const results: SearchResult[] = [];
  for (const item of envelope.data.results) {
    const parsed = TavilyResultSchema.safeParse(item);
    if (!parsed.success) continue;
    const { url, title, content, published_date: published } = parsed.data;
    const result = searchResult({ url, title, snippet: content, published });
    if (result) results.push(result);
  }
  return searchAnswer(request, publicModel, results.slice(0, maxResultsOf(request)));
}

/** Tavily (`POST {base_url}/search`, the key as a bearer token): base_url `https://api.tavily.com`. */
export const tavilySearchAdapter: EndpointAdapter<SearchRequest> = {
  endpoint: 'search',
  buildRequest: ({ channel, key, request }) => ({
    method: 'POST',
    url: `${trimBaseUrl(channel.baseUrl)}/search`,
    headers: { ...tavilyAuthHeaders(key), 'content-type': 'application/json' },
    body: JSON.stringify(tavilySearchBody(request)),
  }),
  convertResponse: (text, { request, publicModel }) => readTavilyAnswer(text, request, publicModel),
  mapErrorResponse: (status, text, secrets) => mapSearchErrorResponse({ provider: 'Tavily', status, message: tavilyErrorMessage(text), secrets }),
};
