import { createHash } from 'node:crypto';
import { stripSimMarkers } from '../message-text';

// The web both search APIs (Tavily, SearXNG) read: an endless, deterministic list of pages per
// query, spread over several sites, some dated. Results name the query's words so a test can
// see its query arrived.

/** The sites results come from when the request names none (Tavily's `include_domains`). */
export const searchHosts: readonly string[] = [
  'example.com',
  'docs.example.org',
  'news.example.net',
  'en.wikipedia.org',
  'blog.example.io',
  'forum.example.dev',
  'www.example.edu',
];

const hostKinds: Record<string, string> = {
  'example.com': 'Overview',
  'docs.example.org': 'Documentation',
  'news.example.net': 'News',
  'en.wikipedia.org': 'Wikipedia',
  'blog.example.io': 'Blog post',
  'forum.example.dev': 'Forum thread',
  'www.example.edu': 'Lecture notes',
};

export type SearchRecency = 'day' | 'week' | 'month' | 'year';
const dayMs = 86_400_000;
export const recencyMs: Record<SearchRecency, number> = { day: dayMs, week: 7 * dayMs, month: 30 * dayMs, year: 365 * dayMs };

/** What one search asks of the simulated web. */
export interface SimulatedSearch {
  /** As sent: `[sim:…]` markers are left out here. */
  query: string;
  count: number;
  /** Results skipped first (SearXNG's pages). Default 0. */
  offset?: number;
  /** The sites to draw from (default `searchHosts`). */
  hosts?: readonly string[];
  /** Sites (and their subdomains) never drawn from. */
  excludeDomains?: readonly string[];
  /** `all` results carry a date, or `some` (every third). */
  dated: 'all' | 'some';
  /** How far back dates go: every date is within this of `now`. */
  withinMs: number;
  /** Default `Date.now()`. */
  now?: number;
}

export interface SimulatedHit {
  /** 1-based, counting from the first page. */
  position: number;
  title: string;
  url: string;
  host: string;
  content: string;
  /** 0–1, falling with the position. */
  score: number;
  /** Whole seconds; undefined for an undated page. */
  publishedAt: Date | undefined;
}

/** `host` is `domain` or one of its subdomains (`en.wikipedia.org` is under `wikipedia.org`). */
export function isUnderDomain(host: string, domain: string): boolean {
  const wanted = domain.trim().toLowerCase();
  return host === wanted || host.endsWith(`.${wanted}`);
}

function digest(seed: string): Buffer {
  return createHash('sha256').update(seed).digest();
}

/**
 * The pages a query finds, `offset` on: site after site of `hosts` (less the excluded ones) from a
 * place the query picks, titles and snippets naming the query, dates within `withinMs`. The same
 * search at the same `now` always finds the same pages; [] when every site is excluded.
 */
export function simulatedSearchHits(search: SimulatedSearch): SimulatedHit[] {
  const query = stripSimMarkers(search.query);
  const words = query.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  const slug = words.slice(0, 8).join('-') || 'search';
  const excluded = search.excludeDomains ?? [];
  const hosts = (search.hosts ?? searchHosts)
    .map((host) => host.trim().toLowerCase())
    .filter((host) => !excluded.some((domain) => isUnderDomain(host, domain)));
  if (hosts.length === 0) return [];
  const start = digest(query).readUInt8(0);
  const now = search.now ?? Date.now();
  const offset = search.offset ?? 0;
  return Array.from({ length: search.count }, (_, index) => {
    const rank = offset + index;
    const host = hosts[(start + rank) % hosts.length] ?? 'example.com';
    const hash = digest(`${query}\n${host}\n${rank}`);
    const kind = hostKinds[host] ?? 'Page';
    const dated = search.dated === 'all' || rank % 3 === 0;
    const back = (0.02 + 0.9 * (hash.readUInt16BE(0) / 0xffff)) * search.withinMs;
    return {
      position: rank + 1,
      title: `${query || 'Search'} — ${kind} ${rank + 1}`,
      url: `https://${host}/${slug}/${rank + 1}`,
      host,
      content: `What ${host} says about ${query || 'this'}: ${words.join(', ') || 'everything'} explained, result ${rank + 1}.`,
      score: Math.max(0.01, Math.round((0.98 - 0.03 * rank - (hash.readUInt8(2) / 255) * 0.01) * 10_000) / 10_000),
      publishedAt: dated ? new Date(Math.floor((now - back) / 1000) * 1000) : undefined,
    };
  });
}
