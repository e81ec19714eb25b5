import type { SearchRequest, SearchResponse, SearchResult } from '@chat-relay/contract';
import { z } from 'zod';
import { upstreamError } from '../errors/relay-error';
import type { EndpointAnswer, EndpointUsage } from '../hub/endpoint-adapter';

/** Results asked for when the request names no `max_results` (Tavily's own default too). */
export const DEFAULT_SEARCH_RESULTS = 5;

/** A search is priced per query: one unit, no tokens. */
export const SEARCH_USAGE: Readonly<EndpointUsage> = { promptTokens: 0, completionTokens: 0, units: 1 };

export const maxResultsOf = (request: Pick<SearchRequest, 'max_results'>): number => request.max_results ?? DEFAULT_SEARCH_RESULTS;

/** An answer whose `results` list is missing or not a list: the relay may try another channel. */
export const malformedSearchAnswer = (provider: string) => upstreamError(`The upstream ${provider} sent a malformed search answer.`, 'bad_response');

/**
 * The `results` array of an answer, each element kept as it is: one result the reader cannot
 * use is skipped, not a reason to refuse the others.
 */
export const ResultsEnvelopeSchema = z.object({ results: z.array(z.unknown()) }).passthrough();

/** A date and time written without an offset (`2024-03-01T08:00:00`, Python's isoformat of a naive datetime). */
const WITHOUT_OFFSET = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?$/;

/**
 * A provider's publication date as ISO 8601 (UTC), or undefined when there is none or it is no
 * date. A time without an offset is read as UTC (JavaScript would read it as local time).
 */
export function isoDate(value: string | null | undefined): string | undefined {
  const text = value?.trim();
  if (!text) return undefined;
  const normalised = WITHOUT_OFFSET.test(text) ? `${text.replace(' ', 'T')}Z` : text;
  const time = Date.parse(normalised);
  return Number.isFinite(time) ? new Date(time).toISOString() : undefined;
}

/** The lower-cased host of an http(s) URL, without a trailing dot; undefined for anything else. */
export function hostOf(url: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return undefined;
  return parsed.hostname.toLowerCase().replace(/\.$/, '') || undefined;
}

/** `host` is `domain` or one of its subdomains (`docs.example.com` is in `example.com`; `example.com.evil.net` is not). */
export const isInDomain = (host: string, domain: string): boolean => host === domain || host.endsWith(`.${domain}`);

/**
 * The results a domain filter lets through: with `include_domains`, only hosts in one of them;
 * with `exclude_domains`, none in any of them. For providers that cannot filter themselves.
 */
export function filterByDomain(results: readonly SearchResult[], request: Pick<SearchRequest, 'include_domains' | 'exclude_domains'>): SearchResult[] {
  const include = request.include_domains ?? [];
  const exclude = request.exclude_domains ?? [];
  if (include.length === 0 && exclude.length === 0) return [...results];
  return results.filter((result) => {
    const host = hostOf(result.url);
    if (host === undefined) return false;
    if (include.length > 0 && !include.some((domain) => isInDomain(host, domain))) return false;
    return !exclude.some((domain) => isInDomain(host, domain));
  });
}

/** One result as the relay answers it; undefined when its URL is not an http(s) URL (nothing to cite). */
export function searchResult(fields: { title?: string | null; url: string; snippet?: string | null; published?: string | null }): SearchResult | undefined {
  if (hostOf(fields.url) === undefined) return undefined;
  const publishedAt = isoDate(fields.published);
  return {
    title: fields.title?.trim() || fields.url,
    url: fields.url,
    snippet: fields.snippet?.trim() ?? '',
    ...(publishedAt ? { published_at: publishedAt } : {}),
  };
}

/** The relay's answer to a search: the caller's query and model, the results, one query used. */
export function searchAnswer(request: Pick<SearchRequest, 'query'>, publicModel: string, results: SearchResult[]): EndpointAnswer {
  const body: SearchResponse = { object: 'search.result', query: request.query, model: publicModel, results };
  return { ok: true, kind: 'json', body, usage: { ...SEARCH_USAGE } };
}

/** The channel's keys that are secrets: `none` (or blank) is how a channel without a key is written. */
export const realKeys = (keys: readonly string[]): string[] => keys.filter((key) => key.trim() !== '' && key.trim().toLowerCase() !== 'none');
