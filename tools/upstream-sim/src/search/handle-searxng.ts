import type { ServerResponse } from 'node:http';
import { createHash } from 'node:crypto';
import { planEndpointCall, sendEndpointAnswer, type EndpointFaultContext, type ErrorDialect } from '../endpoints/endpoint-answer';
import { sendJson } from '../http-io';
import { stripSimMarkers } from '../message-text';
import { recencyMs, simulatedSearchHits, type SearchRecency, type SimulatedHit } from './search-results';

/** Results on one SearXNG page. */
export const searxngPageSize = 10;
const engineNames = ['duckduckgo', 'brave', 'bing', 'qwant', 'startpage'];
const recencies: readonly SearchRecency[] = ['day', 'week', 'month', 'year'];

export const searxngDialect: ErrorDialect = {
  forStatus: (status) => ({ status, body: { error: `The simulator answered ${status}.` } }),
  unstreamed: { status: 500, body: { error: 'Internal Server Error' } },
};

/** What an instance without the JSON format enabled answers `format=json` (and any other format). */
function sendForbidden(res: ServerResponse): void {
  const page = '<!doctype html>\n<html lang=en>\n<title>403 Forbidden</title>\n<h1>Forbidden</h1>\n';
  res.writeHead(403, { 'content-type': 'text/html; charset=utf-8', 'content-length': Buffer.byteLength(page) });
  res.end(page);
}

function sendInvalid(res: ServerResponse, parameter: string, value: string): void {
  sendJson(res, 400, { error: `Invalid value "${value}" for parameter ${parameter}` });
}

/** Python's `urlparse` 6-tuple, as SearXNG's JSON carries it. */
function parsedUrl(url: string): string[] {
  const parsed = new URL(url);
  return [parsed.protocol.replace(/:$/, ''), parsed.host, parsed.pathname, '', parsed.search.replace(/^\?/, ''), parsed.hash.replace(/^#/, '')];
}

function resultOf(hit: SimulatedHit, category: string): Record<string, unknown> {
  const pick = createHash('sha256').update(hit.url).digest().readUInt8(0);
  const engine = hit.host.endsWith('wikipedia.org') ? 'wikipedia' : (engineNames[pick % engineNames.length] ?? 'duckduckgo');
  const other = engineNames[(pick + 1) % engineNames.length] ?? 'brave';
  return {
    url: hit.url,
    title: hit.title,
    content: hit.content,
    engine,
    engines: engine === other ? [engine] : [engine, other],
    score: hit.score,
    category,
    publishedDate: hit.publishedAt ? hit.publishedAt.toISOString() : null,
    parsed_url: parsedUrl(hit.url),
    template: 'default.html',
    positions: [hit.position],
  };
}

/**
 * GET /search as a SearXNG instance with the JSON format enabled answers `format=json` (403
 * without it): ten results a page (`pageno`), from every site — SearXNG cannot keep to domains —
 * dated within `time_range` when sent (else every third within a year). `language`,
 * `categories` (the first becomes `category`) and `safesearch` are read and change nothing else.
 */
export async function handleSearxngSearch(res: ServerResponse, query: string, context: EndpointFaultContext): Promise<void> {
  const params = new URLSearchParams(query);
  if (params.get('format') !== 'json') {
    sendForbidden(res);
    return;
  }
  const q = params.get('q') ?? '';
  if (q.trim() === '') {
    sendJson(res, 400, { error: 'No query' });
    return;
  }
  const pageText = params.get('pageno') ?? '1';
  const page = Number(pageText);
  if (!Number.isInteger(page) || page < 1) {
    sendInvalid(res, 'pageno', pageText);
    return;
  }
  const timeRange = params.get('time_range') ?? '';
  const recency = recencies.find((known) => known === timeRange);
  if (timeRange !== '' && !recency) {
    sendInvalid(res, 'time_range', timeRange);
    return;
  }
  const safesearch = params.get('safesearch') ?? '0';
  if (!['0', '1', '2'].includes(safesearch)) {
    sendInvalid(res, 'safesearch', safesearch);
    return;
  }
  const planned = planEndpointCall(undefined, q, 'q', context);
  if (planned.kind === 'invalid') {
    sendJson(res, 400, { error: planned.message });
    return;
  }
  const category = (params.get('categories') ?? '').split(',')[0]?.trim() || 'general';
  const hits = simulatedSearchHits({
    query: q,
    count: searxngPageSize,
    offset: (page - 1) * searxngPageSize,
    dated: recency ? 'all' : 'some',
    withinMs: recencyMs[recency ?? 'year'],
  });
  const body = {
    query: q,
    number_of_results: 1000 + (createHash('sha256').update(stripSimMarkers(q)).digest().readUInt16BE(0) % 9000),
    results: hits.map((hit) => resultOf(hit, category)),
    answers: [],
    corrections: [],
    infoboxes: [],
    suggestions: [],
    unresponsive_engines: [],
  };
  await sendEndpointAnswer(res, planned.plan, searxngDialect, { body: JSON.stringify(body), work: 1 });
}
