import { z } from 'zod';
import { EndpointModelSchema } from './openai-endpoints/endpoint-common.schema';

/** The model a search is routed and priced by when the request names none. */
export const DEFAULT_SEARCH_MODEL = 'web-search';

const domain = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9-]{2,63}$/, 'a domain name such as example.com');

/** How recent results must be. */
export const SearchRecencySchema = z.enum(['day', 'week', 'month', 'year']);
export type SearchRecency = z.infer<typeof SearchRecencySchema>;

/** `POST /v1/search`: a web search through a search channel (Tavily, SearXNG). */
export const SearchRequestSchema = z
  .object({
    query: z.string().trim().min(1).max(2_000),
    /** A search channel's model name (`web-search` when absent). */
    model: EndpointModelSchema.optional(),
    max_results: z.number().int().min(1).max(20).optional(),
    include_domains: z.array(domain).max(50).optional(),
    exclude_domains: z.array(domain).max(50).optional(),
    recency: SearchRecencySchema.optional(),
  })
  .strict();
export type SearchRequest = z.infer<typeof SearchRequestSchema>;

export const SearchResultSchema = z
  .object({
    title: z.string(),
    url: z.string(),
    snippet: z.string(),
    /** ISO 8601 when the provider says when the page was published. */
    published_at: z.string().optional(),
  })
  .strict();
export type SearchResult = z.infer<typeof SearchResultSchema>;

export const SearchResponseSchema = z
  .object({
    object: z.literal('search.result'),
    query: z.string(),
    model: z.string(),
    results: z.array(SearchResultSchema),
  })
  .strict();
export type SearchResponse = z.infer<typeof SearchResponseSchema>;
