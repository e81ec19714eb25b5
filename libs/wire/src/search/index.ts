export { tavilySearchAdapter, tavilySearchBody, readTavilyAnswer } from './tavily-search-adapter';
export { searxngSearchAdapter, searxngSearchQuery, readSearxngAnswer } from './searxng-search-adapter';
export { tavilyErrorMessage, mapSearchErrorResponse } from './search-error';
export { DEFAULT_SEARCH_RESULTS, SEARCH_USAGE, filterByDomain, hostOf, isInDomain, isoDate } from './search-common';

