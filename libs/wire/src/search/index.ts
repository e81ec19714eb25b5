import type { ChannelType, SearchRequest } from '@chat-relay/contract';
import type { EndpointAdapter } from '../hub/endpoint-adapter';
import { searxngSearchAdapter } from './searxng-search-adapter';
import { tavilySearchAdapter } from './tavily-search-adapter';

export { tavilySearchAdapter, tavilySearchBody, readTavilyAnswer } from './tavily-search-adapter';
export { searxngSearchAdapter, searxngSearchQuery, readSearxngAnswer } from './searxng-search-adapter';
export { tavilyErrorMessage, mapSearchErrorResponse } from './search-error';
export { DEFAULT_SEARCH_RESULTS, SEARCH_USAGE, filterByDomain, hostOf, isInDomain, isoDate } from './search-common';

/** The search engines (SPEC §7a web search): every other channel type serves no search. */
const SEARCH_ADAPTERS: Partial<Record<ChannelType, EndpointAdapter<SearchRequest>>> = {
  tavily: tavilySearchAdapter,
  searxng: searxngSearchAdapter,
};

/** The adapter for `/v1/search` on a channel type; undefined: that type cannot serve a search. */
export function searchAdapterFor(type: ChannelType): EndpointAdapter<SearchRequest> | undefined {
  return SEARCH_ADAPTERS[type];
}
