import { RESPONSES_TO_CHAT } from '../responses-bridge-losses';
import {
  SearchRequestSchema,
  type ChatCompletionRequest,
  type Message,
  type ResponsesRequest,
  type ResponsesTool,
  type ResponseWebSearchCall,
  type SearchRequest,
  type SearchResult,
} from '@chat-relay/contract';
import { invalidRequest } from '../../errors/relay-error';
import type { BridgeNotes } from '../../hub/bridge-notes';

/** OpenAI's hosted web search, by every name it has had. */
const WEB_SEARCH_TOOL_TYPES: ReadonlySet<string> = new Set(['web_search', 'web_search_2025_08_26', 'web_search_preview', 'web_search_preview_2025_03_11']);

export const isWebSearchTool = (tool: { type: string }): boolean => WEB_SEARCH_TOOL_TYPES.has(tool.type);

/** Results asked for by `search_context_size` (OpenAI's default is medium). */
const RESULTS_BY_CONTEXT_SIZE: Readonly<Record<string, number>> = { low: 3, medium: 5, high: 8 };
/** Tavily refuses longer queries; a search engine makes little of more anyway. */
export const MAX_QUERY_CHARS = 400;
/** What one source may take of the prompt: its title, URL and snippet are cut beyond these. */
const MAX_TITLE_CHARS = 300;
const MAX_URL_CHARS = 2_000;
const MAX_SNIPPET_CHARS = 1_200;
/** The most results any context size asks for. */
const MAX_RESULTS = Math.max(...Object.values(RESULTS_BY_CONTEXT_SIZE));
/**
 * The most bytes the sources message adds to a bridged request's JSON (UTF-8, escapes counted:
 * a character is at most 6 bytes as `\uXXXX`): what the quota reservation adds for it.
 */
export const WEB_SEARCH_SOURCES_MAX_BYTES = 6 * (1_000 + MAX_QUERY_CHARS + MAX_RESULTS * (MAX_TITLE_CHARS + MAX_URL_CHARS + MAX_SNIPPET_CHARS + 100));

/** The search request's own check of a domain list: the engines take what it takes. */
const IncludeDomainsSchema = SearchRequestSchema.shape.include_domains.unwrap();

/** The one search the relay runs for a bridged request with a web_search tool. */
export interface WebSearchPlan {
  /** The search: its query is the latest user text, `undefined` when there is none to search for. */
  request: Omit<SearchRequest, 'query'> & { query: string | undefined };
}

/** How the search went: its results, or that it failed (`reason` for the log). */
export type WebSearchOutcome =
  | { status: 'completed'; query: string; results: readonly SearchResult[] }
  | { status: 'failed'; query: string | undefined; reason: string };

const textOf = (content: Message['content']): string => {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((part) => (part.type === 'text' ? part.text : '')).join(' ');
};

/** The latest user message's text, whitespace collapsed, cut to MAX_QUERY_CHARS on a word boundary when it can be. */
export function searchQueryOf(messages: readonly Message[]): string | undefined {
  const latest = [...messages].reverse().find((message) => message.role === 'user');
  const text = latest ? textOf(latest.content).replace(/\s+/g, ' ').trim() : '';
  if (text === '') return undefined;
  if (text.length <= MAX_QUERY_CHARS) return text;
  const cut = text.slice(0, MAX_QUERY_CHARS);
  const space = cut.lastIndexOf(' ');
  return (space > MAX_QUERY_CHARS / 2 ? cut.slice(0, space) : cut).trim();
}

/** `https://Docs.Example.com/path` → `docs.example.com`: what callers paste into allowed_domains. */
const domainOf = (entry: string): string =>
  entry
    .trim()
    .toLowerCase()
    .replace(/^[a-z][a-z0-9+.-]*:\/\//, '')
    .replace(/[/?#].*$/, '')
    .replace(/\.$/, '');

function allowedDomainsOf(tool: ResponsesTool, index: number): string[] | undefined {
  const filters: unknown = tool['filters'];
  const param = `tools[${index}].filters.allowed_domains`;
  const domains: unknown = typeof filters === 'object' && filters !== null ? (filters as Record<string, unknown>)['allowed_domains'] : undefined;
  if (domains === undefined || domains === null) return undefined;
  if (!Array.isArray(domains) || !domains.every((domain): domain is string => typeof domain === 'string')) {
    throw invalidRequest(`${param} must be a list of domain names.`, param, 'invalid_type');
  }
  if (domains.length === 0) return undefined;
  const checked = IncludeDomainsSchema.safeParse(domains.map(domainOf));
  if (checked.success) return checked.data;
  const issue = checked.error.issues[0];
  const at = issue?.path.length ? `${param}[${String(issue.path[0])}]` : param;
  throw invalidRequest(`Invalid ${at}: ${issue?.message ?? 'not a domain'} (the relay's search takes at most 50 domains such as example.com).`, at, 'invalid_value');
}

/**
 * The search for a bridged request's web_search tool (web_search, web_search_preview and their
 * dated names), or undefined when it has none or `tool_choice` is 'none'. Documented mapping:
 * search_context_size low / medium / high → 3 / 5 / 8 results (5 when absent); filters.allowed_domains
 * → include_domains (a scheme or path pasted with a domain is cut off; a list the search engines
 * cannot take is a 400 at the field); the query is the latest user message's text, cut to 400
 * characters. user_location is not sent (warned): the relay's search engines take no location.
 * A second web_search tool adds nothing (warned).
 */
export function webSearchPlanOf(request: Pick<ResponsesRequest, 'tools' | 'tool_choice'>, messages: readonly Message[], notes: BridgeNotes): WebSearchPlan | undefined {
  const tools = request.tools ?? [];
  const index = tools.findIndex(isWebSearchTool);
  const tool = tools[index];
  if (!tool || request.tool_choice === 'none') return undefined;
  if (tools.filter(isWebSearchTool).length > 1) notes.lose(RESPONSES_TO_CHAT.rules.secondWebSearch);
  const location: unknown = tool['user_location'];
  if (location !== undefined && location !== null) notes.lose(RESPONSES_TO_CHAT.rules.searchLocation, { field: `tools[${index}].user_location` });
  const contextSize: unknown = tool['search_context_size'];
  const maxResults = (typeof contextSize === 'string' ? RESULTS_BY_CONTEXT_SIZE[contextSize] : undefined) ?? RESULTS_BY_CONTEXT_SIZE['medium'];
  const includeDomains = allowedDomainsOf(tool, index);
  const query = searchQueryOf(messages);
  return { request: { query, max_results: maxResults, ...(includeDomains ? { include_domains: includeDomains } : {}) } };
}

const cut = (text: string, limit: number): string => (text.length <= limit ? text : `${text.slice(0, limit - 1)}…`);

/** The sources as the model reads them: numbered, each with its title, URL, date and snippet. */
function sourcesText(outcome: WebSearchOutcome): string {
  if (outcome.status === 'failed') {
    return 'A web search was attempted for this conversation but it failed, so no web results are available. Answer from what you know, and say so if current information from the web would matter.';
  }
  const query = JSON.stringify(outcome.query);
  if (outcome.results.length === 0) return `A web search for ${query} found nothing. Answer from what you know, and say that the search found no sources.`;
  const sources = outcome.results.map((result, index) => {
    const lines = [`[${index + 1}] ${cut(result.title, MAX_TITLE_CHARS)}`, `URL: ${cut(result.url, MAX_URL_CHARS)}`];
    if (result.published_at) lines.push(`Published: ${result.published_at.slice(0, 10)}`);
    if (result.snippet) lines.push(cut(result.snippet, MAX_SNIPPET_CHARS));
    return lines.join('\n');
  });
  return [
    `Web search results for ${query}:`,
    ...sources,
    'Use these sources where they are relevant to answer, and cite each source you use by its URL, e.g. "… ([1](https://…))". Do not invent sources or URLs.',
  ].join('\n\n');
}

/**
 * The hub request with the search's outcome for the model: one system message (every channel
 * type takes one) after the leading system and developer messages, listing the numbered sources
 * and asking for their URLs to be cited — or saying that the search failed or found nothing.
 */
export function withWebSearchSources(request: ChatCompletionRequest, outcome: WebSearchOutcome): ChatCompletionRequest {
  const leading = request.messages.findIndex((message) => message.role !== 'system' && message.role !== 'developer');
  const at = leading < 0 ? request.messages.length : leading;
  const message: Message = { role: 'system', content: sourcesText(outcome) };
  return { ...request, messages: [...request.messages.slice(0, at), message, ...request.messages.slice(at)] };
}

/**
 * The `web_search_call` output item of the search: `action.search` with its query (also as
 * `queries`, OpenAI's newer field) and every result's URL as a source — always, where OpenAI
 * lists sources only when `include` asks for them.
 */
export function webSearchCallItem(id: string, outcome: WebSearchOutcome): ResponseWebSearchCall {
  const query = outcome.query;
  const sources = outcome.status === 'completed' ? outcome.results.map((result) => ({ type: 'url', url: result.url })) : [];
  return {
    type: 'web_search_call',
    id,
    status: outcome.status,
    action: { type: 'search', ...(query !== undefined ? { query, queries: [query] } : {}), sources },
  };
}
