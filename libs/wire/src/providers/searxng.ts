import { searxngSearchAdapter } from '../search/searxng-search-adapter';
import type { ChannelProvider } from './channel-provider';
import { isSearchAnswer, TEST_QUERY } from './search-probe';

/** A SearXNG of the admin's, its JSON format enabled: web search with no key. */
export const searxngProvider: ChannelProvider = {
  search: searxngSearchAdapter,
  probe: {
    name: 'GET /search',
    method: 'GET',
    url: (baseUrl) => `${baseUrl}/search?q=${encodeURIComponent(TEST_QUERY).replace(/%20/g, '+')}&format=json`,
    isAnswer: isSearchAnswer,
    hint: (status) => (status === 403 ? 'SearXNG answers 403 while its JSON format is off: add json to search.formats in its settings.yml.' : undefined),
  },
};
