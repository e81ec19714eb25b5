import type { IncomingMessage, ServerResponse } from 'node:http';
import { handleSearxngSearch } from './handle-searxng';
import { handleTavilySearch, type SearchContext } from './handle-tavily';

/**
 * `/search` at the root is two providers, told apart by method: `POST` is Tavily's (a JSON
 * body), `GET` SearXNG's (query parameters). SearXNG also takes form POSTs; the simulator does
 * not, so the two never collide. False for any other path or method.
 */
export async function handleSearchRoute(
  req: IncomingMessage,
  res: ServerResponse,
  request: { method: string; path: string; query: string; rawBody: string },
  context: SearchContext,
): Promise<boolean> {
  if (request.path !== '/search') return false;
  if (request.method === 'POST') {
    await handleTavilySearch(req.headers, res, request.rawBody, context);
    return true;
  }
  if (request.method === 'GET') {
    await handleSearxngSearch(res, request.query, context);
    return true;
  }
  return false;
}
