import { RESPONSES_TO_CHAT } from '../responses-bridge-losses';
import {
  SearchRequestSchema,
  type ChatCompletionRequest,
  type ResponsesRequest,
  type ResponsesTool,
  type ResponseWebSearchCall,
  type SearchRequest,
  type SearchResult,
  type Tool,
} from '@chat-relay/contract';
import { invalidRequest } from '../../errors/relay-error';
import type { BridgeNotes } from '../../hub/bridge-notes';

/** OpenAI's hosted web search, by every name it has had. */
const WEB_SEARCH_TOOL_TYPES: ReadonlySet<string> = new Set(['web_search', 'web_search_2025_08_26', 'web_search_preview', 'web_search_preview_2025_03_11']);

export const isWebSearchTool = (tool: { type: string }): boolean => WEB_SEARCH_TOOL_TYPES.has(tool.type);

/** Results asked for by `search_context_size` (OpenAI's default is medium). */
const RESULTS_BY_CONTEXT_SIZE: Readonly<Record<string, number>> = { low: 3, medium: 5, high: 8 };
/** OpenAI's default context size, medium. */
const DEFAULT_RESULTS = 5;
/** Tavily refuses longer queries; a search engine makes little of more anyway. */
export const MAX_QUERY_CHARS = 400;
/** What one source may take of the prompt: its title, URL and snippet are cut beyond these. */
const MAX_TITLE_CHARS = 300;
const MAX_URL_CHARS = 2_000;
const MAX_SNIPPET_CHARS = 1_200;
/** The most results any context size asks for. */
const MAX_RESULTS = Math.max(...Object.values(RESULTS_BY_CONTEXT_SIZE));
/**
 * The most bytes one search's result adds to a bridged request's JSON (UTF-8, escapes counted:
 * a character is at most 6 bytes as `\uXXXX`): what the quota reservation adds for it.
 */
export const WEB_SEARCH_SOURCES_MAX_BYTES = 6 * (1_000 + MAX_QUERY_CHARS + MAX_RESULTS * (MAX_TITLE_CHARS + MAX_URL_CHARS + MAX_SNIPPET_CHARS + 100));

/** The search request's own check of a domain list: the engines take what it takes. */
const IncludeDomainsSchema = SearchRequestSchema.shape.include_domains.unwrap();

/**
 * A bridged request's web_search tool as the relay offers it: a function the model may call
 * (`functionName`, one that none of the caller's functions has), each call one search.
 */
export interface WebSearchPlan {
  functionName: string;
  /** From `search_context_size`. */
  maxResults: number;
  includeDomains?: string[];
}

/** How one search went: its results, or that it failed (`reason` for the log). */
export type WebSearchOutcome =
  | { status: 'completed'; query: string; results: readonly SearchResult[] }
  | { status: 'failed'; query: string | undefined; reason: string };

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

/** Every name the caller's tools give a function: its functions and custom tools, and those inside a namespace. */
function toolNamesOf(tools: readonly unknown[]): string[] {
  return tools.flatMap((tool) => {
    if (typeof tool !== 'object' || tool === null) return [];
    const { name, tools: inner } = tool as { name?: unknown; tools?: unknown };
    return [...(typeof name === 'string' ? [name] : []), ...(Array.isArray(inner) ? toolNamesOf(inner) : [])];
  });
}

/** The function's name: `web_search`, numbered when one of the caller's tools has that name already. */
function freeFunctionName(tools: readonly ResponsesTool[]): string {
  const taken = new Set(toolNamesOf(tools));
  let name = 'web_search';
  for (let n = 2; taken.has(name); n += 1) name = `web_search_${n}`;
  return name;
}

/**
 * The web search a bridged request offers the model, or undefined when it has no web_search
 * tool (web_search, web_search_preview and their dated names), `tool_choice` is 'none', or the
 * tool says `external_web_access: false` — OpenAI's cache-only mode, "will not fetch new external
 * content": the relay keeps no cache of the web, so the tool is not offered at all. Documented
 * mapping: search_context_size low / medium / high → 3 / 5 / 8 results per search (5 when absent);
 * filters.allowed_domains → include_domains (a scheme or path pasted with a domain is cut off; a
 * list the search engines cannot take is a 400 at the field); the query is the one the model
 * writes. user_location is not sent (warned): the relay's search engines take no location.
 * A second web_search tool adds nothing (warned).
 */
export function webSearchPlanOf(request: Pick<ResponsesRequest, 'tools' | 'tool_choice'>, notes: BridgeNotes): WebSearchPlan | undefined {
  const tools = request.tools ?? [];
  const index = tools.findIndex(isWebSearchTool);
  const tool = tools[index];
  if (!tool || request.tool_choice === 'none' || tool['external_web_access'] === false) return undefined;
  if (tools.filter(isWebSearchTool).length > 1) notes.lose(RESPONSES_TO_CHAT.rules.secondWebSearch);
  const location: unknown = tool['user_location'];
  if (location !== undefined && location !== null) notes.lose(RESPONSES_TO_CHAT.rules.searchLocation, { field: `tools[${index}].user_location` });
  const contextSize: unknown = tool['search_context_size'];
  const maxResults = (typeof contextSize === 'string' ? RESULTS_BY_CONTEXT_SIZE[contextSize] : undefined) ?? DEFAULT_RESULTS;
  const includeDomains = allowedDomainsOf(tool, index);
  return { functionName: freeFunctionName(tools), maxResults, ...(includeDomains ? { includeDomains } : {}) };
}

/** The hosted search as the function the model is offered. */
export function webSearchFunctionTool(plan: WebSearchPlan): Tool {
  return {
    type: 'function',
    function: {
      name: plan.functionName,
      description:
        'Search the web for current information. Returns numbered sources (title, URL, date, snippet). Call it only when the answer needs information from the web; cite each source you use by its URL.',
      parameters: {
        type: 'object',
        properties: { query: { type: 'string', description: 'What to search for, as a search engine query.' } },
        required: ['query'],
        additionalProperties: false,
      },
    },
  };
}

/** The query of a call to the search function: its `query` argument, whitespace collapsed, cut to MAX_QUERY_CHARS on a word boundary when it can be. */
export function webSearchQueryOf(argumentsJson: string): string | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(argumentsJson);
  } catch {
    return undefined;
  }
  const query: unknown = typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>)['query'] : undefined;
  const text = typeof query === 'string' ? query.replace(/\s+/g, ' ').trim() : '';
  if (text === '') return undefined;
  if (text.length <= MAX_QUERY_CHARS) return text;
  const cutText = text.slice(0, MAX_QUERY_CHARS);
  const space = cutText.lastIndexOf(' ');
  return (space > MAX_QUERY_CHARS / 2 ? cutText.slice(0, space) : cutText).trim();
}

/** The search's request for one query of the model's. */
export function webSearchRequestOf(plan: WebSearchPlan, query: string): SearchRequest {
  return { query, max_results: plan.maxResults, ...(plan.includeDomains ? { include_domains: plan.includeDomains } : {}) };
}

const cut = (text: string, limit: number): string => (text.length <= limit ? text : `${text.slice(0, limit - 1)}…`);

/** The search's outcome as the model reads it, the function's result: numbered sources with title, URL, date and snippet — or that it failed or found nothing. */
export function webSearchResultText(outcome: WebSearchOutcome): string {
  if (outcome.status === 'failed') {
    return 'The web search failed, so no web results are available. Answer from what you know, and say so if current information from the web would matter.';
  }
  const query = JSON.stringify(outcome.query);
  if (outcome.results.length === 0) return `A web search for ${query} found nothing.`;
  const sources = outcome.results.map((result, index) => {
    const lines = [`[${index + 1}] ${cut(result.title, MAX_TITLE_CHARS)}`, `URL: ${cut(result.url, MAX_URL_CHARS)}`];
    if (result.published_at) lines.push(`Published: ${result.published_at.slice(0, 10)}`);
    if (result.snippet) lines.push(cut(result.snippet, MAX_SNIPPET_CHARS));
    return lines.join('\n');
  });
  return [`Web search results for ${query}:`, ...sources, 'Cite each source you use by its URL, e.g. "… ([1](https://…))". Do not invent sources or URLs.'].join('\n\n');
}

/** What the model is told for a call past the limit of searches in one response. */
export const WEB_SEARCH_LIMIT_TEXT = 'Not searched: the limit of web searches for this response is reached. Answer with what you have.';

/**
 * The `web_search_call` output item of a search: `action.search` with its query (also as
 * `queries`, OpenAI's newer field) and every result's URL as a source — always, where OpenAI
 * lists sources only when `include` asks for them. `searching`: the item as it is added, before
 * the search has run (no sources yet).
 */
export function webSearchCallItem(id: string, outcome: WebSearchOutcome | { status: 'in_progress'; query: string | undefined }): ResponseWebSearchCall {
  const query = outcome.query;
  const sources = outcome.status === 'completed' ? { sources: outcome.results.map((result) => ({ type: 'url', url: result.url })) } : outcome.status === 'failed' ? { sources: [] } : {};
  return {
    type: 'web_search_call',
    id,
    status: outcome.status,
    action: { type: 'search', ...(query !== undefined ? { query, queries: [query] } : {}), ...sources },
  };
}

/** The hub request without the search function (no search channel to run it): a choice of it, and a choice or parallel flag left without tools, dropped too. */
export function withoutWebSearchFunction(request: ChatCompletionRequest, plan: WebSearchPlan): ChatCompletionRequest {
  const tools = (request.tools ?? []).filter((tool) => !(tool.type === 'function' && tool.function.name === plan.functionName));
  const choice = request.tool_choice;
  const forced = typeof choice === 'object' && choice.type === 'function' && choice.function.name === plan.functionName;
  const { tools: _tools, tool_choice: _choice, parallel_tool_calls: _parallel, ...rest } = request;
  if (tools.length === 0) return rest;
  return { ...rest, tools, ...(choice !== undefined && !forced ? { tool_choice: choice } : {}), ...(_parallel !== undefined ? { parallel_tool_calls: _parallel } : {}) };
}
