import { randomUUID } from 'node:crypto';
import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import { z } from 'zod';
import { bearerKeyOf } from '../check-bearer';
import { planEndpointCall, sendEndpointAnswer, type EndpointFaultContext, type ErrorDialect } from '../endpoints/endpoint-answer';
import { sendJson } from '../http-io';
import { stripSimMarkers } from '../message-text';
import { dottedPath, firstIssue } from '../zod-issues';
import { recencyMs, simulatedSearchHits, type SearchRecency, type SimulatedHit } from './search-results';

export interface SearchContext extends EndpointFaultContext {
  acceptedKeys: ReadonlySet<string> | undefined;
}

/** Tavily's error body: `{"detail": {"error": "…"}}`. */
const tavilyError = (message: string) => ({ detail: { error: message } });

export const tavilyDialect: ErrorDialect = {
  forStatus: (status) => ({ status, body: tavilyError(status === 429 ? 'Rate limit exceeded.' : `The simulator answered ${status}.`) }),
  unstreamed: { status: 500, body: tavilyError('Internal server error.') },
};

export const tavilyDefaultMaxResults = 5;
export const tavilyMaxResults = 20;
/** How far back news goes when `days` is not sent. */
export const tavilyDefaultNewsDays = 7;
const timeRanges: Record<string, SearchRecency> = { day: 'day', d: 'day', week: 'week', w: 'week', month: 'month', m: 'month', year: 'year', y: 'year' };

const TavilySearchSchema = z
  .object({
    query: z.string(),
    api_key: z.string().optional(),
    max_results: z.number().int().min(0).max(tavilyMaxResults).optional(),
    include_domains: z.array(z.string()).optional(),
    exclude_domains: z.array(z.string()).optional(),
    time_range: z.string().nullable().optional(),
    topic: z.enum(['general', 'news', 'finance']).optional(),
    search_depth: z.enum(['basic', 'advanced', 'fast', 'ultra-fast']).optional(),
    include_answer: z.union([z.boolean(), z.enum(['basic', 'advanced'])]).optional(),
    include_raw_content: z.union([z.boolean(), z.enum(['markdown', 'text'])]).optional(),
    include_images: z.boolean().optional(),
    days: z.number().int().positive().optional(),
    x_sim: z.unknown().optional(),
  })
  .passthrough();
type TavilySearch = z.infer<typeof TavilySearchSchema>;

function sendTavilyError(res: ServerResponse, status: number, message: string): void {
  sendJson(res, status, tavilyError(message));
}

function parseJson(rawBody: string): { json: unknown } | undefined {
  try {
    return { json: JSON.parse(rawBody) };
  } catch {
    return undefined;
  }
}

/** The key of `Authorization: Bearer tvly-…`, or the legacy `api_key` body field. */
function keyOf(headers: IncomingHttpHeaders, json: unknown): string | undefined {
  const fromBody = typeof json === 'object' && json !== null && 'api_key' in json ? json.api_key : undefined;
  return bearerKeyOf(headers) ?? (typeof fromBody === 'string' && fromBody !== '' ? fromBody : undefined);
}

/** Which pages, dated how: a time range dates every result within it; news within `days`; else every third within a year. */
function datingOf(request: TavilySearch, recency: SearchRecency | undefined): { dated: 'all' | 'some'; withinMs: number } {
  if (recency) return { dated: 'all', withinMs: recencyMs[recency] };
  if (request.topic === 'news') return { dated: 'all', withinMs: (request.days ?? tavilyDefaultNewsDays) * recencyMs.day };
  return { dated: 'some', withinMs: recencyMs.year };
}

function resultOf(hit: SimulatedHit, rawContent: boolean): Record<string, unknown> {
  return {
    title: hit.title,
    url: hit.url,
    content: hit.content,
    score: hit.score,
    raw_content: rawContent ? `# ${hit.title}\n\n${hit.content}` : null,
    ...(hit.publishedAt ? { published_date: hit.publishedAt.toUTCString() } : {}),
  };
}

/**
 * POST /search as Tavily answers it: `max_results` pages (default 5, at most 20) only from
 * `include_domains` when sent, never from `exclude_domains`, dated within `time_range` (or news's
 * `days`); `answer` with `include_answer`, `raw_content` with `include_raw_content`.
 */
export async function handleTavilySearch(
  headers: IncomingHttpHeaders,
  res: ServerResponse,
  rawBody: string,
  context: SearchContext,
): Promise<void> {
  const body = parseJson(rawBody);
  const key = keyOf(headers, body?.json);
  if (!key || (context.acceptedKeys && !context.acceptedKeys.has(key))) {
    sendTavilyError(res, 401, 'Unauthorized: missing or invalid API key.');
    return;
  }
  if (!body) {
    sendTavilyError(res, 400, 'Invalid JSON body.');
    return;
  }
  const parsed = TavilySearchSchema.safeParse(body.json);
  if (!parsed.success) {
    const issue = firstIssue(parsed.error);
    const field = dottedPath(issue.path);
    sendTavilyError(res, 400, issue.missing ? `${field} is required.` : `Invalid ${field}: ${issue.message}.`);
    return;
  }
  const request = parsed.data;
  if (request.query.trim() === '') {
    sendTavilyError(res, 400, 'Query is missing.');
    return;
  }
  const recency = request.time_range ? timeRanges[request.time_range] : undefined;
  if (request.time_range && !recency) {
    sendTavilyError(res, 400, `Invalid time_range: '${request.time_range}'. Use day, week, month, year (or d, w, m, y).`);
    return;
  }
  const planned = planEndpointCall(request.x_sim, request.query, 'query', context);
  if (planned.kind === 'invalid') {
    sendTavilyError(res, 400, planned.message);
    return;
  }
  const includeDomains = request.include_domains?.filter((domain) => domain.trim() !== '');
  const hits = simulatedSearchHits({
    query: request.query,
    count: request.max_results ?? tavilyDefaultMaxResults,
    hosts: includeDomains && includeDomains.length > 0 ? includeDomains : undefined,
    excludeDomains: request.exclude_domains,
    ...datingOf(request, recency),
  });
  const query = stripSimMarkers(request.query);
  const answer = request.include_answer !== undefined && request.include_answer !== false
    ? `Simulated answer about ${query}: ${hits.map((hit) => hit.title).join('; ') || 'nothing was found'}.`
    : null;
  const rawContent = request.include_raw_content !== undefined && request.include_raw_content !== false;
  const answerBody = {
    query: request.query,
    follow_up_questions: null,
    answer,
    images: [],
    results: hits.map((hit) => resultOf(hit, rawContent)),
    response_time: '0.01',
    request_id: randomUUID(),
  };
  await sendEndpointAnswer(res, planned.plan, tavilyDialect, { body: JSON.stringify(answerBody), work: 1 });
}
