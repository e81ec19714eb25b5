import { tavilySearchAdapter } from '../search/tavily-search-adapter';
import { type ChannelProvider } from './channel-provider';
import { isSearchAnswer, TEST_QUERY } from './search-probe';
import { tavilyAuthHeaders } from './provider-auth';

export { tavilyAuthHeaders };

/** Tavily's search API: web search, and the hosted `web_search` tool of bridged Responses requests. */
export const tavilyProvider: ChannelProvider = {
  search: tavilySearchAdapter,
  // One result costs one basic search credit; Tavily has no free call that checks the key.
  probe: {
    name: 'POST /search',
    method: 'POST',
    url: (baseUrl) => `${baseUrl}/search`,
    headers: (key) => ({ ...tavilyAuthHeaders(key), accept: 'application/json', 'content-type': 'application/json' }),
    body: { query: TEST_QUERY, max_results: 1 },
    isAnswer: isSearchAnswer,
  },
};
