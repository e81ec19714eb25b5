import { z } from 'zod';

/** What a search engine's probe searches for. */
export const TEST_QUERY = 'chat-relay channel test';

const SearchAnswerSchema = z.object({ results: z.array(z.unknown()) });

/** Whether a 2xx answer is a search engine's `{results: [...]}` (Tavily's and SearXNG's alike). */
export const isSearchAnswer = (answer: unknown): boolean => SearchAnswerSchema.safeParse(answer).success;
